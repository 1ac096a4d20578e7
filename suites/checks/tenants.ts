// Isolation of merchants (P-TENANT-1, extension: it rests on P-OPS's operations): with otherMerchant
// configured, the other merchant makes a record of its own (an order) or owns a wallet; this
// merchant's requests about it are answered as if it were unknown (404) or not its own (403), and
// the record or wallet is, for its owner, as it was.
import { answered, expectStatus, expectThat, type Check, type CheckContext } from '../check.js';
import type { Credentials, Exchange } from '../http.js';
import { createOrder, decimalEquals, decimalMinus, decimalOf, decimalText, expectData, expectOrderCreated, initiatePayout, payoutRequest, validOrder, type Decimal } from './requests.js';
import { amountNumber, ownAmount, readBalance } from './wallet.js';

const other = (ctx: CheckContext): Credentials => ctx.config.otherMerchant!;

/** An order of the other merchant; returns its order_id. */
async function otherMerchantsOrder(ctx: CheckContext): Promise<string | number> {
  const body = validOrder(ctx);
  expectOrderCreated(await createOrder(ctx, body, 'the other merchant creates an order', other(ctx)), 'the other merchant\'s order must be created');
  return body.order_id;
}

function lookupAs(ctx: CheckContext, key: 'orderStatus' | 'orderCancel', orderId: string | number, label: string, as?: Credentials): Promise<Exchange> {
  const { method, path } = ctx.operation(key);
  return ctx.send({ label, method, path, payload: { order_id: orderId }, ...(as ? { as } : {}) });
}

/** TENANT-ORDER-STATUS: Order Status of the other merchant's order_id answers 404, as if unknown. */
async function orderStatusIsolated(ctx: CheckContext): Promise<void> {
  const orderId = await otherMerchantsOrder(ctx);
  const exchange = await lookupAs(ctx, 'orderStatus', orderId, 'Order Status of the other merchant\'s order_id');
  expectStatus(exchange, [404], 'Order Status of another merchant\'s order must answer 404, as if unknown (P-TENANT-1)');
}

/** TENANT-ORDER-CANCEL: Order Cancel of the other merchant's order_id answers 404 and the order stays UN_PAID for its owner. */
async function orderCancelIsolated(ctx: CheckContext): Promise<void> {
  const orderId = await otherMerchantsOrder(ctx);
  const exchange = await lookupAs(ctx, 'orderCancel', orderId, 'Order Cancel of the other merchant\'s order_id');
  expectStatus(exchange, [404], 'Order Cancel of another merchant\'s order must answer 404, as if unknown (P-TENANT-1)');
  const status = await lookupAs(ctx, 'orderStatus', orderId, 'the other merchant\'s Order Status of its order', other(ctx));
  const record = expectData(status, 'the other merchant\'s Order Status of its own order must answer it');
  expectThat(record.order_status === 'UN_PAID', `after another merchant's refused cancel the order is ${JSON.stringify(record.order_status)}, not UN_PAID (P-TENANT-1)`, {
    expected: 'order_status UN_PAID', actual: answered(status), exchange: status,
  });
}

function balanceOf(ctx: CheckContext, walletId: string, label: string, as?: Credentials): Promise<Exchange> {
  const { method, path } = ctx.operation('balanceInquiry');
  return ctx.send({ label, method, path, payload: { svc_wallet_id: walletId }, ...(as ? { as } : {}) });
}

/** TENANT-BALANCE: Balance Inquiry of the other merchant's wallet answers 403. */
async function balanceIsolated(ctx: CheckContext): Promise<void> {
  const exchange = await balanceOf(ctx, ctx.config.otherMerchant!.walletId!, 'Balance Inquiry of the other merchant\'s wallet');
  expectStatus(exchange, [403], 'Balance Inquiry of another merchant\'s wallet must answer 403 (P-TENANT-1)');
}

/** The other merchant's balance, read by its owner. */
async function otherBalance(ctx: CheckContext, label: string): Promise<{ balance: Decimal; exchange: Exchange }> {
  const exchange = await balanceOf(ctx, ctx.config.otherMerchant!.walletId!, label, other(ctx));
  const balance = decimalOf(expectData(exchange, `${label}: the other merchant's Balance Inquiry of its own wallet must answer it`).balance);
  expectThat(balance !== undefined, `${label}: the balance is not decimal text`, { actual: answered(exchange), exchange });
  return { balance, exchange };
}

/**
 * TENANT-INITIATE: a payout from the other merchant's wallet, of this run's own amount, answers 403
 * and that wallet does not move by it. A move by exactly that amount is the target's doing; any
 * other move is the other merchant's own traffic, so it is "not judged" (P-MONEY-1).
 */
async function initiateIsolated(ctx: CheckContext): Promise<void> {
  const { currency } = await readBalance(ctx, 'this merchant\'s wallet currency');
  const before = await otherBalance(ctx, 'the other merchant\'s balance before');
  const amount = ownAmount(ctx, currency);
  const body = payoutRequest(ctx, amountNumber(amount), currency, { svc_wallet_id: ctx.config.otherMerchant!.walletId });
  const exchange = await initiatePayout(ctx, body, `initiate ${decimalText(amount)} from the other merchant's wallet`);
  expectStatus(exchange, [403], 'a payout from another merchant\'s wallet must answer 403 (P-TENANT-1)');
  const after = await otherBalance(ctx, 'the other merchant\'s balance after');
  const moved = decimalMinus(before.balance, after.balance);
  expectThat(!decimalEquals(moved, amount), `the refused payout of ${decimalText(amount)} moved the other merchant's balance from ${decimalText(before.balance)} to ${decimalText(after.balance)} (P-TENANT-1, P-MONEY-4)`, {
    expected: `balance ${decimalText(before.balance)}`, actual: answered(after.exchange), exchange: after.exchange,
  });
}

const ORDER_STATUS = 'profile.operations.orderStatus' as const;
const BALANCE = 'profile.operations.balanceInquiry' as const;

export const tenantChecks: Check[] = [
  { id: 'tenant-order-status', requirement: 'TENANT-ORDER-STATUS', title: 'Order Status of another merchant\'s order_id answers 404', needs: ['otherMerchant', ORDER_STATUS], creates: true, run: orderStatusIsolated },
  {
    id: 'tenant-order-cancel', requirement: 'TENANT-ORDER-CANCEL', title: 'Order Cancel of another merchant\'s order_id answers 404 and leaves it UN_PAID',
    needs: ['otherMerchant', ORDER_STATUS, 'profile.operations.orderCancel'], creates: true, run: orderCancelIsolated,
  },
  { id: 'tenant-balance', requirement: 'TENANT-BALANCE', title: 'Balance Inquiry of another merchant\'s wallet answers 403', needs: ['otherMerchant.walletId', BALANCE], run: balanceIsolated },
  {
    id: 'tenant-initiate', requirement: 'TENANT-INITIATE', title: 'a payout from another merchant\'s wallet answers 403 and moves nothing',
    needs: ['otherMerchant.walletId', BALANCE, 'profile.operations.transactionInitiation'], creates: true, run: initiateIsolated,
  },
];
