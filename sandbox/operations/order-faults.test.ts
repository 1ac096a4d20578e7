// The sandbox's own proof that each order-side fault switch changes behaviour: for every switch, one
// exchange whose observable answer differs with the switch on and off, both asserted.
import { describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../faults.js';
import { OPERATION_PATHS } from '../index.js';
import type { SandboxOptions } from '../options.js';
import { MERCHANT_B } from '../tenants.js';
import { call } from '../test-support.js';
import { createdOrder, edited, orderBody, orderSandbox, type OrderSandbox, type Who } from './order-test-support.js';

interface FaultCase {
  fault: FaultName;
  /** What the exchange does, in words. */
  exchange: string;
  observe(s: OrderSandbox): Promise<unknown>;
  off: unknown;
  on: unknown;
  options?: SandboxOptions;
}

const created = async (s: OrderSandbox, body = orderBody('ORD-F')) => (await s.create(body)).json.return_data;
const statusOf = async (s: OrderSandbox, body: Record<string, unknown>, who?: Who) => (await s.create(body, who)).status;

const CASES: FaultCase[] = [
  {
    fault: 'errors-missing-field-500',
    exchange: 'create without customer.address',
    observe: (s) => statusOf(s, edited(orderBody('F1'), 'customer.address', undefined)),
    off: 400,
    on: 500,
  },
  {
    fault: 'errors-zero-amount-accepted',
    exchange: 'create with order_amount 0',
    observe: (s) => statusOf(s, orderBody('F2', { order_amount: 0 })),
    off: 400,
    on: 201,
  },
  {
    fault: 'errors-unknown-currency-accepted',
    exchange: 'create with order_currency RUB',
    observe: (s) => statusOf(s, orderBody('F3', { order_currency: 'RUB' })),
    off: 400,
    on: 201,
  },
  {
    fault: 'errors-null-field-accepted',
    exchange: 'create with customer.email null',
    observe: (s) => statusOf(s, edited(orderBody('F4'), 'customer.email', null)),
    off: 400,
    on: 201,
  },
  { fault: 'order-create-202', exchange: 'create a valid order', observe: (s) => statusOf(s, orderBody('F5')), off: 201, on: 202 },
  {
    fault: 'order-code-mismatch',
    exchange: 'create on a 200 variant: HTTP status and body code',
    observe: async (s) => {
      const a = await s.create(orderBody('F6'));
      return `${a.status} ${a.json.code}`;
    },
    off: '200 200',
    on: '201 200',
    options: { variant: { createStatus: 200 } },
  },
  {
    fault: 'order-status-uppercase',
    exchange: 'create: envelope status',
    observe: async (s) => (await s.create(orderBody('F7'))).json.status,
    off: 'success',
    on: 'SUCCESS',
  },
  {
    fault: 'order-created-at-24h',
    exchange: 'create at 18:05 UTC: created_at',
    observe: async (s) => {
      s.advance(8 * 3600 + 5 * 60);
      return (await created(s)).created_at;
    },
    off: '21-11-2026 06:05 PM',
    on: '21-11-2026 18:05',
  },
  {
    fault: 'order-created-at-24h',
    exchange: 'create at 10:00 UTC, before noon: created_at',
    observe: async (s) => (await created(s)).created_at,
    off: '21-11-2026 10:00 AM',
    on: '21-11-2026 10:00',
  },
  {
    fault: 'order-created-at-iso',
    exchange: 'create: created_at',
    observe: async (s) => (await created(s)).created_at,
    off: '21-11-2026 10:00 AM',
    on: '2026-11-21T10:00:00.000Z',
  },
  {
    fault: 'order-status-pending',
    exchange: 'create: order_status',
    observe: async (s) => (await created(s)).order_status,
    off: 'UN_PAID',
    on: 'PENDING',
  },
  {
    fault: 'order-link-relative',
    exchange: 'create: is payment_link a bare path',
    observe: async (s) => (await created(s)).payment_link.startsWith('/'),
    off: false,
    on: true,
  },
  {
    fault: 'order-id-reused',
    exchange: 'two creates: same svc_order_id',
    observe: async (s) => (await created(s, orderBody('F8a'))).svc_order_id === (await created(s, orderBody('F8b'))).svc_order_id,
    off: false,
    on: true,
  },
  {
    fault: 'order-id-numeric',
    exchange: 'create with order_id "000123": order_id',
    observe: async (s) => (await created(s, orderBody('000123'))).order_id,
    off: '000123',
    on: 123,
  },
  {
    fault: 'errors-zero-amount-accepted',
    exchange: 'create with order_amount "0.00"',
    observe: (s) => statusOf(s, orderBody('F2s', { order_amount: '0.00' })),
    off: 400,
    on: 201,
  },
  {
    fault: 'order-amount-string-refused',
    exchange: 'create with order_amount "1499.50"',
    observe: (s) => statusOf(s, orderBody('F10', { order_amount: '1499.50' })),
    off: 201,
    on: 400,
  },
  {
    fault: 'order-amount-number-refused',
    exchange: 'create with order_amount 1499.5',
    observe: (s) => statusOf(s, orderBody('F11', { order_amount: 1499.5 })),
    off: 201,
    on: 400,
  },
  {
    fault: 'order-address-optional',
    exchange: 'create without customer.address',
    observe: (s) => statusOf(s, edited(orderBody('F9'), 'customer.address', undefined)),
    off: 400,
    on: 201,
  },
  {
    fault: 'order-reject-non-ascii',
    exchange: 'create for José Müller',
    observe: (s) => statusOf(s, edited(orderBody('F10'), 'customer.name', 'José Müller')),
    off: 201,
    on: 400,
  },
  {
    fault: 'order-reject-currencies',
    exchange: 'create in GBP',
    observe: (s) => statusOf(s, orderBody('F11', { order_currency: 'GBP' })),
    off: 201,
    on: 422,
  },
  {
    fault: 'dup-allowed',
    exchange: 'create the same order_id twice: second status',
    observe: async (s) => {
      await s.create(orderBody('F12'));
      return statusOf(s, orderBody('F12', { order_note: 'again' }));
    },
    off: 409,
    on: 201,
  },
  {
    fault: 'dup-overwrites',
    exchange: "repeat an order_id with another amount: second status, then the first order's amount",
    observe: async (s) => {
      await s.create(orderBody('F13', { order_amount: 100 }));
      const again = await statusOf(s, orderBody('F13', { order_amount: 250 }));
      return `${again} ${(await s.status('F13')).json.data.order_amount}`;
    },
    off: '409 100.00',
    on: '409 250.00',
  },
  {
    fault: 'dup-race',
    exchange: '8 concurrent creates of one order_id: how many succeed',
    observe: async (s) => {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => s.create(orderBody('F14', { order_note: `try ${i}` }))));
      return answers.filter((a) => a.status === 201).length;
    },
    off: 1,
    on: 8,
  },
  {
    fault: 'dup-global-ids',
    exchange: "merchant B reuses merchant A's order_id",
    observe: async (s) => {
      await s.create(orderBody('F15'));
      return statusOf(s, orderBody('F15'), MERCHANT_B);
    },
    off: 201,
    on: 409,
  },
  {
    fault: 'dup-type-sensitive',
    exchange: 'create 123, then "123"',
    observe: async (s) => {
      await s.create(orderBody(123));
      return statusOf(s, orderBody('123'));
    },
    off: 409,
    on: 201,
  },
  {
    fault: 'auth-failure-creates-order',
    exchange: 'Create Order with an altered signature, then Order Status',
    observe: async (s) => {
      await call(s.app, { path: OPERATION_PATHS.createOrder, payload: orderBody('F17'), signature: '0'.repeat(64) });
      return (await s.status('F17')).status;
    },
    off: 404,
    on: 200,
  },
  {
    fault: 'ops-cancel-cancelled',
    exchange: 'cancel an order, then cancel it again',
    observe: async (s) => {
      await createdOrder(s, orderBody('F16'));
      expect((await s.cancel('F16')).status).toBe(200);
      const again = await s.cancel('F16');
      return [again.status, again.json.data?.order_status];
    },
    off: [422, undefined],
    on: [200, 'CANCELLED'],
  },
  {
    fault: 'ops-cancel-cancelled',
    exchange: 'pay at checkout, then Order Cancel: PAID stays refused',
    observe: async (s) => {
      await s.pay(await createdOrder(s, orderBody('F18')), { method: 'upi', outcome: 'success' });
      return (await s.cancel('F18')).status;
    },
    off: 422,
    on: 422,
  },
];

describe('order-side fault switches: each changes what a client sees', () => {
  it.each(CASES)('$fault ($exchange): $off without, $on with', async ({ fault, observe, off, on, options }) => {
    expect(FAULTS[fault].area).toMatch(/^(auth|errors|order|duplicates|operations)$/);
    expect(await observe(orderSandbox(options))).toEqual(off);
    expect(await observe(orderSandbox({ ...options, faults: [fault] }))).toEqual(on);
  });

  it('covers every fault of the order and duplicates areas', () => {
    const covered = new Set(CASES.map((c) => c.fault));
    const expected = Object.entries(FAULTS)
      .filter(([, spec]) => spec.area === 'order' || spec.area === 'duplicates')
      .map(([name]) => name);
    for (const name of expected) expect(covered, name).toContain(name);
  });
});
