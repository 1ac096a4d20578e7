// Test support for the payment-gateway tests: a sandbox on a hand-moved clock with one small function
// per operation (and the checkout form), so each test reads as the exchange it makes.
import { withPath } from '../../core/predicates.js';
import { OPERATION_PATHS } from '../index.js';
import type { SandboxOptions } from '../options.js';
import { MERCHANT_A, type Merchant } from '../tenants.js';
import { call, ORIGIN, sandboxAt, type Answer } from '../test-support.js';

export type Who = Pick<Merchant, 'apiKey' | 'secretKey'>;

/** A valid Create Order body of the interface's table; tests override what they are about. */
export function orderBody(orderId: number | string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    order_id: orderId,
    order_amount: 1499.5,
    order_currency: 'INR',
    order_note: 'two notebooks',
    service_type: 'payment',
    customer: {
      name: 'Asha Verma',
      email: 'asha.verma@example.com',
      phone: '9876543210',
      address: { line1: '12 MG Road', city: 'Bengaluru', state: 'Karnataka', country: 'IN', postal_code: '560001' },
    },
    return_url: 'https://shop.example/checkout/return?order=1&ref=a/b',
    ...overrides,
  };
}

/** A copy of `body` with the value at a dotted path replaced, or removed when `value` is undefined. */
export function edited(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  return withPath(body, path, value);
}

/**
 * A sandbox with the order operations at hand. Replays are allowed: the clock stands still between
 * calls, and a test that reads one order twice in a second is not testing P-AUTH-4.
 */
export function orderSandbox(options: SandboxOptions = {}) {
  const { app, advance } = sandboxAt({ ...options, variant: { replay: 'allow', ...options.variant } });
  return {
    app,
    advance,
    create(payload: unknown, who: Who = MERCHANT_A): Promise<Answer> {
      return call(app, { path: OPERATION_PATHS.createOrder, payload, merchant: who });
    },
    createRaw(raw: string, who: Who = MERCHANT_A): Promise<Answer> {
      return call(app, { path: OPERATION_PATHS.createOrder, raw, merchant: who });
    },
    status(orderId: unknown, who: Who = MERCHANT_A): Promise<Answer> {
      return call(app, { path: OPERATION_PATHS.orderStatus, payload: { order_id: orderId }, merchant: who });
    },
    cancel(orderId: unknown, who: Who = MERCHANT_A): Promise<Answer> {
      return call(app, { path: OPERATION_PATHS.orderCancel, payload: { order_id: orderId }, merchant: who });
    },
    lookup(path: 'orderStatus' | 'orderCancel', payload: unknown): Promise<Answer> {
      return call(app, { path: OPERATION_PATHS[path], payload });
    },
    /** GET the checkout page behind a payment link. */
    async page(svcOrderId: string): Promise<{ status: number; html: string; headers: Headers }> {
      const response = await app.handle(new Request(`${ORIGIN}/checkout/${svcOrderId}`));
      return { status: response.status, html: await response.text(), headers: response.headers };
    },
    /** Submit the checkout form as a browser does (form-encoded). */
    async pay(
      svcOrderId: string,
      fields: Record<string, string>,
      contentType = 'application/x-www-form-urlencoded',
    ): Promise<{ status: number; html: string; headers: Headers }> {
      const response = await app.handle(
        new Request(`${ORIGIN}/checkout/${svcOrderId}`, {
          method: 'POST',
          headers: { 'content-type': contentType },
          body: new URLSearchParams(fields).toString(),
        }),
      );
      return { status: response.status, html: await response.text(), headers: response.headers };
    },
  };
}

export type OrderSandbox = ReturnType<typeof orderSandbox>;

/** Creates an order and answers its svc_order_id; fails the test when creation fails. */
export async function createdOrder(s: OrderSandbox, body: Record<string, unknown>, who: Who = MERCHANT_A): Promise<string> {
  const answer = await s.create(body, who);
  if (answer.status !== 200 && answer.status !== 201) throw new Error(`Create Order answered ${answer.status}: ${answer.text}`);
  return answer.json.return_data.svc_order_id as string;
}
