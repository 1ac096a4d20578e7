// What a payout does to the wallet's balance (P-OPS-4, P-MONEY-1), measured so that another run (or
// the merchant's own traffic) moving the same wallet is never blamed on the target. Each try reads
// the balance just before and just after the run's own payout. A try whose change is exactly the
// expected one proves the rule. A change that is not is blamed on the target only when it is
// reproduced: three tries, each with a payout of its own amount (drawn from the run's ids, so it
// differs from try to try and from another run's), that miss in the same way: the change the same
// multiple of the amount (a debit never taken: 0; taken twice: 2; a FAILED payout debited anyway: 1),
// the same amount off (a fee), the very same change whatever the amount (a debit of a fixed size), or
// the amount rounded the same way (a debit cut to whole units). A fault of the target does the same to
// each payout it is given; other activity (another run's payouts, of amounts of its own) matches one
// of these only by chance, even when that run pays in the very moments this one does (two runs at
// once, one seed): two tries alike happen that way now and then; three, after pauses that put the
// runs out of step, hardly ever. Anything else is "not judged: other activity on the wallet"
// (P-MONEY-1), never a failure.
import { createHash } from 'node:crypto';
import { minorUnitOf, normalized } from '../../schemas/amounts.js';
import { CURRENCIES, type Currency } from '../../schemas/types.js';
import { CheckFailure, CheckSkipped, answered, type CheckContext } from '../check.js';
import { operationOf } from '../config.js';
import type { Exchange } from '../http.js';
import {
  balanceInquiry,
  decimalEquals,
  decimalMinus,
  decimalOf,
  decimalText,
  expectData,
  type Decimal,
  type WalletRef,
} from './requests.js';

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
      { actual: answered(exchange), exchange },
    );
  }
  return { balance, currency: data.currency as Currency, exchange };
}

/** The wallet's currency once a check of the run has read it (per run: its client). */
const currencies = new WeakMap<object, Currency>();

/**
 * The currency payouts are made in: the merchant wallet's, read with Balance Inquiry once a run (the
 * first check that needs it reads it; it does not change). Every read of one body is a request another
 * run may send in the same second: fewer of them, fewer replays to work around. Without Balance
 * Inquiry the check is skipped rather than guessing: a payout in another currency than the wallet's
 * is refused (422), and that refusal is not what the check is about.
 */
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

/**
 * The last two minor-unit digits the reference sandbox gives a meaning (13: its bank rejects the
 * payout; 42: it stays PENDING until settled by hand). An amount of the kit's own avoids them, so a
 * payout meant to settle does: elsewhere they are just amounts.
 */
export const SANDBOX_OUTCOME_ENDINGS: readonly number[] = [13, 42];

/**
 * A small payout amount of this run's own: 1 and a fraction in the currency's minor unit, the last
 * digit never 0 (1.37 INR, 1.254 KWD; 2 to 99 JPY). Two runs at once pay different amounts, so one's
 * debit cannot pass for the other's. Kept in a narrow band on purpose: a debit that depends on the
 * amount (a fee of 1% rounded to the cent, an amount cut to whole units) then comes out the same, or
 * one of two ways, on every try, and is seen to repeat (see REPRODUCED). Never a round amount
 * (1.30): a debit rounded to fewer decimals would be exact on it.
 */
export function ownAmount(ctx: CheckContext, currency: Currency): Decimal {
  const digest = createHash('sha256').update(ctx.ids.nonce()).digest();
  const scale = minorUnitOf(currency);
  const one = 10 ** scale;
  let units = scale === 0 ? 2 + (digest.readUInt32BE(0) % 98) : one + 1 + (digest.readUInt32BE(0) % (one - 1));
  if (scale > 0 && units % 10 === 0) units += 1;
  if (SANDBOX_OUTCOME_ENDINGS.includes(units % 100)) units += 1;
  return { units: BigInt(units), scale };
}

/**
 * How long a try after the first waits first, ms: a span drawn from the run's ids, so two runs that
 * started together and miss together (each seeing the other's payout) fall out of step, and their
 * later tries rarely overlap. Only a try after a miss waits.
 */
export function retryPauseMs(ctx: CheckContext): number {
  return createHash('sha256').update(ctx.ids.nonce()).digest().readUInt16BE(0) % RETRY_PAUSE_SPAN_MS;
}
export const RETRY_PAUSE_SPAN_MS = 250;

/** A Decimal as the JSON number a request carries (exact: at most 3 decimals, far below 2^53). */
export function amountNumber(d: Decimal): number {
  return Number(decimalText(d));
}

/** What one try saw: the balance just before and just after the run's own payout. */
export interface Try {
  before: Balance;
  after: Balance;
  /** The payout's amount, and the change the rule expects (the amount, or 0 for a payout that FAILED). */
  amount: Decimal;
  expected: Decimal;
}

/** a + b, exactly. */
export function decimalPlus(a: Decimal, b: Decimal): Decimal {
  return decimalMinus(a, { units: -b.units, scale: b.scale });
}

/** What a miss is judged by: the balance around it, its own amount and the change expected. */
export type MissShape = Pick<Try, 'amount' | 'expected'> & { before: Pick<Balance, 'balance'>; after: Pick<Balance, 'balance'> };

const change = (t: MissShape): Decimal => decimalMinus(t.before.balance, t.after.balance);
/** A decimal's value as text, whatever its scale ("1.50" and "1.5" alike). */
const valueKey = (d: Decimal): string => {
  const n = normalized(d);
  return `${n.units}e-${n.scale}`;
};

/** c / a as a reduced fraction (a is not zero). */
function ratioKey(c: Decimal, a: Decimal): string {
  const scale = Math.max(c.scale, a.scale);
  let p = decimalMinus(c, { units: 0n, scale }).units;
  let q = decimalMinus(a, { units: 0n, scale }).units;
  if (q < 0n) [p, q] = [-p, -q];
  let [x, y] = [p < 0n ? -p : p, q];
  while (y !== 0n) [x, y] = [y, x % y];
  return `${p / x}/${q / x}`;
}

/** One way a try missed, and the amount it missed with: tries that missed the same way share the way. */
export interface MissWay {
  way: string;
  amount: Decimal;
}

/**
 * The ways a try missed: the change as a multiple of its amount (a debit never taken: 0; taken twice:
 * 2), the change less the expected one (a fee), the change less the amount (a refused payout debited
 * anyway, with a fee on top), the change itself (a debit of a fixed size), and the amount rounded
 * (a debit cut to whole units).
 */
export function missWays(t: MissShape, prefix = ''): MissWay[] {
  const c = change(t);
  const ways = [
    `${prefix}off ${valueKey(decimalMinus(c, t.expected))}`,
    `${prefix}off the amount ${valueKey(decimalMinus(c, t.amount))}`,
    `${prefix}change ${valueKey(c)}`,
  ];
  if (t.amount.units !== 0n) ways.push(`${prefix}multiple ${ratioKey(c, t.amount)}`);
  // A debit of the amount rounded to fewer decimals (whole units, tenths): the change differs with
  // each amount, but it is the same rounding of it.
  for (let digits = 0; digits < t.amount.scale; digits++) {
    for (const mode of ROUNDINGS) {
      const rounded = roundedTo(t.amount, digits, mode);
      if (decimalEquals(c, rounded) && !decimalEquals(rounded, t.amount)) ways.push(`${prefix}rounded ${mode} to ${digits} decimals`);
    }
  }
  return ways.map((way) => ({ way, amount: t.amount }));
}

const ROUNDINGS = ['down', 'up', 'half up'] as const;

/** A positive amount rounded to `digits` decimals. */
function roundedTo(d: Decimal, digits: number, mode: (typeof ROUNDINGS)[number]): Decimal {
  if (d.scale <= digits) return d;
  const factor = 10n ** BigInt(d.scale - digits);
  const [whole, rest] = [d.units / factor, d.units % factor];
  const up = mode === 'up' ? rest > 0n : mode === 'half up' ? rest * 2n >= factor : false;
  return { units: up ? whole + 1n : whole, scale: digits };
}

/**
 * How many misses, each with an amount of its own, must share a way before the miss is the target's,
 * and how many tries are made for it. A fault of the target misses the same way on every payout (or,
 * for a fee that is a share of the amount, one of two or three ways within the narrow band of own
 * amounts: six tries hold three alike of two ways, and most often of three). Another run paying its
 * own amounts in the same moments makes two tries alike now and then; three alike, out of step after
 * the pauses between tries, hardly ever (measured in wallet.test.ts).
 */
export const REPRODUCED = 3;
export const MAX_TRIES = 6;

/** Misses kept by the ways they missed, until REPRODUCED of them with as many amounts share one. */
export class Misses<T> {
  private readonly byWay = new Map<string, Map<string, T>>();

  /** Adds a miss: the misses that now reproduce it (REPRODUCED of them, this one last), or undefined. */
  add(miss: T, ways: readonly MissWay[]): T[] | undefined {
    let reproduced: T[] | undefined;
    for (const { way, amount } of ways) {
      let seen = this.byWay.get(way);
      if (seen === undefined) this.byWay.set(way, (seen = new Map<string, T>()));
      const key = valueKey(amount);
      if (seen.has(key)) continue;
      seen.set(key, miss);
      if (reproduced === undefined && seen.size >= REPRODUCED) reproduced = [...seen.values()];
    }
    return reproduced;
  }
}

/**
 * Runs `attempt` (one payout of the run's own, settled) up to MAX_TRIES times between balance reads
 * of `wallet` (the merchant's own unless named).
 * Returns the first try whose change is exactly the expected one; throws a CheckFailure when
 * REPRODUCED tries missed the same way, and a CheckSkipped ("not judged: other activity on the
 * wallet") otherwise.
 */
export async function balanceChange(
  ctx: CheckContext,
  rule: string,
  attempt: (before: Balance, tryNumber: number) => Promise<{ amount: Decimal; expected: Decimal } | { unusable: string }>,
  wallet: WalletRef = {},
): Promise<Try> {
  const tries: Try[] = [];
  const misses = new Misses<Try>();
  let unusable: string | undefined;
  let unusableTries = 0;
  for (let n = 1; n <= MAX_TRIES; n++) {
    const suffix = n === 1 ? '' : ` (try ${n})`;
    if (n > 1) await ctx.clock.sleep(retryPauseMs(ctx));
    const before = await readBalance(ctx, `balance before the payout${suffix}`, wallet);
    const outcome = await attempt(before, n);
    // A payout that did not end as the rule needs (a bank that refused this amount): another amount, another try.
    if ('unusable' in outcome) {
      unusable = outcome.unusable;
      unusableTries += 1;
      continue;
    }
    const { amount, expected } = outcome;
    const after = await readBalance(ctx, `balance after the payout${suffix}`, wallet);
    const t: Try = { before, after, amount, expected };
    if (decimalEquals(change(t), expected)) return t;
    tries.push(t);
    const reproduced = misses.add(t, missWays(t));
    if (reproduced !== undefined) {
      throw new CheckFailure(`${describe(t)}; ${REPRODUCED} tries, each with an amount of its own, missed the same way (${rule})`, {
        expected: `balance ${decimalText(decimalMinus(t.before.balance, t.expected))}`,
        actual: `${answered(t.after.exchange)}; tries: ${tries.map(describe).join('; ')}`,
        exchange: t.after.exchange,
      });
    }
  }
  if (tries.length === 0)
    throw new CheckSkipped(`${unusable ?? 'no try could be made'} (on each of ${MAX_TRIES} tries, each with another amount)`);
  throw new CheckSkipped(
    `not judged: other activity on the wallet: the balance moved by amounts this run's own payouts do not explain, on ${tries.length} tries and ` +
      `never ${REPRODUCED} times the same way (${tries.map(describe).join('; ')})` +
      (unusableTries > 0 ? `; ${unusableTries} more tries could not be used: ${unusable ?? ''}` : '') +
      `, so ${rule} could not be judged (P-MONEY-1)`,
  );
}

function describe(t: Try): string {
  return `a payout of ${decimalText(t.amount)} moved the balance from ${decimalText(t.before.balance)} to ${decimalText(t.after.balance)} (expected ${decimalText(decimalMinus(t.before.balance, t.expected))})`;
}
