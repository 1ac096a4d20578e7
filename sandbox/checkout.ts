// The hosted checkout behind Create Order's payment_link: a person or a browser picks a payment method
// and an outcome (P-OPS-1). Pages only: the API's authentication does not apply, and nothing redirects.
import type { PageRoute, SandboxApp } from './context.js';
import {
  checkoutPage,
  notFoundPage,
  notPayablePage,
  OUTCOMES,
  PAYMENT_METHODS,
  resultPage,
  type CheckoutView,
  type Outcome,
  type PaymentMethod,
} from './checkout-page.js';
import { minorToText, type SandboxResponse } from './envelope.js';
import { settleOrder } from './operations/orders.js';
import type { Order } from './store.js';

/** The svc_order_id of a checkout path's remainder, or undefined when it cannot be one. */
function svcOrderIdOf(rest: string): string | undefined {
  try {
    const id = decodeURIComponent(rest);
    return id === '' || id.includes('/') ? undefined : id;
  } catch {
    return undefined;
  }
}

function viewOf(order: Order, app: SandboxApp): CheckoutView {
  return {
    svcOrderId: order.svcOrderId,
    merchantName: app.options.merchants.find((m) => m.id === order.merchantId)?.name ?? order.merchantId,
    orderId: String(order.orderId),
    amount: minorToText(order.amountMinor, order.currency),
    currency: order.currency,
    status: order.status,
    customerName: order.customerName,
    ...(order.note === undefined ? {} : { note: order.note }),
    returnUrl: order.returnUrl,
    ...(order.paymentMethod === undefined ? {} : { paymentMethod: order.paymentMethod }),
    ...(order.settlesAt === undefined ? {} : { settlesInSeconds: Math.max(0, Math.ceil((order.settlesAt - app.options.clock()) / 1000)) }),
  };
}

/** Moves an UN_PAID order per the chosen outcome (P-OPS-1); PROCESSING settles to PAID after `settleSeconds`
 * (by a read or the timer, whichever is first). */
function applyOutcome(order: Order, method: PaymentMethod, outcome: Outcome, app: SandboxApp): void {
  order.paymentMethod = method;
  if (outcome === 'success') order.status = 'PAID';
  else if (outcome === 'failure') order.status = 'FAILED';
  else if (outcome === 'expire') order.status = 'EXPIRED';
  else {
    order.status = 'PROCESSING';
    order.settlesAt = app.options.clock() + app.options.settleSeconds * 1000;
    app.later(app.options.settleSeconds * 1000, () => settleOrder(order, Infinity, app.store));
  }
  app.store.changed({ order });
}

/** GET shows the order a checkout path names, settled by the clock; POST submits its payment form. */
function checkout(request: Request, rest: string, app: SandboxApp, body: Uint8Array | undefined): SandboxResponse {
  const id = svcOrderIdOf(rest);
  const found = id === undefined ? undefined : app.store.orderBySvcId(id);
  if (found === undefined) return notFoundPage(id ?? rest);
  const order = settleOrder(found, app.options.clock(), app.store);
  if (request.method === 'GET') return checkoutPage(viewOf(order, app));
  if (order.status !== 'UN_PAID') return notPayablePage(viewOf(order, app));

  const refuse = (why: string) => checkoutPage(viewOf(order, app), why, 400);
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type))
    return refuse('Send the payment form as application/x-www-form-urlencoded.');
  const form = new URLSearchParams(new TextDecoder().decode(body));
  const method = form.get('method') ?? '';
  const outcome = form.get('outcome') ?? '';
  if (!Object.hasOwn(PAYMENT_METHODS, method)) return refuse(`Choose a payment method: ${Object.values(PAYMENT_METHODS).join(', ')}.`);
  if (!Object.hasOwn(OUTCOMES, outcome)) return refuse(`Choose one of: ${Object.values(OUTCOMES).join(', ')}.`);
  applyOutcome(order, method as PaymentMethod, outcome as Outcome, app);
  return resultPage(viewOf(order, app));
}

export const checkoutRoutes: PageRoute[] = (['GET', 'POST'] as const).map((method) => ({ method, prefix: '/checkout/', handle: checkout }));
