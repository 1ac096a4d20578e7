// Isolation of merchants (P-TENANT-1, an extension): requests about the other merchant's order or
// wallet answer 404 or 403, and the record or wallet is, for its owner, as it was.
import { expectStatus, expectThat, type Check, type CheckContext } from '../check.js';
import type { Credentials } from '../http.js';
import {
  balanceInquiry,
  createOrder,
  decimalText,
  expectData,
  expectOrderCreated,
  initiatePayout,
  orderLookup,
  payoutRequest,
  validOrder,
} from '../requests.js';
import { amountNumber, balanceChange, ownAmount, walletCurrency, ZERO, type Balance } from '../wallet.js';
import { shown } from './shown.js';
import { check, creating } from './shared-auth.js';

const other = (ctx: CheckContext): Credentials => ctx.config.otherMerchant!;

async function otherMerchantsOrder(ctx: CheckContext): Promise<string | number> {
  const body = validOrder(ctx);
  expectOrderCreated(
    await createOrder(ctx, body, 'the other merchant creates an order', other(ctx)),
    "the other merchant's order must be created",
  );
  return body.order_id;
}

function ownersRead(ctx: CheckContext, orderId: string | number) {
  const { method, path } = ctx.operation('orderStatus');
  const label = "the other merchant's Order Status of its order";
  return ctx.send({ label, method, path, payload: { order_id: orderId }, as: other(ctx) });
}

/** TENANT-ORDER-STATUS: Order Status of the other merchant's order_id answers 404, as if unknown. Its
 *  owner reads it first, as owners do: an answer cached without the merchant in its key shows then. */
async function orderStatusIsolated(ctx: CheckContext): Promise<void> {
  const orderId = await otherMerchantsOrder(ctx);
  await ownersRead(ctx, orderId);
  const exchange = await orderLookup(ctx, 'orderStatus', orderId, "Order Status of the other merchant's order_id");
  expectStatus(exchange, [404], "Order Status of another merchant's order must answer 404, as if unknown (P-TENANT-1)");
}

/** TENANT-ORDER-CANCEL: Order Cancel of the other merchant's order_id answers 404 and the order stays UN_PAID for its owner. */
async function orderCancelIsolated(ctx: CheckContext): Promise<void> {
  const orderId = await otherMerchantsOrder(ctx);
  const exchange = await orderLookup(ctx, 'orderCancel', orderId, "Order Cancel of the other merchant's order_id");
  expectStatus(exchange, [404], "Order Cancel of another merchant's order must answer 404, as if unknown (P-TENANT-1)");
  const status = await ownersRead(ctx, orderId);
  const record = expectData(status, "the other merchant's Order Status of its own order must answer it");
  expectThat(
    record.order_status === 'UN_PAID',
    `after another merchant's refused cancel the order is ${JSON.stringify(record.order_status)}, not UN_PAID (P-TENANT-1)`,
    shown(status, 'order_status UN_PAID'),
  );
}

/** TENANT-BALANCE: Balance Inquiry of the other merchant's wallet answers 403. */
async function balanceIsolated(ctx: CheckContext): Promise<void> {
  const exchange = await balanceInquiry(ctx, "Balance Inquiry of the other merchant's wallet", {
    walletId: ctx.config.otherMerchant!.walletId!,
  });
  expectStatus(exchange, [403], "Balance Inquiry of another merchant's wallet must answer 403 (P-TENANT-1)");
}

/** TENANT-INITIATE: 403, and the other wallet does not move, judged as wallet.ts judges a change: a move
 *  the refused payouts do not explain is the other merchant's own traffic, "not judged" (P-MONEY-1). */
async function initiateIsolated(ctx: CheckContext): Promise<void> {
  const currency = await walletCurrency(ctx);
  const otherWallet = ctx.config.otherMerchant!.walletId!;
  const refusedPayout = async (_: Balance, suffix: string) => {
    const amount = ownAmount(ctx, currency);
    const body = payoutRequest(ctx, amountNumber(amount), currency, { svc_wallet_id: otherWallet });
    const label = `initiate ${decimalText(amount)} from the other merchant's wallet${suffix}`;
    expectStatus(await initiatePayout(ctx, body, label), [403], "a payout from another merchant's wallet must answer 403 (P-TENANT-1)");
    return { amount, expected: ZERO };
  };
  await balanceChange(ctx, 'P-TENANT-1, P-MONEY-4', refusedPayout, { walletId: otherWallet, as: other(ctx) });
}

const ORDER_STATUS = 'profile.operations.orderStatus' as const;
const BALANCE = 'profile.operations.balanceInquiry' as const;

export const tenantChecks: Check[] = [
  creating('tenant-order-status', 'TENANT-ORDER-STATUS', "Order Status of another merchant's order_id answers 404", orderStatusIsolated, [
    'otherMerchant',
    ORDER_STATUS,
  ]),
  creating(
    'tenant-order-cancel',
    'TENANT-ORDER-CANCEL',
    "Order Cancel of another merchant's order_id answers 404 and leaves it UN_PAID",
    orderCancelIsolated,
    ['otherMerchant', ORDER_STATUS, 'profile.operations.orderCancel'],
  ),
  check('tenant-balance', 'TENANT-BALANCE', "Balance Inquiry of another merchant's wallet answers 403", balanceIsolated, [
    'otherMerchant.walletId',
    BALANCE,
  ]),
  creating(
    'tenant-initiate',
    'TENANT-INITIATE',
    "a payout from another merchant's wallet answers 403 and moves nothing",
    initiateIsolated,
    ['otherMerchant.walletId', BALANCE, 'profile.operations.transactionInitiation'],
  ),
];
