import type { AnsweredExchange } from '../core/exchange.js';
import { OPERATIONS } from '../core/operations.js';
import { withPath } from '../core/predicates.js';
// Request builders shared by the checks, so a check reads as the exchanges it makes. Every send goes
// through ctx.send (the one HTTP layer) with a label for the report.
import type { SchemaId, SchemaTypes } from '../schemas/index.js';
import type { Currency, OrderCreateRequest, RequestAmount, TransferMode } from '../schemas/types.js';
import { CheckFailure, expectStatus, expectValid, type CheckContext } from './check.js';
import { shown } from './checks/shown.js';
import type { Credentials, Exchange } from './http.js';

/** The interface's two fixed paths (Endpoints); the profile's four come from ctx.operation(key). */
export const CREATE_ORDER_PATH = OPERATIONS.createOrder.path;
export const PAYOUT_STATUS_PATH = OPERATIONS.payoutStatus.path;

export type Json = Record<string, unknown>;

/** Deliberately plain (ASCII, INR, every optional field), so a duplicate or record check does not also
 *  rest on P-ORDER-4's breadth. Pure: checks and `trigger` both use it. */
export function orderBody(orderId: string, note: string): OrderCreateRequest {
  return {
    order_id: orderId,
    order_amount: 250.75,
    order_currency: 'INR',
    order_note: note,
    service_type: 'payment',
    customer: {
      name: 'Meera Nair',
      email: 'meera.nair@example.org',
      phone: '9123456780',
      address: { line1: '4 Residency Road', line2: 'Block C', city: 'Kochi', state: 'Kerala', country: 'IN', postal_code: '682011' },
    },
    return_url: 'https://merchant.example.org/orders/return?step=done',
  };
}

/** orderBody with a fresh order_id and note of the check's own. */
export function validOrder(ctx: CheckContext, overrides: Partial<OrderCreateRequest> = {}): OrderCreateRequest {
  return { ...orderBody(ctx.ids.orderId(), `conformance order ${ctx.ids.nonce()}`), ...overrides };
}

/** A deep copy of `body` without the field at a dotted path (e.g. "customer.address.city"). */
export function withoutField(body: object, path: string): Json {
  return withPath(body as Json, path, undefined);
}

export function createOrder(ctx: CheckContext, body: unknown, label: string, as?: Credentials): Promise<Exchange> {
  return ctx.send({ label, path: CREATE_ORDER_PATH, payload: body, as });
}

/** The object under `key` of an answer's JSON, if it is one. */
export function dataOf(exchange: Exchange, key = 'data'): Json | undefined {
  const value = (exchange.response?.json as Json | undefined)?.[key];
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function expectObject(exchange: Exchange, key: string, what: string, why: string): Json {
  const value = dataOf(exchange, key);
  if (value === undefined) throw new CheckFailure(`${why}: the answer has no ${key} object`, shown(exchange, `${key} = ${what}`));
  return value;
}

/** Any 2xx counts: 200 or 201 is ORDER-SUCCESS-STATUS's concern, not a record check's. */
export function expectOrderCreated(exchange: Exchange, why: string): Json {
  expectSuccess(exchange, why);
  return expectObject(exchange, 'return_data', 'the order record', why);
}

/** Whether the answer is a 2xx (which one is ORDER-SUCCESS-STATUS's concern); no answer is not a success. */
export function isSuccess(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return status !== undefined && status >= 200 && status <= 299;
}

export function expectSuccess(exchange: Exchange, why: string): asserts exchange is AnsweredExchange {
  if (!isSuccess(exchange)) {
    throw new CheckFailure(
      `${why}: expected a 2xx answer, got ${exchange.error ? 'no answer' : `HTTP ${exchange.response.status}`}`,
      shown(exchange, 'HTTP 2xx'),
    );
  }
}

/** The `data` object of a general success envelope (HTTP 200), else a failure. */
export function expectData(exchange: Exchange, why: string, statuses: readonly number[] = [200]): Json {
  expectStatus(exchange, statuses, why);
  return expectObject(exchange, 'data', 'the record', why);
}

/** A record inside an answer must satisfy a record schema (the envelope is checked separately); it is then typed as one. */
export function expectRecord<Id extends SchemaId>(
  exchange: Exchange,
  record: unknown,
  schema: Id,
  why: string,
): asserts record is SchemaTypes[Id] {
  expectValid(exchange, record, schema, why, 'record');
}

export function payoutStatusBody(ctx: CheckContext, payoutOrderId: string | number, walletId = ctx.config.merchant.walletId): Json {
  return { svc_wallet_id: walletId, debit_account_type: 'svc_wallet', payout_order_id: payoutOrderId };
}

export function payoutStatus(
  ctx: CheckContext,
  payoutOrderId: string | number,
  label: string,
  { walletId, as }: WalletRef = {},
): Promise<Exchange> {
  return ctx.send({ label, path: PAYOUT_STATUS_PATH, payload: payoutStatusBody(ctx, payoutOrderId, walletId), as });
}

/** Order Status or Order Cancel of one order_id (P-OPS); skips the check when the key is not configured. */
export function orderLookup(
  ctx: CheckContext,
  key: 'orderStatus' | 'orderCancel',
  orderId: string | number,
  label: string,
): Promise<Exchange> {
  const { method, path } = ctx.operation(key);
  return ctx.send({ label, method, path, payload: { order_id: orderId } });
}

/** Which wallet a read is about, and as whom: the merchant's own wallet by default, else a spare wallet or the other merchant's. */
export interface WalletRef {
  walletId?: string | undefined;
  as?: Credentials | undefined;
}

export function balanceInquiry(
  ctx: CheckContext,
  label: string,
  { walletId = ctx.config.merchant.walletId, as }: WalletRef = {},
): Promise<Exchange> {
  const { method, path } = ctx.operation('balanceInquiry');
  return ctx.send({ label, method, path, payload: { svc_wallet_id: walletId }, as });
}

/** A transfer mode usual for a currency, so a server that ties modes to currencies accepts it. */
export function transferModeFor(currency: Currency): TransferMode {
  const usual: Partial<Record<Currency, TransferMode>> = { INR: 'imps', EUR: 'sepa', USD: 'ach' };
  return usual[currency] ?? 'swift';
}

/** The beneficiary suits every mode. Pure: the checks and `trigger` both use it. */
export function payoutBody(walletId: string, payoutOrderId: string, amount: RequestAmount, currency: Currency): Json {
  return {
    svc_wallet_id: walletId,
    debit_account_type: 'svc_wallet',
    payout_order_id: payoutOrderId,
    amount,
    currency,
    transfer_mode: transferModeFor(currency),
    beneficiary: {
      name: 'Kiran Desai',
      account_number: '50100234567891',
      ifsc: 'SBIN0004567',
      iban: 'DE44500105175407324931',
      swift_code: 'SBININBB',
      vpa: 'kiran.desai@upi',
      bank_name: 'State Bank of India',
    },
  };
}

/** payoutBody from the merchant's wallet with a fresh payout_order_id. */
export function payoutRequest(ctx: CheckContext, amount: RequestAmount, currency: Currency, overrides: Json = {}): Json {
  return { ...payoutBody(ctx.config.merchant.walletId, ctx.ids.payoutOrderId(), amount, currency), ...overrides };
}

export function initiatePayout(ctx: CheckContext, body: Json, label: string): Promise<Exchange> {
  const { method, path } = ctx.operation('transactionInitiation');
  return ctx.send({ label, method, path, payload: body });
}

/** PENDING or PROCESSING: its settlement may still move the balance with no request of the run's. Once
 *  settled only a reversal is left, which P-MONEY-1 leaves to the not-judged path. */
export const awaitsSettlement = (record: Json): boolean => record.status === 'PENDING' || record.status === 'PROCESSING';

/** FAILED or REVERSED: a payout state nothing moves on from (P-STATE-2). */
export const isFinalPayout = (state: unknown): boolean => state === 'FAILED' || state === 'REVERSED';

/** How long one wait for the target's own change lasts, ms on the run's clock (profile.settleWithinSeconds,
 *  default 15); the checks that wait run side by side, so their waits overlap. */
export const settleWithinMs = (ctx: Pick<CheckContext, 'config'>): number => (ctx.config.profile?.settleWithinSeconds ?? 15) * 1000;

/** "after 15 s (profile.settleWithinSeconds)": what a skip for a wait that ran out says. */
export const afterSettleWait = (ctx: Pick<CheckContext, 'config'>): string =>
  `after ${settleWithinMs(ctx) / 1000} s (profile.settleWithinSeconds)`;

/** Re-queries until the payout leaves PROCESSING/PENDING (interface). Undefined at the deadline: a slow
 *  bank is no fault, so callers skip rather than fail. */
export async function settledPayout(
  ctx: CheckContext,
  payoutOrderId: string,
  label: string,
  { intervalMs = 250, timeoutMs = settleWithinMs(ctx), walletId }: { intervalMs?: number; timeoutMs?: number; walletId?: string } = {},
): Promise<Json | undefined> {
  const deadline = ctx.clock.now() + timeoutMs;
  for (;;) {
    const record = expectData(await payoutStatus(ctx, payoutOrderId, label, { walletId }), `${label}: Payout Status of the payout`);
    if (!awaitsSettlement(record)) return record;
    if (ctx.clock.now() + intervalMs > deadline) return undefined;
    await ctx.clock.sleep(intervalMs);
  }
}

// Amounts are compared by value (P-AMOUNT-3); the exact decimals live with the amount rules.
export { decimalEquals, decimalMinus, decimalOf, decimalPlus, decimalText, type Decimal } from '../schemas/amounts.js';
