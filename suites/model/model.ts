// The model of what the target must hold for this run's merchant (P-STATE, P-MONEY-1, P-DUP-5).
// Pure: no requests here (target.ts sends them, commands.ts ties the two).
import { decimalEquals, decimalMinus, decimalOf, decimalPlus, decimalText, isFinalPayout, type Decimal, type Json } from '../requests.js';
import type { Drivers } from '../drivers.js';
import { payoutEffect } from '../wallet.js';

/** The requirements the model judges; each model check asserts one of them. */
export type ModelRule = 'STATE-ORDER-LIFECYCLE' | 'STATE-PAYOUT-LIFECYCLE' | 'STATE-READS-AGREE' | 'MONEY-CONSERVATION' | 'DUP-PERMANENT';

/** Records are named by slot ("order#1"), resolved to this run's fresh ids when first used. */
export const SLOTS = 3;

export interface OrderRecord {
  orderId: string;
  /** What Create Order answered, with the amount and currency it was asked for (P-STATE-3). */
  written: { svcOrderId: unknown; createdAt: unknown; amount: Decimal; currency: string };
  /** The state of the last answer that showed one. */
  state: string;
  /** Its payment_link as answered, for a driver. */
  paymentLink?: string;
  /** The path of its payment_link, when it is on the target itself (the sandbox's hosted checkout). */
  checkoutPath?: string;
}

export interface PayoutRecord {
  payoutOrderId: string;
  /** The record Transaction Initiation answered (P-STATE-3). */
  written: Json;
  /** The last record an answer showed, the initiation's included (P-STATE-2: states move on from it). */
  last: Json;
  /** The last record a read showed (P-STATE-2: the fixed fields never change from read to read). */
  read?: Json;
}

/** A payout of the run's own from an earlier sequence, not settled when this one started: its
 *  settlement moves the balance now, by what its record then says (P-MONEY-1 counts every own payout). */
interface InheritedPayout {
  payoutOrderId: string;
  /** Its record as read just before and just after the start balance: what the start already includes. */
  atStart: Json;
  /** The last record a read showed. */
  last: Json;
}

export interface Model {
  orders: (OrderRecord | undefined)[];
  payouts: (PayoutRecord | undefined)[];
  /** What moves records where no operation does: the reference sandbox's requests, the user's commands, or none. */
  drivers: Drivers | undefined;
  /** Whether this sequence reads the balance (the money rule): its start, read before the first command. */
  startBalance?: Decimal;
  /** The money rule's sequences: earlier payouts still to settle at the start (empty otherwise). */
  inherited: InheritedPayout[];
}

export function emptyModel(drivers: Drivers | undefined): Model {
  return {
    orders: Array.from({ length: SLOTS }, () => undefined),
    payouts: Array.from({ length: SLOTS }, () => undefined),
    drivers,
    inherited: [],
  };
}

// P-STATE-1: PAID, CANCELLED and EXPIRED are final; nothing goes back to UN_PAID.
const FINAL_ORDER_STATES: readonly string[] = ['PAID', 'CANCELLED', 'EXPIRED'];
const LATER_ORDER_STATES: readonly string[] = ['PROCESSING', 'PAID', 'FAILED', 'CANCELLED', 'EXPIRED'];

export function isFinalOrderState(state: string): boolean {
  return FINAL_ORDER_STATES.includes(state);
}

/** Whether a read may show `next` after one showed `previous` (P-STATE-1; time may have moved it). */
export function orderMayMove(previous: string, next: string): boolean {
  if (previous === next) return true;
  if (isFinalOrderState(previous)) return false;
  return LATER_ORDER_STATES.includes(next);
}

// P-STATE-2: PENDING → PROCESSING → SUCCESS | FAILED; SUCCESS → REVERSED; reads may skip states between them.
const PAYOUT_RANK: Readonly<Record<string, number>> = { PENDING: 0, PROCESSING: 1, SUCCESS: 2, FAILED: 2, REVERSED: 3 };

/** Whether a read may show payout state `next` after one showed `previous`. */
export function payoutMayMove(previous: string, next: string): boolean {
  if (previous === next) return true;
  if (isFinalPayout(previous)) return false;
  if (next === 'REVERSED') return previous !== 'FAILED';
  if (next === 'FAILED') return previous === 'PENDING' || previous === 'PROCESSING';
  const from = PAYOUT_RANK[previous];
  const to = PAYOUT_RANK[next];
  return from !== undefined && to !== undefined && to > from;
}

/** The fields of a payout record that never change (P-STATE-2), and that reads show as written (P-STATE-3). */
export const FIXED_PAYOUT_FIELDS = ['payout_order_id', 'payout_id', 'wallet_id', 'amount', 'currency', 'created_at'] as const;

/** The fixed fields on which two payout records differ; amounts compare by value (P-AMOUNT-3). */
export function changedPayoutFields(before: Json, after: Json): string[] {
  return FIXED_PAYOUT_FIELDS.filter((field) => {
    if (field === 'amount') {
      const a = decimalOf(before.amount);
      const b = decimalOf(after.amount);
      return a === undefined || b === undefined ? before.amount !== after.amount : !decimalEquals(a, b);
    }
    // Identifiers compare as text (P-DUP-4): an integer id read back as its string is the same id.
    return String(before[field]) !== String(after[field]);
  });
}

/** The fields of an Order Status record that disagree with what Create Order answered (P-STATE-3). */
export function orderDisagreements(order: OrderRecord, read: Json): string[] {
  const out: string[] = [];
  if (String(read.order_id) !== order.orderId) out.push(`order_id ${JSON.stringify(read.order_id)} (was ${JSON.stringify(order.orderId)})`);
  if (read.svc_order_id !== order.written.svcOrderId)
    out.push(`svc_order_id ${JSON.stringify(read.svc_order_id)} (was ${JSON.stringify(order.written.svcOrderId)})`);
  const amount = decimalOf(read.order_amount);
  if (amount === undefined || !decimalEquals(amount, order.written.amount))
    out.push(`order_amount ${JSON.stringify(read.order_amount)} (was ${decimalText(order.written.amount)})`);
  if (read.order_currency !== order.written.currency)
    out.push(`order_currency ${JSON.stringify(read.order_currency)} (was ${order.written.currency})`);
  if (read.created_at !== order.written.createdAt)
    out.push(`created_at ${JSON.stringify(read.created_at)} (was ${JSON.stringify(order.written.createdAt)})`);
  return out;
}

/** P-MONEY-1: the start, less every own payout with amount_debited YES, plus every REVERSED one, exactly.
 *  An inherited payout counts only for what changed since the start. */
export function expectedBalance(model: Model): Decimal | undefined {
  if (model.startBalance === undefined) return undefined;
  let balance = model.startBalance;
  for (const payout of model.payouts) if (payout !== undefined) balance = decimalPlus(balance, payoutEffect(payout.last));
  for (const payout of model.inherited)
    balance = decimalPlus(balance, decimalMinus(payoutEffect(payout.last), payoutEffect(payout.atStart)));
  return balance;
}
