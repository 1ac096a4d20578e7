// The profile's order operations (P-OPS, an extension): Order Status and Order Cancel.
import { OPERATIONS } from '../../core/operations.js';
import { expectSchema, expectStatus, expectThat, type Check, type CheckContext } from '../check.js';
import type { Exchange } from '../http.js';
import { createOrder, decimalEquals, decimalOf, expectOrderCreated, expectRecord, orderLookup, validOrder } from '../requests.js';
import { shown } from './shown.js';
import { check, creating } from './shared-auth.js';

/** OPS-ORDER-STATUS: an amount of its own, so the echo is this order's; the currency stays INR, as
 *  currency support is ORDER-EVERY-CURRENCY's concern. */
async function orderStatus(ctx: CheckContext): Promise<void> {
  const body = validOrder(ctx, { order_amount: 310.25, order_currency: 'INR' });
  const created = expectOrderCreated(await createOrder(ctx, body, 'create an order of 310.25 INR'), 'the order must be created');
  const exchange = await orderLookup(ctx, 'orderStatus', body.order_id, 'Order Status of the new order');
  expectStatus(exchange, [200], 'Order Status of an existing order must answer 200 (P-OPS)');
  const record = expectSchema(exchange, 'success-envelope', 'Order Status (P-OPS)').data;
  expectRecord(exchange, record, 'order-status-record', 'Order Status (P-OPS)');
  const details = shown(
    exchange,
    `order ${JSON.stringify(body.order_id)}, 310.25 INR, svc_order_id ${JSON.stringify(created.svc_order_id)}`,
  );
  expectThat(
    String(record.order_id) === String(body.order_id) && record.svc_order_id === created.svc_order_id,
    'Order Status must answer the order asked for',
    details,
  );
  const amount = decimalOf(record.order_amount);
  expectThat(
    amount !== undefined && decimalEquals(amount, decimalOf(body.order_amount)!),
    `order_amount ${JSON.stringify(record.order_amount)} is not the order's 310.25 (P-OPS)`,
    details,
  );
  expectThat(
    record.order_currency === 'INR',
    `order_currency ${JSON.stringify(record.order_currency)} is not the order's INR (P-OPS)`,
    details,
  );
}

async function createdAndCancelled(ctx: CheckContext): Promise<{ orderId: string | number; exchange: Exchange }> {
  const body = validOrder(ctx);
  expectOrderCreated(await createOrder(ctx, body, 'create an order'), 'the order must be created');
  const exchange = await orderLookup(ctx, 'orderCancel', body.order_id, 'Order Cancel of the new UN_PAID order');
  return { orderId: body.order_id, exchange };
}

async function cancel(ctx: CheckContext): Promise<void> {
  const { exchange } = await createdAndCancelled(ctx);
  expectStatus(exchange, [200], 'Order Cancel of an UN_PAID order must answer 200 (P-OPS-1)');
  const record = expectSchema(exchange, 'success-envelope', 'Order Cancel (P-OPS)').data;
  expectRecord(exchange, record, 'order-status-record', 'Order Cancel (P-OPS)');
  expectThat(
    record.order_status === 'CANCELLED',
    `a cancelled order must be CANCELLED, not ${JSON.stringify(record.order_status)} (P-OPS-1)`,
    shown(exchange),
  );
}

async function cancelAgain(ctx: CheckContext): Promise<void> {
  const { orderId, exchange } = await createdAndCancelled(ctx);
  expectStatus(exchange, [200], 'the first Order Cancel of an UN_PAID order must succeed');
  const again = await orderLookup(ctx, 'orderCancel', orderId, 'Order Cancel of the CANCELLED order');
  expectStatus(again, [422], 'cancelling a CANCELLED order must answer 422 (P-OPS-1)');
}

/** OPS-ORDER-STATUS-UNKNOWN, OPS-CANCEL-UNKNOWN (P-OPS-1): an order_id never used answers 404. */
function unknownOrder(id: string, requirement: string, key: 'orderStatus' | 'orderCancel'): Check {
  const { name } = OPERATIONS[key];
  const run = async (ctx: CheckContext) => {
    const exchange = await orderLookup(ctx, key, ctx.ids.orderId('NEVER'), `${name} of an order_id never used`);
    expectStatus(exchange, [404], `${name} of an unknown order must answer 404 (P-OPS-1)`);
  };
  return check(id, requirement, `${name} of an unknown order answers 404`, run, [`profile.operations.${key}`]);
}

const STATUS = 'profile.operations.orderStatus' as const;
const CANCEL = 'profile.operations.orderCancel' as const;

export const orderOperationChecks: Check[] = [
  creating('ops-order-status', 'OPS-ORDER-STATUS', 'Order Status answers the order with its amount and currency', orderStatus, [STATUS]),
  unknownOrder('ops-order-status-unknown', 'OPS-ORDER-STATUS-UNKNOWN', 'orderStatus'),
  creating('ops-cancel', 'OPS-CANCEL', 'Order Cancel moves an UN_PAID order to CANCELLED', cancel, [CANCEL]),
  creating('ops-cancel-again', 'OPS-CANCEL-AGAIN', 'cancelling a CANCELLED order answers 422', cancelAgain, [CANCEL]),
  unknownOrder('ops-cancel-unknown', 'OPS-CANCEL-UNKNOWN', 'orderCancel'),
];
