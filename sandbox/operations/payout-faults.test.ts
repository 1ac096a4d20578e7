import { describe, expect, it } from 'vitest';
import { FAULTS, FAULT_NAMES, type FaultName } from '../faults.js';
import { MERCHANT_A, MERCHANT_A_LIVE, MERCHANT_B } from '../tenants.js';
import { bankingSandbox, initiationBody, type BankingSandbox } from './payout-test-support.js';

interface FaultCase {
  fault: FaultName;
  /** One request or sequence; returns what a client observes. */
  observe(sandbox: BankingSandbox): Promise<unknown>;
  off: unknown;
  on: unknown;
}

/** How much a sequence of calls lowered merchant A's balance, in minor units. */
async function debitOf(sandbox: BankingSandbox, run: () => Promise<unknown>): Promise<number> {
  const before = await sandbox.balance();
  await run();
  return before - (await sandbox.balance());
}

const fixture =
  (field: string, id = 'PO-FIXTURE-FAILED') =>
  async (s: BankingSandbox) =>
    (await s.payoutStatus(id)).json.data[field];

const CASES: FaultCase[] = [
  {
    fault: 'env-wallet-404',
    observe: async (s) => (await s.payoutStatus('PO-FIXTURE-SUCCESS', MERCHANT_A, MERCHANT_A_LIVE.walletId)).status,
    off: 403,
    on: 404,
  },
  {
    fault: 'env-error-with-data',
    observe: async (s) => {
      const answer = await s.payoutStatus('PO-FIXTURE-SUCCESS', MERCHANT_A, MERCHANT_A_LIVE.walletId);
      return [answer.status, 'data' in answer.json];
    },
    off: [403, false],
    on: [403, true],
  },
  { fault: 'payout-failed-debited', observe: fixture('amount_debited'), off: 'NO', on: 'YES' },
  { fault: 'payout-failed-utr', observe: fixture('utr_number'), off: 'NA', on: '' },
  { fault: 'payout-amount-number', observe: fixture('amount', 'PO-FIXTURE-SUCCESS'), off: '1500.00', on: 1500 },
  { fault: 'payout-status-lowercase', observe: fixture('status', 'PO-FIXTURE-SUCCESS'), off: 'SUCCESS', on: 'success' },
  { fault: 'payout-created-at-slashes', observe: fixture('created_at'), off: '20-11-2026', on: '20/11/2026' },
  {
    fault: 'payout-unknown-200',
    observe: async (s) => {
      const answer = await s.payoutStatus('PO-NEVER-MADE');
      return [answer.status, answer.json.status, answer.json.code];
    },
    off: [404, false, 404],
    on: [200, false, 404],
  },
  {
    fault: 'payout-cross-merchant',
    observe: async (s) => (await s.payoutStatus('PO-FIXTURE-B-SUCCESS')).status,
    off: 404,
    on: 200,
  },
  {
    // merchant A's own payout asked for from merchant B's wallet
    fault: 'payout-other-merchant-wallet',
    observe: async (s) => {
      const answer = await s.payoutStatus('PO-FIXTURE-SUCCESS', MERCHANT_A, MERCHANT_B.walletId);
      return [answer.status, answer.json.data?.payout_order_id];
    },
    off: [403, undefined],
    on: [200, 'PO-FIXTURE-SUCCESS'],
  },
  {
    fault: 'payout-missing-field-404',
    observe: async (s) => (await s.statusPayload({ svc_wallet_id: MERCHANT_A.walletId, debit_account_type: 'svc_wallet' })).status,
    off: 400,
    on: 404,
  },
  {
    fault: 'ops-failed-as-error',
    observe: async (s) => {
      const answer = await s.initiate(initiationBody('PO-BIG', { amount: 2_000_000 }));
      return [answer.status, answer.json.data?.status];
    },
    off: [200, 'FAILED'],
    on: [422, undefined],
  },
  {
    fault: 'ops-initiate-duplicate',
    observe: async (s) => {
      await s.initiate(initiationBody('PO-TWICE'));
      return (await s.initiate(initiationBody('PO-TWICE', { amount: 200 }))).status;
    },
    off: 409,
    on: 200,
  },
  {
    fault: 'ops-amount-string-refused',
    observe: async (s) => (await s.initiate(initiationBody('PO-TEXT', { amount: '100.00' }))).status,
    off: 200,
    on: 400,
  },
  {
    fault: 'ops-transfer-mode-unchecked',
    observe: async (s) => (await s.initiate(initiationBody('PO-PAYPAL', { transfer_mode: 'paypal' as never }))).status,
    off: 400,
    on: 200,
  },
  {
    fault: 'ops-balance-not-debited',
    observe: (s) =>
      debitOf(s, async () => {
        await s.initiate(initiationBody('PO-PAID', { amount: 100 }));
        s.advance(2);
        expect((await s.payoutStatus('PO-PAID')).json.data.status).toBe('SUCCESS');
      }),
    off: 10_000,
    on: 0,
  },
  {
    fault: 'ops-debit-whole-units',
    observe: (s) => debitOf(s, () => s.initiate(initiationBody('PO-CENTS', { amount: 100.37 }))),
    off: 10_037,
    on: 10_000,
  },
  {
    // FAILED by the bank, by settlement, and for insufficient balance: the last is debited before
    // the funds check, so the balance goes negative
    fault: 'ops-failed-debits',
    observe: async (s) => {
      const debited = await debitOf(s, async () => {
        await s.initiate(initiationBody('PO-REJECTED', { amount: 100.13 }));
        await s.initiate(initiationBody('PO-LATER-FAILED', { amount: 50 }));
        await s.settle('PO-LATER-FAILED', 'FAILED');
        const broke = await s.initiate(initiationBody('PO-BROKE', { amount: 2_000_000 }));
        expect(broke.json.data).toMatchObject({ status: 'FAILED', amount_debited: 'NO', utr_number: 'NA' });
      });
      return [debited, (await s.balanceAnswer()).json.data.balance];
    },
    off: [0, '1000000.00'],
    on: [10_013 + 5_000 + 200_000_000, '-1000150.13'],
  },
];

describe('banking fault switches: each changes exactly its observable answer', () => {
  it.each(CASES.map((c) => [c.fault, FAULTS[c.fault].rule, c] as const))('%s (%s)', async (_, __, c) => {
    expect(await c.observe(bankingSandbox())).toEqual(c.off);
    expect(await c.observe(bankingSandbox({ faults: [c.fault] }))).toEqual(c.on);
  });

  it('covers every payout, operations (but order cancel and the races: money-faults.test.ts) and wallet-environment fault', () => {
    const banking = FAULT_NAMES.filter(
      (name) =>
        FAULTS[name].area === 'payout' ||
        (FAULTS[name].area === 'operations' && !['ops-cancel-cancelled', 'ops-initiate-race', 'ops-cancel-race'].includes(name)) ||
        name.startsWith('env-wallet') ||
        name === 'env-error-with-data',
    );
    expect(CASES.map((c) => c.fault).sort()).toEqual(banking.sort());
  });
});
