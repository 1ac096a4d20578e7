// The wallet, isolation and race rules (P-MONEY-2..4, P-TENANT-1, P-OPS-5, P-OPS-1, P-AUTH-5), spare
// wallets and debitAt 'settlement': each fault changes exactly the answer its rule is about.
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../faults.js';
import { OPERATION_PATHS } from '../paths.js';
import { call } from '../test-support.js';
import { MERCHANT_A, MERCHANT_B } from '../tenants.js';
import { createdOrder, orderBody, orderSandbox } from './order-test-support.js';
import { bankingSandbox, initiationBody, minorOf, type BankingSandbox } from './payout-test-support.js';
import { MAX_SPARE_WALLETS } from './spare-wallets.js';
import type { FaultCase } from '../test-support.js';

/** Opens a spare wallet of merchant A with `balance`; answers its id. */
async function spare(s: BankingSandbox, balance: unknown = '25'): Promise<string> {
  const answer = await call(s.app, { path: OPERATION_PATHS.spareWallet, payload: { balance } });
  if (answer.status !== 201) throw new Error(`POST /sandbox/wallets answered ${answer.status}: ${answer.text}`);
  return answer.json.data.wallet_id as string;
}

const spareBalance = async (s: BankingSandbox, walletId: string) => minorOf((await s.balanceAnswer(walletId)).json.data.balance);

const CASES: FaultCase[] = [
  {
    fault: 'money-exact-balance-refused',
    observe: async (faults) => {
      const s = bankingSandbox({ faults });
      const walletId = await spare(s, '25.00');
      return (await s.initiate(initiationBody('PO-ALL', { svc_wallet_id: walletId, amount: 25 }))).json.data.status;
    },
    off: 'PROCESSING',
    on: 'FAILED',
  },
  {
    fault: 'money-rounding-tolerance',
    observe: async (faults) => {
      const s = bankingSandbox({ faults });
      const walletId = await spare(s, '25.00');
      const over = await s.initiate(initiationBody('PO-OVER', { svc_wallet_id: walletId, amount: 25.01 }));
      return [over.json.data.status, await spareBalance(s, walletId)];
    },
    off: ['FAILED', 2500],
    on: ['PROCESSING', -1],
  },
  {
    fault: 'money-overdraft-race',
    observe: async (faults) => {
      const s = bankingSandbox({ faults });
      const walletId = await spare(s, '25.00');
      const answers = await Promise.all(
        [1, 2, 3, 4].map((i) => s.initiate(initiationBody(`PO-RACE-${i}`, { svc_wallet_id: walletId, amount: 10 }))),
      );
      return [answers.filter((a) => a.json.data.status !== 'FAILED').length, await spareBalance(s, walletId)];
    },
    off: [2, 500],
    on: [4, -1500],
  },
  {
    fault: 'money-duplicate-debits',
    observe: async (faults) => {
      const s = bankingSandbox({ faults });
      await s.initiate(initiationBody('PO-ONCE'));
      const before = await s.balance();
      const again = await s.initiate(initiationBody('PO-ONCE', { amount: 7 }));
      return [again.status, before - (await s.balance())];
    },
    off: [409, 0],
    on: [409, 700],
  },
  {
    fault: 'money-debit-before-validation',
    observe: async (faults) => {
      const s = bankingSandbox({ faults });
      const before = await s.balance();
      const refused = await s.initiate({ ...initiationBody('PO-PAYPAL', { amount: 7 }), transfer_mode: 'paypal' });
      return [refused.status, before - (await s.balance())];
    },
    off: [400, 0],
    on: [400, 700],
  },
  {
    fault: 'ops-initiate-race',
    observe: async (faults) => {
      const s = bankingSandbox({ faults });
      const answers = await Promise.all([1, 2, 3].map(() => s.initiate(initiationBody('PO-SAME'))));
      return answers.map((a) => a.status).sort();
    },
    off: [200, 409, 409],
    on: [200, 200, 200],
  },
  {
    fault: 'ops-cancel-race',
    observe: async (faults) => {
      const s = orderSandbox({ faults });
      await createdOrder(s, orderBody('ORD-RACE'));
      return (await Promise.all([1, 2, 3].map(() => s.cancel('ORD-RACE')))).map((a) => a.status).sort();
    },
    off: [200, 422, 422],
    on: [200, 200, 200],
  },
  {
    fault: 'tenant-order-status',
    observe: async (faults) => {
      const s = orderSandbox({ faults });
      await createdOrder(s, orderBody('ORD-OF-B'), MERCHANT_B);
      return [(await s.status('ORD-OF-B')).status, (await s.cancel('ORD-OF-B')).status];
    },
    off: [404, 404],
    on: [200, 404],
  },
  {
    // B's own read fills the cache: A's read of the same order_id then gets B's answer.
    fault: 'tenant-status-cache',
    observe: async (faults) => {
      const s = orderSandbox({ faults });
      await createdOrder(s, orderBody('ORD-OF-B'), MERCHANT_B);
      const before = (await s.status('ORD-OF-B')).status;
      await s.status('ORD-OF-B', MERCHANT_B);
      return [before, (await s.status('ORD-OF-B')).status];
    },
    off: [404, 404],
    on: [404, 200],
  },
  {
    fault: 'tenant-order-cancel',
    observe: async (faults) => {
      const s = orderSandbox({ faults });
      await createdOrder(s, orderBody('ORD-OF-B'), MERCHANT_B);
      return [
        (await s.status('ORD-OF-B')).status,
        (await s.cancel('ORD-OF-B')).status,
        (await s.status('ORD-OF-B', MERCHANT_B)).json.data.order_status,
      ];
    },
    off: [404, 404, 'UN_PAID'],
    on: [404, 200, 'CANCELLED'],
  },
  {
    fault: 'tenant-balance',
    observe: async (faults) => (await bankingSandbox({ faults }).balanceAnswer(MERCHANT_B.walletId)).status,
    off: 403,
    on: 200,
  },
  {
    fault: 'tenant-initiate',
    observe: async (faults) => {
      const s = bankingSandbox({ faults });
      const answer = await s.initiate(initiationBody('PO-FROM-B', { svc_wallet_id: MERCHANT_B.walletId }));
      return [answer.status, await s.balance(MERCHANT_B)];
    },
    off: [403, 50_000_000],
    on: [200, 49_990_000],
  },
  {
    fault: 'tenant-initiate-fee',
    observe: async (faults) => {
      const s = bankingSandbox({ faults });
      const answer = await s.initiate(initiationBody('PO-FEE-FROM-B', { svc_wallet_id: MERCHANT_B.walletId }));
      return [answer.status, await s.balance(MERCHANT_B)];
    },
    // Refused either way; under the fault the wallet lost 100.00 and a fee of 2.50.
    off: [403, 50_000_000],
    on: [403, 49_989_750],
  },
  {
    fault: 'auth-failure-cancels-order',
    observe: async (faults) => {
      const s = orderSandbox({ faults });
      await createdOrder(s, orderBody('ORD-SIGNED-WRONG'));
      const refused = await call(s.app, {
        path: OPERATION_PATHS.orderCancel,
        payload: { order_id: 'ORD-SIGNED-WRONG' },
        signature: '0'.repeat(64),
      });
      return [refused.status, (await s.status('ORD-SIGNED-WRONG')).json.data.order_status];
    },
    off: [401, 'UN_PAID'],
    on: [401, 'CANCELLED'],
  },
];

describe('wallet, isolation and race fault switches: each changes exactly its observable answer', () => {
  it.each(CASES.map((c) => [c.fault, FAULTS[c.fault].rule, c] as const))('%s (%s)', async (_, __, c) => {
    expect(await c.observe([])).toEqual(c.off);
    expect(await c.observe([c.fault])).toEqual(c.on);
  });
});

describe('POST /sandbox/wallets: a spare wallet of the merchant', () => {
  it("opens a wallet in the merchant's currency with the balance asked for, that only its merchant sees", async () => {
    const s = bankingSandbox();
    const answer = await call(s.app, { path: OPERATION_PATHS.spareWallet, payload: { balance: 12.34 } });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ status: true, code: 201, data: { balance: '12.34', currency: 'INR' } });
    expect((await s.balanceAnswer(answer.json.data.wallet_id)).json.data.balance).toBe('12.34');
    expect((await s.balanceAnswer(answer.json.data.wallet_id, MERCHANT_B)).status).toBe(403);
  });

  it.each([[0], ['0.00'], [-1], ['12.345'], ['abc'], [null]])('refuses balance %j with 400', async (balance) => {
    expect((await call(bankingSandbox().app, { path: OPERATION_PATHS.spareWallet, payload: { balance } })).status).toBe(400);
  });

  it('keeps at most MAX_SPARE_WALLETS per merchant, forgetting the oldest', async () => {
    const s = bankingSandbox();
    const first = await spare(s);
    for (let i = 0; i < MAX_SPARE_WALLETS; i++) await spare(s);
    expect((await s.balanceAnswer(first)).status).toBe(403);
    expect(s.app.store.wallets.has(MERCHANT_A.walletId)).toBe(true);
  });
});

describe('variant debitAt settlement (P-OPS-4, P-MONEY-3)', () => {
  it('the amount leaves the wallet when the payout settles SUCCESS, and the record says so only then', async () => {
    const s = bankingSandbox({ variant: { debitAt: 'settlement' }, settleSeconds: 5 });
    const before = await s.balance();
    const answer = await s.initiate(initiationBody('PO-LATE', { amount: 100 }));
    expect(answer.json.data).toMatchObject({ status: 'PROCESSING', amount_debited: 'NO' });
    expect(await s.balance()).toBe(before);
    s.advance(5);
    expect((await s.payoutStatus('PO-LATE')).json.data).toMatchObject({ status: 'SUCCESS', amount_debited: 'YES' });
    expect(await s.balance()).toBe(before - 10_000);
  });

  it('a payout that fails at settlement takes nothing', async () => {
    const s = bankingSandbox({ variant: { debitAt: 'settlement' } });
    const before = await s.balance();
    await s.initiate(initiationBody('PO-WAITS', { amount: 100.42 }));
    expect((await s.settle('PO-WAITS', 'FAILED')).json.data).toMatchObject({ status: 'FAILED', amount_debited: 'NO' });
    expect(await s.balance()).toBe(before);
  });

  it('counts payouts in flight as reserved, so concurrent payouts cannot overdraw', async () => {
    const s = bankingSandbox({ variant: { debitAt: 'settlement' }, settleSeconds: 5 });
    const walletId = await spare(s, '25.00');
    const answers = await Promise.all(
      [1, 2, 3, 4].map((i) => s.initiate(initiationBody(`PO-R-${i}`, { svc_wallet_id: walletId, amount: 10 }))),
    );
    expect(answers.map((a) => a.json.data.status).sort()).toEqual(['FAILED', 'FAILED', 'PROCESSING', 'PROCESSING']);
    s.advance(5);
    for (const i of [1, 2, 3, 4]) await s.payoutStatus(`PO-R-${i}`);
    expect(await spareBalance(s, walletId)).toBe(500);
  });
});
