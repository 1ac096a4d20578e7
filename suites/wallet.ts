// What a payout does to the balance (P-OPS-4, P-MONEY-1), read around quiet looks. A miss fails the
// target unless a quiet look saw other activity (P-CLI v1.3); a later try never erases a miss.
import { createHash } from 'node:crypto';
import { memo } from '../common/memo.js';
import { minorUnitOf } from '../schemas/amounts.js';
import { CURRENCIES, type Currency } from '../schemas/types.js';
import { CheckFailure, CheckSkipped, type CheckContext } from './check.js';
import { shown } from './checks/shown.js';
import { operationOf } from './config.js';
import type { Exchange } from './http.js';
import { unsettledOwnPayouts } from './own-payouts.js';
import {
  balanceInquiry,
  decimalEquals,
  decimalMinus,
  decimalOf,
  decimalPlus,
  decimalText,
  expectData,
  payoutStatus,
  type Decimal,
  type Json,
  type WalletRef,
} from './requests.js';

/** A payout record that says its debit is taken (P-OPS-4, P-MONEY-1): the balance is judged at once, with
 *  no wait for settlement. One that says NO takes it when it settles. */
export const debitTaken = (record: Json | undefined): boolean => record?.amount_debited === 'YES' && record.status !== 'FAILED';

export interface Balance {
  balance: Decimal;
  currency: Currency;
  exchange: Exchange;
}

/** A wallet's balance and currency, read with Balance Inquiry: the merchant's own wallet unless `wallet` names another. */
export async function readBalance(ctx: CheckContext, label: string, wallet: WalletRef = {}): Promise<Balance> {
  const exchange = await balanceInquiry(ctx, label, wallet);
  const data = expectData(exchange, `${label}: Balance Inquiry must answer the balance`);
  const balance = decimalOf(data.balance);
  if (balance === undefined || !(CURRENCIES as readonly unknown[]).includes(data.currency)) {
    throw new CheckFailure(
      `${label}: Balance Inquiry answered balance ${JSON.stringify(data.balance)} ${JSON.stringify(data.currency)}, not decimal text and a currency of the table`,
      shown(exchange),
    );
  }
  return { balance, currency: data.currency as Currency, exchange };
}

/** The wallet's currency once a check of the run has read it (per run: its client). */
const currencies = new WeakMap<object, Currency>();

/** Read once a run: every read is a body other runs may send in the same second. Without Balance Inquiry
 *  the check is skipped: a payout in another currency is refused 422, which is not the point. */
export async function walletCurrency(ctx: CheckContext): Promise<Currency> {
  if (operationOf(ctx.config, 'balanceInquiry') === undefined) {
    throw new CheckSkipped(
      "needs profile.operations.balanceInquiry in the config, to learn the wallet's currency before initiating a payout in it",
    );
  }
  const known = currencies.get(ctx.runKey);
  if (known !== undefined) return known;
  const { currency } = await readBalance(ctx, "the wallet's currency");
  currencies.set(ctx.runKey, currency);
  return currency;
}

/** Endings the reference sandbox gives a meaning (13: bank rejects; 42: stays PENDING). The kit's own
 *  amounts avoid them, so a payout meant to settle does. */
export const SANDBOX_OUTCOME_ENDINGS: readonly number[] = [13, 42];

/** 1 and a fraction in the minor unit, last digit never 0 (1.37 INR, 1.254 KWD; 2 to 99 JPY): a debit
 *  rounded to fewer decimals would be exact on a round amount. */
export function ownAmount(ctx: CheckContext, currency: Currency): Decimal {
  const digest = createHash('sha256').update(ctx.ids.nonce()).digest();
  const scale = minorUnitOf(currency);
  const one = 10 ** scale;
  let units = scale === 0 ? 2 + (digest.readUInt32BE(0) % 98) : one + 1 + (digest.readUInt32BE(0) % (one - 1));
  if (scale > 0 && units % 10 === 0) units += 1;
  if (SANDBOX_OUTCOME_ENDINGS.includes(units % 100)) units += 1;
  return { units: BigInt(units), scale };
}

/** A Decimal as the JSON number a request carries (exact: at most 3 decimals, far below 2^53). */
export const amountNumber = (d: Decimal): number => Number(decimalText(d));

/** What one try saw: the balance just before and just after the run's own payout. */
export interface Try {
  before: Balance;
  after: Balance;
  /** The payout's amount, and the change the rule expects (the amount, or 0 for a payout that FAILED). */
  amount: Decimal;
  expected: Decimal;
}

export const ZERO: Decimal = { units: 0n, scale: 0 };

/** What a payout record says it did to the balance: its amount out once debited, back once REVERSED. */
export function payoutEffect(record: Json | undefined): Decimal {
  const amount = decimalOf(record?.amount);
  if (record === undefined || amount === undefined) return ZERO;
  let effect = ZERO;
  if (record.amount_debited === 'YES') effect = decimalMinus(effect, amount);
  if (record.status === 'REVERSED') effect = decimalPlus(effect, amount);
  return effect;
}

/** The run's own payouts still settling, as read now: a record, 'absent' (never made), or undefined (unreadable). */
export type Snapshot = Map<string, Json | 'absent' | undefined>;

/** Reads each of the run's own payouts still settling on the wallet (see own-payouts.ts). */
export async function snapshotOwnPayouts(
  ctx: CheckContext,
  ids: readonly string[],
  label: string,
  wallet: WalletRef = {},
): Promise<Snapshot> {
  const walletId = wallet.walletId ?? ctx.config.merchant.walletId;
  // Read side by side (at most --concurrency): none moves the balance, and a look holds back the run.
  const read = async (id: string) => {
    const exchange = await payoutStatus(ctx, id, `${label}: Payout Status of the run's own payout ${id}, still settling`, { walletId });
    const status = exchange.response?.status;
    const data = (exchange.response?.json as { data?: Json } | undefined)?.data;
    return [id, status === 200 && data !== undefined ? data : status === 404 ? 'absent' : undefined] as const;
  };
  const seen: Snapshot = new Map();
  for (let i = 0; i < ids.length; i += ctx.concurrency)
    for (const [id, record] of await Promise.all(ids.slice(i, i + ctx.concurrency).map(read))) seen.set(id, record);
  return seen;
}

/** Undefined when a snapshot could not be read, or a payout vanished after it was seen. */
export function ownMovesBetween(from: Snapshot, to: Snapshot): Decimal | undefined {
  let moved = ZERO;
  for (const [id, before] of from) {
    const after = to.get(id);
    if (before === undefined || after === undefined || (after === 'absent' && before !== 'absent')) return undefined;
    const effect = (record: Json | 'absent') => (record === 'absent' ? ZERO : payoutEffect(record));
    moved = decimalPlus(moved, decimalMinus(effect(after), effect(before)));
  }
  return moved;
}

/** None before a first try: its look fixes the balance, and seeing other activity is the point only after a
 *  miss. Then drawn afresh (two runs in step fall out of it) and in real time, as another run pays. */
export function quietPauseMs(ctx: Pick<CheckContext, 'clock' | 'ids'>, afterMiss = false): number {
  if (!afterMiss) return 0;
  // Drawn from the run's ids: the same seed (and salt) pauses alike, and two runs' salts differ.
  const draw = createHash('sha256').update(ctx.ids.nonce()).digest().readUInt16BE(0);
  return (200 + (draw % 600)) * (ctx.clock.factor ?? 1);
}

/** How long quiet looks go on after misses no look had excused, before they are the target's: real ms. */
export const LOOKING_AFTER_MISS_MS = 3_000;

/** Per run (its state) and wallet: the first other activity a quiet look of the run saw there, said as the look saw it. */
const seenOfRun = new WeakMap<object, Map<string, string>>();

/** Once the run has seen the wallet move by itself, no unexplained move can be laid at the target's door. */
export function otherActivitySeen(ctx: Pick<CheckContext, 'runKey' | 'config'>, wallet: WalletRef = {}): string | undefined {
  return seenOfRun.get(ctx.runKey)?.get(wallet.walletId ?? ctx.config.merchant.walletId);
}

function noteActivity(ctx: Pick<CheckContext, 'runKey' | 'config'>, wallet: WalletRef, said: string): void {
  const wallets = memo(seenOfRun, ctx.runKey, () => new Map<string, string>());
  const walletId = wallet.walletId ?? ctx.config.merchant.walletId;
  if (!wallets.has(walletId)) wallets.set(walletId, said);
}

/** Two reads of the balance around a pause with no request of the run's out, and what moved it that the run's own payouts do not explain. */
interface QuietLook {
  first: Balance;
  second: Balance;
  /** The run's own payouts still settling, as read after the window. */
  own: Snapshot;
  /** Whether none of those moved from before the window to after it (else it tells nothing, and the reads are not to be used). */
  still: boolean;
  /** Set when the balance moved by something no request of the run's explains: other activity, seen. */
  otherActivity?: string;
}

/** Looks at most this many times for one in which the run's own payouts stayed still. */
const LOOK_TRIES = 3;

/** A quiet look at a wallet (the merchant's own unless named): see QuietLook; looked again while the run's own payouts move within it. */
export async function quietLook(ctx: CheckContext, label: string, wallet: WalletRef = {}, afterMiss = false): Promise<QuietLook> {
  for (let n = 1; ; n++) {
    const look = await lookOnce(ctx, n === 1 ? label : `${label} (looked again)`, wallet, afterMiss);
    if (look.otherActivity !== undefined) noteActivity(ctx, wallet, look.otherActivity);
    if (look.still || n === LOOK_TRIES) return look;
  }
}

/** The run's own payouts are read before and after the window, not in it: still over the longer
 *  stretch is still over the window's, and the window holds back every other request of the run. */
async function lookOnce(ctx: CheckContext, label: string, wallet: WalletRef, afterMiss: boolean): Promise<QuietLook> {
  const unsettled = () => unsettledOwnPayouts(ctx.runKey, wallet.walletId ?? ctx.config.merchant.walletId);
  const ownBefore = await snapshotOwnPayouts(ctx, unsettled(), label, wallet);
  const pause = quietPauseMs(ctx, afterMiss);
  const apart = pause > 0 ? `${pause} ms later` : 'read again at once';
  const { first, second } = await ctx.quietly(async (quiet) => {
    // A payout the run made since is read here, before the first read.
    const since = unsettled().filter((id) => !ownBefore.has(id));
    for (const [id, record] of await snapshotOwnPayouts(quiet, since, label, wallet)) ownBefore.set(id, record);
    const first = await readBalance(quiet, `${label}: the balance, no other request of the run's out`, wallet);
    if (pause > 0) await quiet.clock.sleep(pause);
    return { first, second: await readBalance(quiet, `${label}: the balance ${apart}, still none out`, wallet) };
  });
  const own = await snapshotOwnPayouts(ctx, [...ownBefore.keys()], label, wallet);
  const ownMoves = ownMovesBetween(ownBefore, own);
  // A payout of the run's that moved meanwhile may have moved before, between or after the two
  // reads: such a look tells nothing. Only one in which none did is a witness.
  const still = ownMoves !== undefined && ownMoves.units === 0n;
  if (!still || decimalEquals(first.balance, second.balance)) return { first, second, own, still };
  const moved = `the balance went from ${decimalText(first.balance)} to ${decimalText(second.balance)}, ${apart}`;
  return { first, second, own, still, otherActivity: `${moved} while no request of the run's was out` };
}

/** Seen by a quiet look already, or by one taken now, again for a while: another run's next payout lands in one. */
export async function otherActivityAfterMiss(ctx: CheckContext, label: string, wallet: WalletRef = {}): Promise<string | undefined> {
  const until = ctx.clock.now() + LOOKING_AFTER_MISS_MS * (ctx.clock.factor ?? 1);
  for (let n = 1; otherActivitySeen(ctx, wallet) === undefined && ctx.clock.now() < until; n++)
    await quietLook(ctx, `${label}, look ${n} for other activity`, wallet, true);
  return otherActivitySeen(ctx, wallet);
}

/** A miss no later try can make up for: not judged if a quiet look saw the wallet move by itself. */
export async function unlessOtherActivity(ctx: CheckContext, said: string): Promise<void> {
  const seen = await otherActivityAfterMiss(ctx, `after ${said}`);
  if (seen !== undefined) throw new CheckSkipped(`not judged: other activity on the wallet: ${seen}; ${said}`);
}

/** One try's payout, made after the balance `before`: the change it should make, or why it cannot be used. */
type Attempt = (before: Balance, suffix: string) => Promise<{ amount: Decimal; expected: Decimal } | { unusable: string }>;

/** The first usable try decides; after a miss, tries again (MAX_TRIES) and looks for other activity.
 *  `attempt` gets the balance and the try's label suffix (" (try 2)"; none on the first). Throws CheckSkipped when a quiet look saw the balance move by itself, else a CheckFailure with every miss. */
export async function balanceChange(ctx: CheckContext, rule: string, attempt: Attempt, wallet: WalletRef = {}): Promise<Try> {
  const seen: string[] = [];
  const unusable: string[] = [];
  const misses: Try[] = [];
  for (let n = 1; n <= MAX_TRIES && seen.length === 0; n++) {
    const suffix = n === 1 ? '' : ` (try ${n})`;
    const look = await quietLook(ctx, `before the payout${suffix}`, wallet, misses.length > 0);
    if (look.otherActivity !== undefined) seen.push(look.otherActivity);
    if (!look.still) {
      unusable.push("the run's own earlier payouts kept settling around the balance read before the payout");
      continue;
    }
    const outcome = await attempt(look.second, suffix);
    // A payout that did not end as the rule needs (a bank that refused this amount): another amount, another try.
    if ('unusable' in outcome) {
      unusable.push(outcome.unusable);
      continue;
    }
    const read = await balanceAfter(ctx, [...look.own.keys()], `after the payout${suffix}`, wallet);
    const ownMoves = read === undefined ? undefined : ownMovesBetween(look.own, read.own);
    if (read === undefined || ownMoves === undefined) {
      unusable.push(
        "a payout of the run's own that was still settling moved around the balance read after the payout, or could not be read",
      );
      continue;
    }
    // The change the rule expects, and what the run's own earlier payouts did meanwhile (a settlement's debit).
    const t: Try = { before: look.second, after: read.after, amount: outcome.amount, expected: decimalMinus(outcome.expected, ownMoves) };
    // After a miss the tries go on (each a payout another run at once may see, and a look that may see
    // its payouts), but one that adds up erases nothing.
    if (!decimalEquals(change(t), t.expected)) misses.push(t);
    else if (misses.length === 0) return t;
  }
  if (misses.length === 0)
    throw new CheckSkipped(
      `not judged: ${unusable[0] ?? 'no try could be made'} (on each of ${MAX_TRIES} tries, each with another amount)`,
    );
  if (seen.length === 0) {
    const later = await otherActivityAfterMiss(ctx, 'after the miss', wallet);
    if (later !== undefined) seen.push(later);
  }
  const each = misses.map(describe).join('; ');
  if (seen.length > 0)
    throw new CheckSkipped(
      `not judged: other activity on the wallet: ${seen[0]}; and ${each}, which the run's own payouts do not explain, so ${rule} could not be judged (P-MONEY-1)`,
    );
  const last = misses[misses.length - 1]!;
  throw new CheckFailure(
    `${each} (${rule}); no quiet look at the wallet saw anything else move it, so ${misses.length === 1 ? 'the miss is' : `the ${misses.length} misses are`} the target's (P-MONEY-1)`,
    {
      ...shown(last.after.exchange, `balance ${decimalText(decimalMinus(last.before.balance, last.expected))}`),
      exchanges: misses.flatMap((t) => [t.before.exchange, t.after.exchange]),
    },
  );
}

/** When a payout still settling moved between the reads around it, the balance is read again: its settlement may or may not be in it. */
export async function balanceAfter(
  ctx: CheckContext,
  ids: readonly string[],
  label: string,
  wallet: WalletRef,
): Promise<{ after: Balance; own: Snapshot } | undefined> {
  for (let n = 1; n <= LOOK_TRIES; n++) {
    const before = await snapshotOwnPayouts(ctx, ids, label, wallet);
    const after = await readBalance(ctx, `balance ${label}`, wallet);
    const own = await snapshotOwnPayouts(ctx, ids, label, wallet);
    const moved = ownMovesBetween(before, own);
    if (moved !== undefined && moved.units === 0n) return { after, own };
  }
  return undefined;
}

/** Tries at most: more after a miss, each a chance to see other activity; more when a try cannot be used. */
export const MAX_TRIES = 4;

const change = (t: Try): Decimal => decimalMinus(t.before.balance, t.after.balance);

function describe(t: Try): string {
  return `a payout of ${decimalText(t.amount)} moved the balance from ${decimalText(t.before.balance)} to ${decimalText(t.after.balance)} (expected ${decimalText(decimalMinus(t.before.balance, t.expected))})`;
}
