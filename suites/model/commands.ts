// One fast-check AsyncCommand per operation (and control request): `run` sends it, judges the answer by
// every rule and moves the model on. Records are named by slot, so a sequence replays exactly.
import type fc from 'fast-check';
import { answered } from '../check.js';
import { checkoutPath as checkoutPathOf, type DriverName } from '../drivers.js';
import { awaitsSettlement, dataOf, decimalEquals, decimalOf, decimalText, isSuccess, validOrder, type Json } from '../requests.js';
import { isFinalPayout } from '../requests.js';
import { expectedBalance, isFinalOrderState, orderDisagreements, orderMayMove, SLOTS, type Model, type OrderRecord } from './model.js';
import { briefly, NotJudged, ownPayoutAmount, type Real } from './target.js';
import {
  initiate,
  moneyState,
  orderName,
  payoutName,
  readBalance,
  readEarlierPayout,
  readPayout,
  settle,
  statusOf,
} from './payout-steps.js';

export const KINDS = [
  'createOrder',
  'createOrderUsedId',
  'orderStatus',
  'orderCancel',
  'checkoutPay',
  'checkoutFail',
  'checkoutExpire',
  'initiate',
  'initiateRejected',
  'initiateUsedId',
  'payoutStatus',
  'settleSuccess',
  'settleFailed',
  'settleReversed',
  'balance',
] as const;
export type Kind = (typeof KINDS)[number];

/** The commands a driver carries out (the reference sandbox's checkout and settle requests, or the user's commands). */
export const DRIVEN: Partial<Record<Kind, DriverName>> = {
  checkoutPay: 'payOrder',
  checkoutFail: 'failOrder',
  checkoutExpire: 'expireOrder',
  settleSuccess: 'settlePayout',
  settleFailed: 'settlePayout',
  settleReversed: 'settlePayout',
};

/** Minor-unit endings of payout amounts: the sandbox processes any but a few (drawn per payout), and its bank rejects 13. */
const PROCESSED_ENDING = 'processed';
const REJECTED_ENDING = 13;

export class ModelCommand implements fc.AsyncCommand<Model, Real, false> {
  constructor(
    readonly kind: Kind,
    readonly slot: number,
  ) {}

  /** The command as one number: a replay path is a list of them. */
  get code(): number {
    return KINDS.indexOf(this.kind) * SLOTS + this.slot;
  }

  static decode(code: number): ModelCommand | undefined {
    const kind = KINDS[Math.floor(code / SLOTS)];
    return kind === undefined || code < 0 ? undefined : new ModelCommand(kind, code % SLOTS);
  }

  check(m: Readonly<Model>): boolean {
    const driver = DRIVEN[this.kind];
    if (driver !== undefined && m.drivers?.has(driver) !== true) return false;
    // The sandbox's checkout and settle are the target's to refuse; the user's commands are asked only for
    // a move the lifecycle allows, as a command may change a record under the target (P-STATE).
    const commands = m.drivers?.kind === 'command';
    const order = m.orders[this.slot];
    const payout = m.payouts[this.slot];
    switch (this.kind) {
      case 'createOrder':
        return order === undefined;
      case 'checkoutPay':
      case 'checkoutFail':
      case 'checkoutExpire':
        return commands ? order?.state === 'UN_PAID' : order?.checkoutPath !== undefined;
      case 'settleSuccess':
      case 'settleFailed':
        return payout !== undefined && (!commands || awaitsSettlement(payout.last));
      case 'settleReversed':
        return payout !== undefined && (!commands || payout.last.status === 'SUCCESS');
      case 'createOrderUsedId':
      case 'orderStatus':
      case 'orderCancel':
        return order !== undefined;
      case 'initiate':
      case 'initiateRejected':
        return payout === undefined;
      case 'balance':
        return m.startBalance !== undefined;
      default:
        return payout !== undefined;
    }
  }

  async run(m: Model, r: Real): Promise<void> {
    await RUN[this.kind](m, r, this.slot);
  }

  toString(): string {
    return this.kind === 'balance' ? 'balance' : `${this.kind} #${this.slot + 1}`;
  }
}

/** What each command does: send, judge, move the model on. */
const RUN: Record<Kind, (m: Model, r: Real, slot: number) => Promise<void>> = {
  async createOrder(m, r, slot) {
    const amount = 120.5 + slot;
    const body = validOrder(r.ctx, { order_id: r.orderId(slot), order_amount: amount, order_currency: 'INR' });
    const exchange = await r.send(`Create Order ${orderName(slot)}`, 'createOrder', body as unknown as Json);
    const record = isSuccess(exchange) ? dataOf(exchange, 'return_data') : undefined;
    r.step(`Create Order ${orderName(slot)} → ${briefly(exchange, record?.order_status)}`, exchange);
    if (record === undefined) throw new NotJudged(`Create Order of a new order answered ${answered(exchange)}`);
    const state = typeof record.order_status === 'string' ? record.order_status : 'UN_PAID';
    r.judge(
      'STATE-ORDER-LIFECYCLE',
      state === 'UN_PAID',
      () => `a new order starts ${JSON.stringify(record.order_status)}, not UN_PAID (P-STATE-1)`,
      exchange,
    );
    m.orders[slot] = orderRecord(r, r.orderId(slot), record, amount, state);
  },

  async createOrderUsedId(m, r, slot) {
    const order = m.orders[slot]!;
    const body = validOrder(r.ctx, { order_id: order.orderId, order_amount: 999.99, order_currency: 'INR' });
    const exchange = await r.send(`Create Order again with ${orderName(slot)}'s order_id`, 'createOrder', body as unknown as Json);
    const record = isSuccess(exchange) ? dataOf(exchange, 'return_data') : undefined;
    r.step(
      `Create Order with ${orderName(slot)}'s order_id (the order is ${order.state}) → ${briefly(exchange, record?.order_status)}`,
      exchange,
    );
    r.judge(
      'DUP-PERMANENT',
      statusOf(exchange) === 409,
      () =>
        `Create Order with the order_id of an order now ${order.state} answered ${briefly(exchange)}, not 409 (P-DUP-5: an identifier once used stays used, whatever became of its record)`,
      exchange,
    );
    // Taken all the same: the id now names the new order, and later reads are compared with it.
    if (record !== undefined) m.orders[slot] = orderRecord(r, order.orderId, record, 999.99, String(record.order_status));
  },

  async orderStatus(m, r, slot) {
    const order = m.orders[slot]!;
    const exchange = await r.send(`Order Status ${orderName(slot)}`, 'orderStatus', { order_id: order.orderId });
    const record = statusOf(exchange) === 200 ? dataOf(exchange) : undefined;
    r.step(`Order Status ${orderName(slot)} → ${briefly(exchange, record?.order_status)}`, exchange);
    r.judgeFound(exchange, `Order Status of ${orderName(slot)}`, 'Create Order');
    if (record === undefined) throw new NotJudged(`Order Status answered ${answered(exchange)}`);
    const differs = orderDisagreements(order, record);
    r.judge(
      'STATE-READS-AGREE',
      differs.length === 0,
      () => `Order Status of ${orderName(slot)} disagrees with what Create Order answered: ${differs.join(', ')} (P-STATE-3)`,
      exchange,
    );
    const state = String(record.order_status);
    r.judge(
      'STATE-ORDER-LIFECYCLE',
      orderMayMove(order.state, state),
      () =>
        `${orderName(slot)} read ${state} after ${order.state}${isFinalOrderState(order.state) ? ` (${order.state} is final)` : ''} (P-STATE-1)`,
      exchange,
    );
    order.state = state;
  },

  async orderCancel(m, r, slot) {
    const order = m.orders[slot]!;
    const before = order.state;
    const exchange = await r.send(`Order Cancel ${orderName(slot)}`, 'orderCancel', { order_id: order.orderId });
    const record = statusOf(exchange) === 200 ? dataOf(exchange) : undefined;
    r.step(`Order Cancel ${orderName(slot)} (it was ${before}) → ${briefly(exchange, record?.order_status)}`, exchange);
    const status = statusOf(exchange);
    r.judgeFound(exchange, `Order Cancel of ${orderName(slot)}`, 'Create Order');
    if (status === 422) return; // refused: nothing changed (a final order must be refused so; a moving one may be)
    if (record === undefined) throw new NotJudged(`Order Cancel answered ${answered(exchange)}`);
    r.judge(
      'STATE-ORDER-LIFECYCLE',
      !isFinalOrderState(before),
      () =>
        `Order Cancel of a ${before} order answered 200 ${String(record.order_status)}: ${before} is final, a cancel of it must answer 422 (P-STATE-1)`,
      exchange,
    );
    r.judge(
      'STATE-ORDER-LIFECYCLE',
      record.order_status === 'CANCELLED',
      () => `Order Cancel answered 200 with the order ${JSON.stringify(record.order_status)}, not CANCELLED (P-STATE-1, P-OPS-1)`,
      exchange,
    );
    order.state = String(record.order_status);
  },

  checkoutPay: (m, r, slot) => checkout(m, r, slot, 'payOrder', 'PAID'),
  checkoutFail: (m, r, slot) => checkout(m, r, slot, 'failOrder', 'FAILED'),
  checkoutExpire: (m, r, slot) => checkout(m, r, slot, 'expireOrder', 'EXPIRED'),

  initiate: (m, r, slot) => initiate(m, r, slot, PROCESSED_ENDING),
  initiateRejected: (m, r, slot) => initiate(m, r, slot, REJECTED_ENDING),

  async initiateUsedId(m, r, slot) {
    const payout = m.payouts[slot]!;
    const amount = ownPayoutAmount(r.ctx, r.facts.currency, PROCESSED_ENDING);
    const exchange = await r.send(
      `Transaction Initiation again with ${payoutName(slot)}'s payout_order_id`,
      'transactionInitiation',
      r.payoutBody(slot, amount),
    );
    const record = isSuccess(exchange) ? dataOf(exchange) : undefined;
    r.step(
      `Transaction Initiation of ${decimalText(amount)} with ${payoutName(slot)}'s payout_order_id (the payout is ${String(payout.last.status)}) → ${briefly(exchange, record?.status)}`,
      exchange,
    );
    r.judge(
      'DUP-PERMANENT',
      statusOf(exchange) === 409,
      () =>
        `Transaction Initiation with the payout_order_id of a payout now ${String(payout.last.status)} answered ${briefly(exchange)}, not 409 (P-DUP-5, P-OPS-3)`,
      exchange,
    );
    // Taken all the same: the id now names the new payout (what it did to the balance, the money rule sees).
    if (record !== undefined) m.payouts[slot] = { payoutOrderId: payout.payoutOrderId, written: record, last: record };
  },

  payoutStatus: (m, r, slot) => readPayout(m, r, slot, `Payout Status ${payoutName(slot)}`),

  settleSuccess: (m, r, slot) => settle(m, r, slot, 'SUCCESS'),
  settleFailed: (m, r, slot) => settle(m, r, slot, 'FAILED'),
  settleReversed: (m, r, slot) => settle(m, r, slot, 'REVERSED'),

  balance: async (m, r) => void (await judgeBalance(m, r)),
};

/** The balance against every payout of the model (P-MONEY-1); false when one moved around the read, so nothing was compared. */
export async function judgeBalance(m: Model, r: Real): Promise<boolean> {
  // Payouts that may still settle by themselves (this sequence's and earlier ones') are read just before
  // and after the balance: when one moved in between, the balance cannot be set against the records.
  const moving = m.payouts.flatMap((p, slot) => (p !== undefined && !isFinalPayout(p.last.status) ? [slot] : []));
  const earlier = m.inherited.filter((p) => awaitsSettlement(p.last));
  const readAll = async (when: string) => {
    await r.together([
      ...moving.map((slot) => (view: Real) => readPayout(m, view, slot, `Payout Status ${payoutName(slot)} (${when} the balance)`)),
      ...earlier.map(
        (payout) => async (view: Real) => (payout.last = await readEarlierPayout(view, payout.payoutOrderId, `${when} the balance`)),
      ),
    ]);
    return [...moving.map((slot) => moneyState(m.payouts[slot]!.last)), ...earlier.map((p) => moneyState(p.last))];
  };
  const seen = await readAll('before');
  const { exchange, balance } = await readBalance(r, 'Balance Inquiry');
  const unchanged = (await readAll('after')).every((state, i) => state === seen[i]);
  const expected = expectedBalance(m)!;
  r.step(
    `Balance Inquiry → ${briefly(exchange)} ${decimalText(balance)} (the model expects ${decimalText(expected)}${unchanged ? '' : '; a payout moved meanwhile, not compared'})`,
    exchange,
  );
  if (!unchanged) return false;
  const inherited =
    m.inherited.length > 0 ? `, and what ${m.inherited.length} earlier sequence(s)' payout(s) still to settle at the start did since` : '';
  r.judge(
    'MONEY-CONSERVATION',
    decimalEquals(balance, expected),
    () =>
      `the balance is ${decimalText(balance)}, but the run's own payouts explain ${decimalText(expected)}: the start ${decimalText(m.startBalance!)} less those amount_debited YES, plus those REVERSED${inherited} (P-MONEY-1)`,
    exchange,
  );
  return true;
}

/** An order as Create Order answered it, for `amount` INR; its checkout page only when on the target itself. */
function orderRecord(r: Real, orderId: string, record: Json, amount: number, state: string): OrderRecord {
  const written = { svcOrderId: record.svc_order_id, createdAt: record.created_at, amount: decimalOf(amount)!, currency: 'INR' };
  const paymentLink = typeof record.payment_link === 'string' ? record.payment_link : undefined;
  const checkoutPath = checkoutPathOf(r.ctx, paymentLink);
  return { orderId, written, state, ...(paymentLink !== undefined ? { paymentLink } : {}), ...(checkoutPath ? { checkoutPath } : {}) };
}

async function checkout(m: Model, r: Real, slot: number, name: 'payOrder' | 'failOrder' | 'expireOrder', state: string): Promise<void> {
  const order = m.orders[slot]!;
  const record = {
    ORDER_ID: order.orderId,
    SVC_ORDER_ID: String(order.written.svcOrderId),
    AMOUNT: decimalText(order.written.amount),
    // Only a web address: the target's text reaches a shell command.
    ...(order.paymentLink !== undefined && /^https?:\/\/[^\s'"`$\\]+$/.test(order.paymentLink) ? { PAYMENT_LINK: order.paymentLink } : {}),
  };
  if (m.drivers!.kind === 'command') {
    await r.driveThenRead(name, record, `drivers.${name} for ${orderName(slot)} (it was ${order.state})`);
    return RUN.orderStatus(m, r, slot);
  }
  const word = { payOrder: 'pay', failOrder: 'fail', expireOrder: 'expire' }[name];
  const { done, said, exchange } = await r.drive(name, record, `checkout ${word} ${orderName(slot)} (the sandbox's hosted checkout)`);
  const answer = exchange === undefined ? said : briefly(exchange);
  r.step(`checkout ${word} ${orderName(slot)} (it was ${order.state}) → ${answer}${done ? ` (now ${state})` : ' (not taken)'}`, exchange);
  if (done) order.state = state;
}
