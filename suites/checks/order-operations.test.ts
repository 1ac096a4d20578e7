// Order Status (P-OPS) against a made-up server that creates orders and answers their status, each
// answer changed as a test needs. The operations against the sandbox: operations.test.ts.
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../core/operations.js';
import { judge, type Server } from './made-up-server-test-support.js';
import { orderOperationChecks } from './order-operations.js';

type Json = Record<string, unknown>;
const orderStatus = orderOperationChecks.find((c) => c.id === 'ops-order-status')!;

/** Creates each order as SVC-<n> and answers Order Status with its record, changed by `edit`. */
function orders(edit: (record: Json) => void = () => {}): Server {
  const made = new Map<unknown, Json>();
  return (options) => {
    const body = options.payload as Json;
    if (options.path === OPERATIONS.createOrder.path) {
      const record = { order_id: body.order_id, svc_order_id: `SVC-${made.size + 1}`, order_status: 'UN_PAID' };
      made.set(body.order_id, { ...record, order_amount: String(body.order_amount), order_currency: body.order_currency });
      return { status: 201, json: { status: 'success', code: '201', message: 'created', return_data: record } };
    }
    const record = made.get(body.order_id);
    if (record === undefined) return 404;
    const answer = { ...record, created_at: '21-11-2026 06:05 PM', payment_link: 'https://pay.example.test/c/1' };
    edit(answer);
    return { status: 200, json: { status: true, code: 200, message: 'ok', data: answer } };
  };
}

describe('OPS-ORDER-STATUS: the amount and currency of the order asked for', () => {
  it('passes an echo of the order, and fails an amount every order is answered with', async () => {
    expect((await judge(orderStatus, orders())).outcome).toBe('passed');
    // The check's order has an amount of its own, so an amount a server answers for any order fails.
    expect(
      (
        await judge(
          orderStatus,
          orders((r) => void (r.order_amount = '250.75')),
        )
      ).outcome,
    ).toBe('failed');
  });

  it("fails an amount too precise to read, and shows the order's id and svc_order_id", async () => {
    const judged = await judge(
      orderStatus,
      orders((r) => void (r.order_amount = `0.${'0'.repeat(400)}1`)),
    );
    expect(judged.failure?.message).toMatch(/^order_amount "0\.0+1" is not the order's 310\.25/);
    expect(judged.failure?.details.expected).toMatch(/^order "[^"]+", 310\.25 INR, svc_order_id "SVC-1"$/);
  });
});
