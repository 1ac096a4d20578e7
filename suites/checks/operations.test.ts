// The profile's operations other than the balance checks (P-OPS-1, P-OPS-3, P-AMOUNT-3), each
// condition broken alone: the reference sandbox with one answer rewritten. The balance checks:
// wallet.test.ts; the operations' sandbox faults: order-checks.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check, CheckContext } from '../check.js';
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

describe('OPS-BALANCE-DEBITED: a payout whose debit is to come is waited for, and judged only once SUCCESS', () => {
  it('does not judge a payout that ended FAILED after answering amount_debited NO', async () => {
    const pending = withAnswers(check('ops-balance-debited'), (exchange, options) => {
      if (/^initiate a payout of/.test(options.label))
        return editedAnswer(exchange, (json) => void Object.assign(json.data as Json, { status: 'PROCESSING', amount_debited: 'NO' }));
      if (/^Payout Status until the payout settles/.test(options.label))
        return editedAnswer(exchange, (json) => void Object.assign(json.data as Json, { status: 'FAILED', amount_debited: 'NO' }));
      return exchange;
    });
    expect(await outcome(pending)).toMatch(/not judged: the payout ended FAILED, not SUCCESS: its debit could not be observed/);
  });
});

describe('a balance read below zero: the payouts beyond it are of an amount above zero', () => {
  const sent: unknown[] = [];
  const lower = (exchange: Exchange, options: SendOptions) => {
    if (/more than the balance$/.test(options.label)) sent.push((options.payload as Json).amount);
    const data = (exchange.response?.json as Json | undefined)?.data as Json | undefined;
    return typeof data?.balance === 'string' ? editedAnswer(exchange, (json) => void ((json.data as Json).balance = '-5.00')) : exchange;
  };
  // Every balance read, the quiet ones of wallet.ts included, answers -5.00.
  const negative = (c: Check): Check => {
    const rewrite = (ctx: CheckContext): CheckContext => ({
      ...ctx,
      send: async (options) => lower(await ctx.send(options), options),
      quietly: (work) => ctx.quietly((quiet) => work(rewrite(quiet))),
    });
    return { ...c, run: (ctx) => c.run(rewrite(ctx)) };
  };

  it.each(['ops-initiate-insufficient', 'ops-balance-unchanged-on-failure'])('%s', async (id) => {
    sent.length = 0;
    await target.run(negative(check(id)));
    expect(sent.length).toBeGreaterThan(0);
    for (const amount of sent) expect(Number(amount)).toBeGreaterThan(0);
  });
});

describe('OPS-BALANCE-UNCHANGED-ON-FAILURE: the payout judged is the one that ended FAILED', () => {
  const initiation = /more than the balance$/;
  const c = () => check('ops-balance-unchanged-on-failure');

  it.each(['PROCESSING', 'PENDING'])('waits for a payout answered %s until Payout Status says FAILED', async (state) => {
    expect(await outcome(editing(c(), initiation, (d) => void Object.assign(d, { status: state, utr_number: '' })))).toBe('passed');
  });

  it('judges a FAILED answer as it came, asking no Payout Status', async () => {
    const later = editing(c(), /^Payout Status until the payout settles$/, (d) => void (d.status = 'SUCCESS'));
    expect(await outcome(later)).toBe('passed');
  });

  it('does not judge a payout answered SUCCESS, or an initiation answered 400', async () => {
    expect(await outcome(editing(c(), initiation, (d) => void Object.assign(d, { status: 'SUCCESS', amount_debited: 'YES' })))).toMatch(
      /not judged: a payout beyond the balance did not end FAILED \(it is SUCCESS;/,
    );
    expect(await outcome(editing(c(), initiation, () => {}, 400))).toMatch(
      /not judged: a payout beyond the balance did not end FAILED \(answered HTTP 400;/,
    );
  });
});

describe('OPS-INITIATE-AMOUNT-FORMS and OPS-INITIATE-TRANSFER-MODE: what is sent, and what comes back', () => {
  it('fails an amount answered with more decimals than an amount can carry, not crashing on it', async () => {
    const long = `1.${'0'.repeat(401)}`;
    expect(await outcome(editing(check('ops-initiate-amount-forms'), /\(a decimal string\)$/, (d) => void (d.amount = long)))).toMatch(
      /not the same amount/,
    );
  });

  it('sends transfer_mode "paypal": a server refusing only that mode passes', async () => {
    const onlyPaypal = withAnswers(check('ops-initiate-transfer-mode'), (exchange, options) =>
      (options.payload as Json).transfer_mode === 'paypal' ? exchange : editedAnswer(exchange, () => {}, 200),
    );
    expect(await outcome(onlyPaypal)).toBe('passed');
  });
});
