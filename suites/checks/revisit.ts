// Time as a dimension (P-DUP-5, P-STATE, profile.revisitAfterSeconds): once the other checks have ended, the run
// revisits what it wrote at least that long before: a duplicate memory that expires, or a job rewriting final records, shows then.
import { memo } from '../../common/memo.js';
import { decimalEquals, decimalOf } from '../../schemas/amounts.js';
import { CheckFailure, CheckSkipped, expectStatus, expectThat, type Check, type CheckContext } from '../check.js';
import { operationOf } from '../config.js';
import { isFinalOrderState } from '../model/model.js';
import { notFinalOwnPayouts } from '../own-payouts.js';
import {
  createOrder,
  dataOf,
  decimalMinus,
  decimalPlus,
  decimalText,
  initiatePayout,
  isFinalPayout,
  orderLookup,
  payoutStatus,
  validOrder,
  type Json,
} from '../requests.js';
import { balanceAfter, LOOKING_AFTER_MISS_MS, otherActivityAfterMiss, ownMovesBetween, quietLook } from '../wallet.js';
import { writtenBy, type Written } from '../written.js';
import { shown } from './shown.js';

/** How many records of each kind a revisit reads: enough to see a sweep, few enough to stay quick. */
const PER_KIND = 2;
/** What a final record keeps (P-STATE-1, P-STATE-2, P-STATE-3); a message may change. */
const ORDER_KEPT = ['order_id', 'svc_order_id', 'order_amount', 'order_currency', 'created_at', 'order_status'];
// Not utr_number nor amount_debited: a UTR may come late (interface), and P-STATE-2 fixes neither.
const PAYOUT_KEPT = ['payout_order_id', 'payout_id', 'wallet_id', 'amount', 'currency', 'created_at', 'status'];

/** The kept fields two records of one record show differently: ids as text, amounts by value (P-DUP-4,
 *  P-AMOUNT-3), and only where both show the field (a Cancel may answer fewer fields than a Status). */
function changedFields(kind: Written['kind'], before: Json, after: Json): string[] {
  return (kind === 'order' ? ORDER_KEPT : PAYOUT_KEPT).filter((f) => {
    if (before[f] === undefined || after[f] === undefined) return false;
    const [a, b] = [decimalOf(before[f]), decimalOf(after[f])];
    if (/amount$/.test(f) && a !== undefined && b !== undefined) return !decimalEquals(a, b);
    return JSON.stringify(before[f]).replace(/^"|"$/g, '') !== JSON.stringify(after[f]).replace(/^"|"$/g, '');
  });
}

const revisitAfterMs = (ctx: CheckContext) => (ctx.config.profile?.revisitAfterSeconds ?? 12) * 1000;
const stateOf = (w: Written) => String(w.kind === 'order' ? w.last.order_status : w.last.status);
/** How old a revisited record is, as said: the bound, not the exact age, so a seed's report does not hang on timing. */
const ageOf = (ctx: CheckContext) => `at least ${revisitAfterMs(ctx) / 1000} s`;

/** A few records of each kind `wanted` keeps, once the newest of them is old enough (the wait is on
 *  the run's clock: an embedded sandbox's runs faster). When the run wrote none, writes an order itself. */
async function revisited(ctx: CheckContext, wanted: (w: Written) => boolean): Promise<Written[]> {
  let picks = pick(ctx, wanted);
  if (picks.length === 0) {
    await memo(ownWrites, ctx.runKey, () => writeOne(ctx));
    picks = pick(ctx, wanted);
  }
  if (picks.length === 0) throw new CheckSkipped('not judged: the run wrote no record it could revisit');
  const due = Math.max(...picks.map((w) => w.at)) + revisitAfterMs(ctx);
  if (ctx.deadlineAt !== undefined && due > ctx.deadlineAt)
    throw new CheckSkipped(`not judged: the run's time budget ends before what it wrote is ${ageOf(ctx)} old`);
  await until(ctx, due);
  return picks;
}

/** Until `due` on the run's clock: moved on to it where the run owns the target's clock, else waited for. */
async function until(ctx: CheckContext, due: number): Promise<void> {
  const left = due - ctx.clock.now();
  if (left > 0 && ctx.clock.jump !== undefined) ctx.clock.jump(left);
  else if (left > 0) await ctx.clock.sleep(left);
}

/** Chosen by identifier, not by when: a seed sends the same requests at any concurrency. */
function pick(ctx: CheckContext, wanted: (w: Written) => boolean): Written[] {
  const all = writtenBy(ctx.runKey)
    .filter(wanted)
    .sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
  return [...all.filter((w) => w.kind === 'order').slice(0, PER_KIND), ...all.filter((w) => w.kind === 'payout').slice(0, PER_KIND)];
}

/** Its own order, written once per run however many revisit checks ask: the same requests at any concurrency. */
const ownWrites = new WeakMap<object, Promise<void>>();

/** An order of the revisit's own, cancelled when the target has Order Cancel: a final record to read later. */
async function writeOne(ctx: CheckContext): Promise<void> {
  const body = validOrder(ctx);
  expectStatus(await createOrder(ctx, body, 'create an order to revisit'), [200, 201], 'Create Order of a new order');
  if (operationOf(ctx.config, 'orderCancel') !== undefined) await orderLookup(ctx, 'orderCancel', body.order_id, 'cancel it');
}

/** DUP-PERMANENT later: each identifier the run used still answers 409. */
async function idsStillUsed(ctx: CheckContext): Promise<void> {
  for (const w of await revisited(ctx, () => true)) {
    const state = stateOf(w);
    const again =
      w.kind === 'order'
        ? await createOrder(
            ctx,
            validOrder(ctx, { order_id: w.id, order_amount: 999.99, order_currency: 'INR' }),
            `Create Order again with ${w.id}`,
          )
        : await initiatePayout(
            ctx,
            { ...w.body, beneficiary: { ...(w.body.beneficiary as Json), name: `Later Again ${ctx.ids.nonce()}` } },
            `Transaction Initiation again with ${w.id}`,
          );
    const what = w.kind === 'order' ? 'Create Order with the order_id' : 'Transaction Initiation with the payout_order_id';
    expectStatus(
      again,
      [409],
      `${what} of a record written ${ageOf(ctx)} earlier (${state} when last read) must answer 409 (P-DUP-5: an identifier once used stays used, however long ago)`,
    );
  }
}

/** STATE-READS-AGREE later: each final record reads as it last did, its state and every field. */
async function finalRecordsUnchanged(ctx: CheckContext): Promise<void> {
  // Orders are read again only where the target has Order Status (P-OPS).
  const readable = (w: Written) => w.kind === 'payout' || operationOf(ctx.config, 'orderStatus') !== undefined;
  const final = (w: Written) => readable(w) && (w.kind === 'order' ? isFinalOrderState : isFinalPayout)(stateOf(w));
  for (const w of await revisited(ctx, final)) {
    // As last seen: the read below is noted too (written.ts), and would replace it.
    const { kind, id, last } = w;
    const state = stateOf(w);
    const read =
      kind === 'order'
        ? await orderLookup(ctx, 'orderStatus', id, `Order Status of ${id}, ${state} when last read`)
        : await payoutStatus(ctx, id, `Payout Status of ${id}, ${state} when last read`);
    expectStatus(read, [200], `a record the run wrote ${ageOf(ctx)} earlier must still be found (P-STATE-3)`);
    const record = dataOf(read) ?? {};
    const changed = changedFields(kind, last, record);
    expectThat(
      changed.length === 0,
      `${kind} ${id}, ${state} (final) when last read, reads ${changed.map((f) => `${f} ${JSON.stringify(record[f])}`).join(', ')} ${ageOf(ctx)} after it was written (P-STATE-1, P-STATE-2: a final record never changes; P-STATE-3)`,
      shown(read, changed.map((f) => `${f} ${JSON.stringify(last[f])}`).join(', ')),
    );
  }
}

/** MONEY-CONSERVATION later: from the other checks' end, revisitAfterSeconds on (and its last payout as old),
 *  the balance moved only as the run's payouts say; watched meanwhile, so another run's are seen (P-MONEY-1). */
async function balanceStillExplained(ctx: CheckContext): Promise<void> {
  const payouts = writtenBy(ctx.runKey).filter((w) => w.kind === 'payout');
  if (payouts.length === 0) throw new CheckSkipped('not judged: the run made no payout on the wallet to revisit');
  const ids = notFinalOwnPayouts(ctx.runKey, ctx.config.merchant.walletId);
  const start = await balanceAfter(ctx, ids, 'once the other checks ended', {});
  const due = Math.max(ctx.clock.now(), ...payouts.map((w) => w.at)) + revisitAfterMs(ctx);
  // Room after it too: the reads, and after a miss the looks for other activity.
  if (ctx.deadlineAt !== undefined && due + 2 * LOOKING_AFTER_MISS_MS * (ctx.clock.factor ?? 1) > ctx.deadlineAt)
    throw new CheckSkipped(`not judged: the run's time budget ends before the balance can be read again ${ageOf(ctx)} later`);
  // Where time passes by itself, watched meanwhile: another run's payouts are then seen.
  while (ctx.clock.jump === undefined && ctx.clock.now() < due) await quietLook(ctx, 'waiting to revisit the balance', {}, true);
  await until(ctx, due);
  const end = await balanceAfter(ctx, ids, `${ageOf(ctx)} later`, {});
  const own = start === undefined || end === undefined ? undefined : ownMovesBetween(start.own, end.own);
  if (start === undefined || end === undefined || own === undefined)
    throw new CheckSkipped("not judged: the run's own payouts kept settling around the balance reads, or could not be read");
  const [from, to] = [start.after.balance, end.after.balance];
  if (decimalEquals(decimalMinus(to, from), own)) return;
  const said = `the balance went from ${decimalText(from)} as the other checks ended to ${decimalText(to)} ${ageOf(ctx)} later; the run's own payouts explain a change of ${decimalText(own)}`;
  const seen = await otherActivityAfterMiss(ctx, 'after the revisited balance missed');
  if (seen !== undefined) throw new CheckSkipped(`not judged: other activity on the wallet: ${seen}; ${said} (P-MONEY-1)`);
  throw new CheckFailure(`${said}, and no quiet look at the wallet saw anything else move it (P-MONEY-1)`, {
    ...shown(end.after.exchange, `balance ${decimalText(decimalPlus(from, own))}`),
    exchanges: [start.after.exchange, end.after.exchange],
  });
}

/** Run once the other checks have ended: what they wrote is what is revisited. */
function revisit(id: string, requirement: string, title: string, run: Check['run']): Check {
  return { id, requirement, title, creates: true, last: true, run };
}

export const revisitChecks: readonly Check[] = [
  // Reads first: the ids check sends its re-creates after, so a target that takes one changes nothing read.
  {
    ...revisit(
      'revisit-balance-explained',
      'MONEY-CONSERVATION',
      "the balance still moves only as the run's payouts say, a while later",
      balanceStillExplained,
    ),
    creates: false,
    needs: ['profile.operations.balanceInquiry'],
  },
  revisit('revisit-final-records', 'STATE-READS-AGREE', 'final records the run wrote read the same, a while later', finalRecordsUnchanged),
  revisit('revisit-ids-still-used', 'DUP-PERMANENT', 'identifiers the run used are still refused, a while later', idsStillUsed),
];
