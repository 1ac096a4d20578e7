import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidPayoutStatusRequest, invalidTransactionInitiationRequest, transactionInitiationRequest } from '../../generators/index.js';
import { describeErrors, validateSchema, type SchemaId } from '../../schemas/index.js';
import { TRANSFER_MODES, type TransferMode } from '../../schemas/types.js';
import { MERCHANT_A, MERCHANT_A_LIVE, MERCHANT_B, PAYOUT_FIXTURES } from '../tenants.js';
import type { Answer } from '../test-support.js';
import { bankingSandbox, minorOf } from './payout-test-support.js';

const SEED = 20261121;

function expectSchema(id: SchemaId, value: unknown): void {
  const result = validateSchema(id, value);
  if (!result.valid) throw new Error(`${id}: ${describeErrors(result.errors)}\nin ${JSON.stringify(value)}`);
}

function expectPayoutError(answer: Answer, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.json).not.toHaveProperty('data');
  expectSchema('payout-status-error-envelope', answer.json);
  expect(answer.json.code).toBe(status);
}

describe('Payout Status: fixtures (interface: Payout Status; P-PAYOUT-1, P-PAYOUT-2)', () => {
  it.each(PAYOUT_FIXTURES.map((f) => [f.payoutOrderId, f] as const))('%s reads back as a payout record', async (_, fixture) => {
    const sandbox = bankingSandbox();
    const who = fixture.merchantId === MERCHANT_B.id ? MERCHANT_B : MERCHANT_A;
    const answer = await sandbox.payoutStatus(fixture.payoutOrderId, who);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
    expectSchema('payout-status-envelope', answer.json);
    const record = answer.json.data;
    expect(Object.values(record).every((v) => typeof v === 'string')).toBe(true);
    expect(record).toMatchObject({
      payout_order_id: fixture.payoutOrderId,
      status: fixture.status,
      currency: 'INR',
      message: fixture.message,
      created_at: '20-11-2026',
    });
    expect(minorOf(record.amount)).toBe(fixture.amountMinor);
    expect(record.wallet_id).toBe(record.payout_id.replace('PAY-', 'WTX-'));
  });

  it('a FAILED payout says amount_debited NO, utr_number NA and gives a reason (P-PAYOUT-3)', async () => {
    const answer = await bankingSandbox().payoutStatus('PO-FIXTURE-FAILED');
    expect(answer.json.data).toMatchObject({ status: 'FAILED', amount_debited: 'NO', utr_number: 'NA' });
    expect(answer.json.data.message).not.toBe('');
  });

  it('SUCCESS and REVERSED fixtures carry a UTR; PENDING and PROCESSING none yet', async () => {
    const sandbox = bankingSandbox();
    for (const [state, utr] of [
      ['SUCCESS', /^SBXUTR\d{10}$/],
      ['REVERSED', /^SBXUTR\d{10}$/],
      ['PENDING', /^$/],
      ['PROCESSING', /^$/],
    ] as const) {
      expect((await sandbox.payoutStatus(`PO-FIXTURE-${state}`)).json.data.utr_number).toMatch(utr);
    }
  });

  it('fixtures never move on their own', async () => {
    const sandbox = bankingSandbox();
    sandbox.advance(86_400);
    expect((await sandbox.payoutStatus('PO-FIXTURE-PROCESSING')).json.data.status).toBe('PROCESSING');
    expect((await sandbox.payoutStatus('PO-FIXTURE-PENDING')).json.data.status).toBe('PENDING');
  });
});

describe('Payout Status: refusals (P-PAYOUT-4, P-PAYOUT-5, P-ENV-2, P-ERR-4)', () => {
  it('an unknown payout_order_id answers 404 with no data', async () => {
    const answer = await bankingSandbox().payoutStatus('PO-NEVER-MADE');
    expectPayoutError(answer, 404);
    expect(answer.json.message).toBe('payout transaction not found');
  });

  it("another merchant's payout answers 404, and is its owner's to read", async () => {
    const sandbox = bankingSandbox();
    expectPayoutError(await sandbox.payoutStatus('PO-FIXTURE-B-SUCCESS'), 404);
    expectPayoutError(await sandbox.payoutStatus('PO-FIXTURE-SUCCESS', MERCHANT_B), 404);
    expect((await sandbox.payoutStatus('PO-FIXTURE-B-SUCCESS', MERCHANT_B)).status).toBe(200);
  });

  it('a production wallet answers 403 "invalid for the selected environment" with no data', async () => {
    const answer = await bankingSandbox().payoutStatus('PO-FIXTURE-SUCCESS', MERCHANT_A, MERCHANT_A_LIVE.walletId);
    expectPayoutError(answer, 403);
    expect(answer.json.message).toBe('wallet identifier is invalid for the selected environment');
  });

  it.each([
    ['an unknown wallet', 'WAL-NOBODY'],
    ["another merchant's wallet", MERCHANT_B.walletId],
  ])('%s answers 403 with no data', async (_, wallet) => {
    expectPayoutError(await bankingSandbox().payoutStatus('PO-FIXTURE-SUCCESS', MERCHANT_A, wallet), 403);
  });

  it.each(['svc_wallet_id', 'debit_account_type', 'payout_order_id'])('a request without %s answers 400', async (field) => {
    const payload: Record<string, unknown> = {
      svc_wallet_id: MERCHANT_A.walletId,
      debit_account_type: 'svc_wallet',
      payout_order_id: 'PO-FIXTURE-SUCCESS',
    };
    delete payload[field];
    const answer = await bankingSandbox().statusPayload(payload);
    expectPayoutError(answer, 400);
    expect(answer.json.message).toContain(field);
  });

  it(`answers every invalidPayoutStatusRequest with one of its expected statuses (seed ${SEED})`, async () => {
    const sandbox = bankingSandbox();
    const requests = invalidPayoutStatusRequest({
      walletId: MERCHANT_A.walletId,
      payoutOrderIds: ['PO-FIXTURE-SUCCESS', 'PO-FIXTURE-FAILED'],
    });
    await fc.assert(
      fc.asyncProperty(requests, async (invalid) => {
        const answer =
          invalid.body.kind === 'text' ? await sandbox.statusRaw(invalid.body.text) : await sandbox.statusPayload(invalid.body.value);
        expect(invalid.expectedStatuses, invalid.description).toContain(answer.status);
        expectPayoutError(answer, answer.status);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});

describe('Balance Inquiry (P-OPS)', () => {
  it('answers the wallet id, the balance as decimal text and the currency', async () => {
    const answer = await bankingSandbox().balanceAnswer();
    expect(answer.status).toBe(200);
    expectSchema('success-envelope', answer.json);
    expectSchema('balance-record', answer.json.data);
    expect(answer.json.data).toEqual({ wallet_id: MERCHANT_A.walletId, balance: '1000000.00', currency: 'INR' });
  });

  it.each([
    ['a production wallet', MERCHANT_A_LIVE.walletId],
    ['an unknown wallet', 'WAL-NOBODY'],
    ["another merchant's wallet", MERCHANT_B.walletId],
  ])('%s answers 403', async (_, wallet) => {
    const answer = await bankingSandbox().balanceAnswer(wallet);
    expect(answer.status).toBe(403);
    expectSchema('error-envelope', answer.json);
  });

  it('a request without svc_wallet_id answers 400', async () => {
    const answer = await bankingSandbox().balancePayload({ wallet_id: MERCHANT_A.walletId });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toContain('svc_wallet_id');
  });
});

describe(`Transaction Initiation: generated requests (P-OPS, P-OPS-3, P-ERR-3; seed ${SEED})`, () => {
  it('accepts every transfer mode of the table with a generated beneficiary', async () => {
    const sandbox = bankingSandbox();
    const seen = new Set<TransferMode>();
    let counter = 0;
    const requests = transactionInitiationRequest({
      walletId: MERCHANT_A.walletId,
      currencies: ['INR'],
      maxAmount: 1000,
      payoutOrderIdPrefix: 'MODES',
    });
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        counter += 1;
        const body = { ...request, payout_order_id: `${counter}-${request.payout_order_id}` };
        const answer = await sandbox.initiate(body);
        expect(answer.status, answer.text).toBe(200);
        expectSchema('payout-status-envelope', answer.json);
        expect(answer.json.data.payout_order_id).toBe(body.payout_order_id);
        seen.add(request.transfer_mode);
      }),
      { seed: SEED, numRuns: 200 },
    );
    expect([...seen].sort()).toEqual([...TRANSFER_MODES].sort());
  });

  it('answers every invalidTransactionInitiationRequest with one of its expected statuses, never a 5xx', async () => {
    const sandbox = bankingSandbox();
    const requests = invalidTransactionInitiationRequest({ walletId: MERCHANT_A.walletId, currencies: ['INR'], maxAmount: 1000 });
    await fc.assert(
      fc.asyncProperty(requests, async (invalid) => {
        const answer =
          invalid.body.kind === 'text' ? await sandbox.initiateRaw(invalid.body.text) : await sandbox.initiate(invalid.body.value);
        expect(invalid.expectedStatuses, `${invalid.description}: ${answer.text}`).toContain(answer.status);
        expectSchema('error-envelope', answer.json);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
