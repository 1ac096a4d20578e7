// The profile's operations other than the balance checks (P-OPS-1, P-OPS-3, P-AMOUNT-3), each
// condition broken alone: the reference sandbox with one answer rewritten. The balance checks:
// wallet.test.ts; the operations' sandbox faults: order-checks.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check } from '../check.js';
import { editedAnswer, sandboxTarget, withAnswers, type SandboxTarget } from '../check-test-support.js';
import type { Exchange, SendOptions } from '../http.js';
import { operationChecks } from './operations.js';

type Json = Record<string, unknown>;
const check = (id: string) => operationChecks.find((c) => c.id === id)!;

let target: SandboxTarget;
beforeAll(async () => {
  target = await sandboxTarget();
});
afterAll(() => target.close());

const outcome = async (c: Check) => {
  const { outcome, meta } = await target.run(c);
  return outcome === 'passed' ? outcome : `${outcome}: ${meta.failure?.message ?? meta.skipped ?? meta.error?.message}`;
};
/** The check with the answers whose label matches changed: `edit` the body's `data` (or the whole body). */
const editing = (c: Check, label: RegExp, edit: (data: Json, json: Json) => void, status?: number) =>
  withAnswers(c, (exchange: Exchange, options: SendOptions) =>
    label.test(options.label) ? editedAnswer(exchange, (json) => edit(json.data as Json, json), status) : exchange,
  );

describe('OPS-ORDER-STATUS: the order asked for, with its amount and currency', () => {
  const status = /^Order Status of the new order$/;

  it('passes the sandbox', async () => {
    expect(await outcome(check('ops-order-status'))).toBe('passed');
  });

  it.each([
    ['another order_id', (d: Json) => void (d.order_id = 'ORDER-ELSE'), /Order Status must answer the order asked for/],
    ['another svc_order_id', (d: Json) => void (d.svc_order_id = 'SVC-ELSE'), /Order Status must answer the order asked for/],
    ['another amount', (d: Json) => void (d.order_amount = '310.26'), /order_amount "310.26" is not the order's 310.25/],
    ['another currency', (d: Json) => void (d.order_currency = 'USD'), /order_currency "USD" is not the order's INR/],
  ])('fails %s', async (_, edit, message) => {
    expect(await outcome(editing(check('ops-order-status'), status, edit))).toMatch(message);
  });

  it('fails an answer other than 200', async () => {
    expect(await outcome(editing(check('ops-order-status'), status, () => {}, 201))).toMatch(
      /^failed: Order Status of an existing order must answer 200/,
    );
  });
});

describe('OPS-CANCEL and OPS-CANCEL-AGAIN: CANCELLED once, 422 the second time', () => {
  const first = /^Order Cancel of the new UN_PAID order$/;

  it('fails a cancelled order that is not CANCELLED, or a first cancel answered other than 200', async () => {
    expect(await outcome(check('ops-cancel'))).toBe('passed');
    expect(await outcome(editing(check('ops-cancel'), first, (d) => void (d.order_status = 'UN_PAID')))).toMatch(/not "UN_PAID"/);
    expect(await outcome(editing(check('ops-cancel'), first, () => {}, 202))).toMatch(
      /^failed: Order Cancel of an UN_PAID order must answer 200/,
    );
    expect(await outcome(editing(check('ops-cancel-again'), first, () => {}, 202))).toMatch(/^failed: the first Order Cancel/);
  });

  it('fails 409 for the second cancel', async () => {
    expect(await outcome(check('ops-cancel-again'))).toBe('passed');
    expect(await outcome(editing(check('ops-cancel-again'), /CANCELLED order$/, () => {}, 409))).toMatch(/must answer 422/);
  });

  it.each(['ops-order-status-unknown', 'ops-cancel-unknown'])('%s fails 400 for an order never made', async (id) => {
    expect(await outcome(check(id))).toBe('passed');
    expect(await outcome(editing(check(id), /never used$/, () => {}, 400))).toMatch(/must answer 404/);
  });
});

describe('OPS-INITIATE-INSUFFICIENT: a FAILED record (amount_debited NO, utr_number NA, why), and Payout Status answers it again', () => {
  const initiation = /more than the balance$/;

  it('passes the sandbox', async () => {
    expect(await outcome(check('ops-initiate-insufficient'))).toBe('passed');
  });

  it.each([
    // A FAILED record's amount_debited, utr_number and message are the payout-record schema's, read first.
    [
      'PROCESSING',
      (d: Json) => void Object.assign(d, { status: 'PROCESSING', amount_debited: 'YES', utr_number: '' }),
      /must be FAILED with amount_debited NO and utr_number NA/,
    ],
    [
      'PROCESSING, its debit to come',
      (d: Json) => void (d.status = 'PROCESSING'),
      /must be FAILED with amount_debited NO and utr_number NA/,
    ],
    ['FAILED with amount_debited YES (the schema)', (d: Json) => void (d.amount_debited = 'YES'), /the payout initiated without funds/],
    ['another payout_order_id', (d: Json) => void (d.payout_order_id = 'PO-ELSE'), /payout_order_id came back as "PO-ELSE"/],
  ])('fails an initiation answered %s', async (_, edit, message) => {
    expect(await outcome(editing(check('ops-initiate-insufficient'), initiation, edit))).toMatch(message);
  });

  it('fails a Payout Status whose record differs in any field, naming each', async () => {
    const later = editing(check('ops-initiate-insufficient'), /^Payout Status of the FAILED payout$/, (d) => {
      d.created_at = '01-01-2026';
      d.utr_number = 'X';
    });
    expect(await outcome(later)).toMatch(
      /Payout Status returned a different record: utr_number "X" \(was "NA"\), created_at "01-01-2026" \(was "\d\d-\d\d-\d{4}"\)/,
    );
    const payoutId = editing(
      check('ops-initiate-insufficient'),
      /^Payout Status of the FAILED payout$/,
      (d) => void (d.payout_id = 'PAY-ELSE'),
    );
    expect(await outcome(payoutId)).toMatch(/payout_id "PAY-ELSE"/);
  });
});

describe('OPS-INITIATE: a payout record of the payout asked for, found again by Payout Status', () => {
  it('fails another payout_order_id in either answer, and an answer other than 200', async () => {
    expect(await outcome(check('ops-initiate'))).toBe('passed');
    const other = (d: Json) => void (d.payout_order_id = 'PO-ELSE');
    expect(await outcome(editing(check('ops-initiate'), /^initiate a payout/, other))).toMatch(/payout_order_id came back as "PO-ELSE"/);
    expect(await outcome(editing(check('ops-initiate'), /^Payout Status of the new payout$/, other))).toMatch(
      /Payout Status answered payout_order_id "PO-ELSE"/,
    );
    expect(await outcome(editing(check('ops-initiate'), /^Payout Status of the new payout$/, () => {}, 202))).toMatch(/must answer 200/);
  });
});

describe('OPS-INITIATE-AMOUNT-FORMS: a decimal string amount answered as the same amount', () => {
  it('fails another amount', async () => {
    expect(await outcome(check('ops-initiate-amount-forms'))).toBe('passed');
    const initiation = /\(a decimal string\)$/;
    expect(await outcome(editing(check('ops-initiate-amount-forms'), initiation, (d) => void (d.amount = '0.01')))).toMatch(
      /answers amount "0.01", not the same amount/,
    );
  });
});
