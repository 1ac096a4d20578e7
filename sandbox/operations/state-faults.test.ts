// The records-over-time faults (area 'state'): off, what P-STATE, P-MONEY-1 and P-DUP-5 require; on, the
// one wrong thing each names. Also: identifiers stay used once their records are forgotten (P-DUP-5).
import { describe, expect, it } from 'vitest';
import { FAULTS, FAULT_NAMES } from '../faults.js';
import { createdOrder, orderBody, orderSandbox } from './order-test-support.js';
import { bankingSandbox, initiationBody } from './payout-test-support.js';
import type { FaultCase } from '../test-support.js';

const CASES: FaultCase[] = [
  {
    fault: 'state-paid-cancellable',
    async observe(faults) {
      const s = orderSandbox({ faults });
      const svc = await createdOrder(s, orderBody('PAID-1'));
      await s.pay(svc, { method: 'upi', outcome: 'success' });
      const cancel = await s.cancel('PAID-1');
      return [cancel.status, (await s.status('PAID-1')).json.data.order_status];
    },
    off: [422, 'PAID'],
    on: [200, 'CANCELLED'],
  },
  {
    fault: 'state-payout-reopens',
    async observe(faults) {
      const s = bankingSandbox({ faults });
      // 100.13: the beneficiary bank rejects it at once (FAILED)
      const first = (await s.initiate(initiationBody('PO-REJ', { amount: 100.13 }))).json.data.status;
      return [first, (await s.payoutStatus('PO-REJ')).json.data.status];
    },
    off: ['FAILED', 'FAILED'],
    on: ['FAILED', 'PROCESSING'],
  },
  {
    fault: 'state-payout-id-reallocated',
    async observe(faults) {
      const s = bankingSandbox({ faults });
      const answered = (await s.initiate(initiationBody('PO-ID'))).json.data.payout_id;
      return answered === (await s.payoutStatus('PO-ID')).json.data.payout_id;
    },
    off: true,
    on: false,
  },
  {
    fault: 'money-reversal-not-refunded',
    async observe(faults) {
      const s = bankingSandbox({ faults });
      const before = await s.balance();
      await s.initiate(initiationBody('PO-REV', { amount: 100 }));
      await s.settle('PO-REV', 'SUCCESS');
      await s.settle('PO-REV', 'REVERSED');
      return before - (await s.balance());
    },
    off: 0,
    on: 10_000,
  },
  {
    fault: 'money-status-debits-again',
    async observe(faults) {
      const s = bankingSandbox({ faults });
      const before = await s.balance();
      await s.initiate(initiationBody('PO-JOB', { amount: 100 }));
      await s.payoutStatus('PO-JOB');
      const soon = before - (await s.balance());
      s.advance(11);
      const debited = [
        (await s.payoutStatus('PO-JOB')).json.data.amount_debited,
        (await s.payoutStatus('PO-JOB')).json.data.amount_debited,
      ];
      return [soon, before - (await s.balance()), debited];
    },
    off: [10_000, 10_000, ['YES', 'YES']],
    on: [10_000, 20_000, ['YES', 'YES']],
  },
  {
    fault: 'dup-memory-expires',
    async observe(faults) {
      const s = orderSandbox({ faults });
      await createdOrder(s, orderBody('OLD-1'));
      s.advance(11);
      return (await s.create(orderBody('OLD-1'))).status;
    },
    off: 409,
    on: 201,
  },
  {
    fault: 'state-read-replica-lag',
    async observe(faults) {
      const s = orderSandbox({ faults });
      await createdOrder(s, orderBody('FRESH-1'));
      const fresh = (await s.status('FRESH-1')).status;
      s.advance(31);
      return [fresh, (await s.status('FRESH-1')).status];
    },
    off: [200, 200],
    on: [404, 200],
  },
  {
    fault: 'state-expiry-job-rewrites',
    async observe(faults) {
      const s = orderSandbox({ faults });
      await createdOrder(s, orderBody('SWEPT-1'));
      await s.cancel('SWEPT-1');
      s.advance(11);
      return (await s.status('SWEPT-1')).json.data.order_status;
    },
    off: 'CANCELLED',
    on: 'EXPIRED',
  },
  {
    fault: 'dup-id-freed-on-cancel',
    async observe(faults) {
      const s = orderSandbox({ faults });
      await createdOrder(s, orderBody('CAN-1'));
      await s.cancel('CAN-1');
      return (await s.create(orderBody('CAN-1'))).status;
    },
    off: 409,
    on: 201,
  },
];

describe('the state faults', () => {
  it('has a case here for every fault of the area', () => {
    expect(CASES.map((c) => c.fault).sort()).toEqual(FAULT_NAMES.filter((f) => FAULTS[f].area === 'state').sort());
  });

  it.each(CASES)('$fault: off, the rule holds; on, it breaks as described', async ({ fault, observe, off, on }) => {
    expect(await observe([])).toEqual(off);
    expect(await observe([fault])).toEqual(on);
  });
});

describe('identifiers are permanent (P-DUP-5)', () => {
  it('an order_id stays used after the store has forgotten its order', async () => {
    const s = orderSandbox({ maxRecords: 2 });
    for (const id of ['OLD-1', 'NEW-2', 'NEW-3']) await createdOrder(s, orderBody(id));
    expect((await s.status('OLD-1')).status).toBe(404);
    expect((await s.create(orderBody('OLD-1'))).status).toBe(409);
    // compared as text (P-DUP-4), like a kept order's id
    expect((await s.create(orderBody(77))).status).toBe(201);
    for (const id of ['NEW-4', 'NEW-5']) await createdOrder(s, orderBody(id));
    expect((await s.create(orderBody('77'))).status).toBe(409);
  });

  it('a payout_order_id stays used after the store has forgotten its payout', async () => {
    const s = bankingSandbox({ maxRecords: 2 });
    for (const id of ['PO-OLD', 'PO-2', 'PO-3']) expect((await s.initiate(initiationBody(id, { amount: 1 }))).status).toBe(200);
    expect((await s.payoutStatus('PO-OLD')).status).toBe(404);
    const before = await s.balance();
    expect((await s.initiate(initiationBody('PO-OLD', { amount: 1 }))).status).toBe(409);
    expect(await s.balance()).toBe(before);
  });
});
