// The payout steps the model's commands share (initiation, reads, the sandbox's settlement) and
// the balance read: each sends, judges the answer against the model, and moves the model on.
import { answered } from '../check.js';
import type { Exchange } from '../http.js';
import { dataOf, decimalEquals, decimalOf, decimalText, isFinalPayout, isSuccess, type Decimal, type Json } from '../requests.js';
import { changedPayoutFields, payoutMayMove, type Model, type PayoutRecord } from './model.js';
import { briefly, NotJudged, ownPayoutAmount, type Real } from './target.js';

export const statusOf = (exchange: Exchange) => exchange.response?.status ?? 0;
export const orderName = (slot: number) => `order#${slot + 1}`;
export const payoutName = (slot: number) => `payout#${slot + 1}`;

export async function initiate(m: Model, r: Real, slot: number, ending: number | 'processed'): Promise<void> {
  const amount = ownPayoutAmount(r.ctx, r.facts.currency, ending);
  const body = r.payoutBody(slot, amount);
  const exchange = await r.send(`Transaction Initiation ${payoutName(slot)}`, 'transactionInitiation', body);
  const record = isSuccess(exchange) ? dataOf(exchange) : undefined;
  r.step(
    `Transaction Initiation ${payoutName(slot)} of ${decimalText(amount)} ${r.facts.currency} → ${briefly(exchange, record?.status)}${record ? ` amount_debited ${String(record.amount_debited)}` : ''}`,
    exchange,
  );
  if (record === undefined) throw new NotJudged(`Transaction Initiation of a new payout answered ${answered(exchange)}`);
  const answeredAmount = decimalOf(record.amount);
  const agrees =
    String(record.payout_order_id) === body.payout_order_id &&
    answeredAmount !== undefined &&
    decimalEquals(answeredAmount, amount) &&
    record.currency === body.currency;
  r.judge(
    'STATE-READS-AGREE',
    agrees,
    () =>
      `Transaction Initiation answered payout_order_id ${JSON.stringify(record.payout_order_id)}, amount ${JSON.stringify(record.amount)}, currency ${JSON.stringify(record.currency)} for a payout of ${decimalText(amount)} ${String(body.currency)} (P-STATE-3)`,
    exchange,
  );
  m.payouts[slot] = { payoutOrderId: String(body.payout_order_id), written: record, last: record };
}

/** Payout Status of one payout, judged as a read (P-STATE-2, P-STATE-3); the model moves on to it. */
export async function readPayout(m: Model, r: Real, slot: number, label: string): Promise<void> {
  const payout = m.payouts[slot]!;
  const exchange = await r.send(label, 'payoutStatus', r.payoutStatusBody(payout.payoutOrderId));
  const record = statusOf(exchange) === 200 ? dataOf(exchange) : undefined;
  r.step(`${label} → ${briefly(exchange, record?.status)}${record ? ` amount_debited ${String(record.amount_debited)}` : ''}`, exchange);
  r.judgeFound(exchange, `Payout Status of ${payoutName(slot)}`, 'Transaction Initiation');
  if (record === undefined) throw new NotJudged(`Payout Status answered ${answered(exchange)}`);
  judgeRecord(payout, record, r, slot, exchange);
}

function judgeRecord(payout: PayoutRecord, record: Json, r: Real, slot: number, exchange: Exchange): void {
  const before = String(payout.last.status);
  const now = String(record.status);
  r.judge(
    'STATE-PAYOUT-LIFECYCLE',
    payoutMayMove(before, now),
    () =>
      `${payoutName(slot)} read ${now} after ${before}: payout states move forward only${isFinalPayout(before) ? `, and ${before} is final` : ''} (P-STATE-2)`,
    exchange,
  );
  const changed = payout.read === undefined ? [] : changedPayoutFields(payout.read, record);
  r.judge(
    'STATE-PAYOUT-LIFECYCLE',
    changed.length === 0,
    () =>
      `${payoutName(slot)}'s ${changed.map((f) => `${f} changed from ${JSON.stringify(payout.read![f])} to ${JSON.stringify(record[f])}`).join(', ')} between two reads (P-STATE-2: they never change)`,
    exchange,
  );
  const differs = changedPayoutFields(payout.written, record);
  r.judge(
    'STATE-READS-AGREE',
    differs.length === 0,
    () =>
      `Payout Status of ${payoutName(slot)} shows ${differs.map((f) => `${f} ${JSON.stringify(record[f])}`).join(', ')}, but Transaction Initiation answered ${differs.map((f) => JSON.stringify(payout.written[f])).join(', ')} (P-STATE-3)`,
    exchange,
  );
  payout.last = record;
  payout.read = record;
}

export async function settle(m: Model, r: Real, slot: number, target: 'SUCCESS' | 'FAILED' | 'REVERSED'): Promise<void> {
  const payout = m.payouts[slot]!;
  const amount = decimalOf(payout.written.amount);
  const given = {
    PAYOUT_ORDER_ID: payout.payoutOrderId,
    WALLET_ID: r.facts.walletId,
    STATE: target,
    ...(amount !== undefined ? { AMOUNT: decimalText(amount) } : {}),
  };
  if (m.drivers!.kind === 'command') {
    await r.driveThenRead(
      'settlePayout',
      given,
      `drivers.settlePayout ${payoutName(slot)} to ${target} (it was ${String(payout.last.status)})`,
    );
    return readPayout(m, r, slot, `Payout Status ${payoutName(slot)} after drivers.settlePayout`);
  }
  const label = `settle ${payoutName(slot)} to ${target} (the sandbox's control request)`;
  const exchange = (await r.drive('settlePayout', given, label)).exchange!;
  const record = statusOf(exchange) === 200 ? dataOf(exchange) : undefined;
  r.step(
    `settle ${payoutName(slot)} to ${target} (it was ${String(payout.last.status)}) → ${briefly(exchange, record?.status)}${record ? '' : ' (not taken)'}`,
    exchange,
  );
  // The control request answers the record as it now is: judged as a read.
  if (record !== undefined) judgeRecord(payout, record, r, slot, exchange);
}

/** The part of a payout record the balance depends on. */
export function moneyState(record: Record<string, unknown>): string {
  return `${String(record.status)}/${String(record.amount_debited)}`;
}

/** A payout an earlier sequence made (the money rule counts its settlement): only its money is read,
 *  as its lifecycle is the sequence's that made it. */
export async function readEarlierPayout(r: Real, payoutOrderId: string, when: string): Promise<Json> {
  const label = `Payout Status ${payoutOrderId} (an earlier sequence's payout, ${when})`;
  const exchange = await r.send(label, 'payoutStatus', r.payoutStatusBody(payoutOrderId));
  const record = statusOf(exchange) === 200 ? dataOf(exchange) : undefined;
  r.step(`${label} → ${briefly(exchange, record?.status)}${record ? ` amount_debited ${String(record.amount_debited)}` : ''}`, exchange);
  if (record === undefined) throw new NotJudged(`Payout Status of an earlier payout of the run's answered ${answered(exchange)}`);
  return record;
}

export async function readBalance(r: Real, label: string): Promise<{ exchange: Exchange; balance: Decimal }> {
  const exchange = await r.send(label, 'balanceInquiry', { svc_wallet_id: r.facts.walletId });
  const balance = statusOf(exchange) === 200 ? decimalOf(dataOf(exchange)?.balance) : undefined;
  if (balance === undefined) throw new NotJudged(`Balance Inquiry answered ${answered(exchange)}`);
  return { exchange, balance };
}
