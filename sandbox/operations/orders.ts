// The payment-gateway operations: Create Order (P-ORDER, P-DUP), Order Status and Order Cancel (P-OPS-1,
// P-OPS-2), with their faults, each applied where its rule is decided.
import { setTimeout as sleep } from 'node:timers/promises';
import { OperationError, requireSchema, type OperationContext, type OperationHandler } from '../context.js';
import { formatDate, formatDateTime, jsonResponse, minorToText, successResponse, type SandboxResponse } from '../envelope.js';
import type { OrderState } from '../../schemas/types.js';
import type { FaultName } from '../faults.js';
import { key, type Order, type SandboxStore } from '../store.js';
import { comparedOrderId } from './identifiers.js';
import { validateCreateOrder, type AcceptedOrder } from './order-validation.js';

/** Where the hosted checkout of an order lives (sandbox/checkout.ts serves it). */
export function paymentLink(origin: string, svcOrderId: string): string {
  return `${origin}/checkout/${encodeURIComponent(svcOrderId)}`;
}

/** A PROCESSING payment becomes PAID once the clock passes `settlesAt`, at the next read or by its timer
 * (`now` Infinity), whichever is first; the change is told once. */
export function settleOrder(order: Order, now: number, store: SandboxStore): Order {
  if (order.status === 'PROCESSING' && order.settlesAt !== undefined && now >= order.settlesAt) {
    order.status = 'PAID';
    delete order.settlesAt;
    store.changed({ order });
  }
  return order;
}

/** The store key of an order id: ids compare as text (P-DUP-4); under `dup-type-sensitive` the JSON type is
 * part of the key, so 123 and "123" are two orders. */
function storageKey(ctx: OperationContext, orderId: number | string): string {
  const text = comparedOrderId(ctx, orderId);
  return ctx.fault('dup-type-sensitive') ? key(ctx.merchant.id, `${typeof orderId}:${text}`) : key(ctx.merchant.id, text);
}

/** The order a new order_id collides with (P-DUP-1), or across merchants under `dup-global-ids`. */
function duplicateOf(ctx: OperationContext, orderId: number | string): Order | undefined {
  if (!ctx.fault('dup-global-ids')) return ctx.store.orders.get(storageKey(ctx, orderId));
  return [...ctx.store.orders.values()].find((order) => comparedOrderId(ctx, order.orderId) === comparedOrderId(ctx, orderId));
}

/** How old a record is when the faults that act later act: under the kit's revisit (12 s), above any one check's span. */
const FORGETS_AFTER_MS = 10_000;

export const createOrder: OperationHandler = async (ctx) => {
  const accepted = validateCreateOrder(ctx);

  // The check and the insert run in one synchronous stretch, so concurrent creates cannot both pass
  // the check (P-DUP-2). Under `dup-race` a wait between them lets them interleave.
  const existing = duplicateOf(ctx, accepted.orderId);
  const freed =
    (existing?.status === 'CANCELLED' && ctx.fault('dup-id-freed-on-cancel')) ||
    (existing !== undefined && ctx.fault('dup-memory-expires') && ctx.now() - existing.createdAt > FORGETS_AFTER_MS);
  // A forgotten order's order_id stays used too (P-DUP-5), however many orders came after it.
  const used =
    existing === undefined ? ctx.store.forgotten('order', ctx.merchant.id, accepted.orderId) : !freed && !ctx.fault('dup-allowed');
  if (used) {
    if (existing !== undefined && ctx.fault('dup-overwrites')) {
      existing.amountMinor = accepted.amountMinor;
      existing.currency = accepted.currency;
      if (accepted.note !== undefined) existing.note = accepted.note;
      else delete existing.note;
    }
    const id = JSON.stringify(String(accepted.orderId));
    throw new OperationError(409, `order_id ${id} is already used by another order; a merchant order id must be unique`);
  }
  const replaces = existing === undefined || freed;
  if (ctx.fault('dup-race')) await sleep(ctx.options.raceWindowMs);
  return insertOrder(ctx, accepted, replaces);
};

/** Stores the new order and answers it; `replaces`: it takes its order_id's place (none held it, or a freed one did). */
function insertOrder(ctx: OperationContext, accepted: AcceptedOrder, replaces: boolean): SandboxResponse {
  const order: Order = {
    ...accepted,
    merchantId: ctx.merchant.id,
    svcOrderId: ctx.fault('order-id-reused') ? 'SVC-00000001' : ctx.store.nextId('SVC'),
    status: 'UN_PAID',
    createdAt: ctx.now(),
    origin: ctx.origin,
  };
  const storeAt = storageKey(ctx, order.orderId);
  // Under dup-allowed the second order is kept beside the first; lookups by order_id find the first.
  ctx.store.orders.set(replaces ? storeAt : `${storeAt}\u0000${order.svcOrderId}`, order);
  return createdResponse(ctx, order);
}

/** The create-order envelope (P-ORDER-2) with the order record (P-ORDER-3). */
function createdResponse(ctx: OperationContext, order: Order): SandboxResponse {
  const http = ctx.fault('order-create-202') ? 202 : ctx.fault('order-code-mismatch') ? 201 : ctx.options.variant.createStatus;
  return jsonResponse(http, {
    code: ctx.fault('order-code-mismatch') ? '200' : String(http),
    status: ctx.fault('order-status-uppercase') ? 'SUCCESS' : 'success',
    message: 'Order created',
    return_data: {
      svc_order_id: order.svcOrderId,
      created_at: createdAtText(ctx, order.createdAt),
      order_id:
        ctx.fault('order-id-numeric') && typeof order.orderId === 'string' && /^\d+$/.test(order.orderId)
          ? Number(order.orderId)
          : order.orderId,
      order_status: ctx.fault('order-status-pending') ? 'PENDING' : order.status,
      payment_link: paymentLink(ctx.fault('order-link-relative') ? '' : ctx.origin, order.svcOrderId),
    },
  });
}

function createdAtText(ctx: OperationContext, ms: number): string {
  if (ctx.fault('order-created-at-iso')) return new Date(ms).toISOString();
  // A 24-hour clock with no AM/PM marker: "21-11-2026 18:05", wrong at any time of day.
  if (ctx.fault('order-created-at-24h')) return `${formatDate(ms)} ${new Date(ms).toISOString().slice(11, 16)}`;
  return formatDateTime(ms);
}

/** Order Status / Cancel `data` (P-OPS table), also a payment event's: the record plus amount and currency,
 * its payment_link at `origin` (where the merchant reached the sandbox). */
export function statusRecord(order: Order, origin: string): Record<string, unknown> {
  return {
    svc_order_id: order.svcOrderId,
    created_at: formatDateTime(order.createdAt),
    order_id: order.orderId,
    order_status: order.status,
    payment_link: paymentLink(origin, order.svcOrderId),
    order_amount: minorToText(order.amountMinor, order.currency),
    order_currency: order.currency,
  };
}

/** The order a lookup body names, settled by the clock; 400 or 404 otherwise. `anyMerchant` (a tenant
 * fault): a query that forgets the merchant, tried when this one has none. */
function lookUp(ctx: OperationContext, anyMerchant = false): Order {
  requireSchema('order-lookup-request', ctx.body);
  const orderId = ctx.body.order_id as number | string;
  const found =
    ctx.store.orders.get(storageKey(ctx, orderId)) ??
    (anyMerchant ? [...ctx.store.orders.values()].find((o) => String(o.orderId) === String(orderId)) : undefined);
  // Under `state-read-replica-lag` reads go to a replica that has not seen the last 30 s of writes.
  const order = found !== undefined && ctx.fault('state-read-replica-lag') && ctx.now() - found.createdAt < 30_000 ? undefined : found;
  if (order === undefined) {
    throw new OperationError(404, `no order with order_id ${JSON.stringify(String(orderId))} for this merchant`);
  }
  // Under `state-expiry-job-rewrites` a sweep expires orders by age alone, final ones too.
  if (ctx.fault('state-expiry-job-rewrites') && ctx.now() - order.createdAt > FORGETS_AFTER_MS) order.status = 'EXPIRED';
  return settleOrder(order, ctx.now(), ctx.store);
}

/** Under `tenant-status-cache`: Order Status answers kept 5 s by order_id, the merchant left out of the key. */
const statusCache = new WeakMap<SandboxStore, Map<string, { answer: SandboxResponse; at: number }>>();

export const orderStatus: OperationHandler = (ctx) => {
  if (!ctx.fault('tenant-status-cache'))
    return successResponse(statusRecord(lookUp(ctx, ctx.fault('tenant-order-status')), ctx.origin), 'Order fetched');
  const cache = statusCache.get(ctx.store) ?? statusCache.set(ctx.store, new Map()).get(ctx.store)!;
  const orderId = String(ctx.body.order_id);
  const kept = cache.get(orderId);
  if (kept !== undefined && ctx.now() - kept.at < 5000) return kept.answer;
  const answer = successResponse(statusRecord(lookUp(ctx), ctx.origin), 'Order fetched');
  cache.set(orderId, { answer, at: ctx.now() });
  return answer;
};

/** Why Order Cancel refuses an order in each state it refuses (422), and the fault that lets it through. */
const CANCEL_REFUSALS: Partial<Record<OrderState, [why: string, unlessFault?: FaultName]>> = {
  PAID: ['it is PAID', 'state-paid-cancellable'],
  EXPIRED: ['its checkout session EXPIRED'],
  PROCESSING: ['its payment is PROCESSING; query Order Status until it settles'],
  CANCELLED: ['it is already CANCELLED', 'ops-cancel-cancelled'],
};

/** Order Cancel (P-OPS-1): UN_PAID or FAILED → CANCELLED, else 422; PROCESSING too, since money is in flight
 * and the merchant cancels only once Order Status says it failed. */
export const orderCancel: OperationHandler = async (ctx) => {
  const order = lookUp(ctx, ctx.fault('tenant-order-cancel'));
  const [why, unlessFault] = CANCEL_REFUSALS[order.status] ?? [];
  if (why !== undefined && !(unlessFault !== undefined && ctx.fault(unlessFault))) {
    throw new OperationError(422, `order ${JSON.stringify(String(order.orderId))} cannot be cancelled: ${why}`);
  }
  // The read, the state check and the write are one synchronous stretch, so of concurrent cancels
  // one wins (P-OPS-1). The fault reads, awaits (a slow write path), then writes: they all win.
  if (ctx.fault('ops-cancel-race')) await sleep(ctx.options.raceWindowMs);
  order.status = 'CANCELLED';
  delete order.settlesAt;
  return successResponse(statusRecord(order, ctx.origin), 'Order cancelled');
};
