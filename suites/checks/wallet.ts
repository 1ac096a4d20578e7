// What a payout does to the wallet's balance (P-OPS-4, P-MONEY-1), measured so that another run (or
// the merchant's own traffic) moving the same wallet is never blamed on the target. Each try reads
// the balance just before and just after the run's own payout. A try whose change is exactly the
// expected one proves the rule. A change that is not is blamed on the target only when it is
// reproduced: two tries, each with a payout of its own amount (drawn from the run's ids, so it differs
// from try to try and from another run's), that miss in the same way: the change the same multiple of
// the amount (a debit never taken: 0; taken twice: 2; a FAILED payout debited anyway: 1), the same
// amount off (a fee), or the very same change whatever the amount (a debit cut to whole units of a
// fixed size). A fault of the target does the same to each payout it is given; other activity (another
// run's payouts, of amounts of its own, at times of its own) matches one of these only by chance.
// Anything else is "not judged: other activity on the wallet" (P-MONEY-1), never a failure.
import { createHash } from 'node:crypto';
import { minorUnitOf } from '../../schemas/amounts.js';
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
 * A small payout amount of this run's own, 1 and a fraction in the currency's minor unit (1.37 INR,
 * 1.254 KWD, 7 JPY): two runs at once pay different amounts, so one's debit cannot pass for the other's.
 */
export function ownAmount(ctx: CheckContext, currency: Currency): Decimal {
  const digest = createHash('sha256').update(ctx.ids.nonce()).digest();
  const scale = minorUnitOf(currency);
  if (scale === 0) return { units: BigInt(2 + (digest[0]! % 8)), scale: 0 };
  const fraction = 1 + (digest.readUInt16BE(0) % (10 ** scale - 1));
  const units = 10n ** BigInt(scale) + BigInt(fraction);
  return { units: SANDBOX_OUTCOME_ENDINGS.includes(Number(units % 100n)) ? units + 1n : units, scale };
}

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

/** What sameMiss compares of a try: the balance around it, its own amount and the change expected. */
export type MissShape = Pick<Try, 'amount' | 'expected'> & { before: Pick<Balance, 'balance'>; after: Pick<Balance, 'balance'> };

const change = (t: MissShape): Decimal => decimalMinus(t.before.balance, t.after.balance);
const times = (a: Decimal, b: Decimal): Decimal => ({ units: a.units * b.units, scale: a.scale + b.scale });

/**
 * Two tries, each with its own amount, missed the same way: the same multiple of it, the same amount
 * off, or the same change. Exported for the model's money rule, which confirms a miss by this rule too.
 */
export function sameMiss(a: MissShape, b: MissShape): boolean {
  if (decimalEquals(a.amount, b.amount)) return false;
  const sameMultiple = decimalEquals(times(change(a), b.amount), times(change(b), a.amount));
  const sameError = decimalEquals(decimalMinus(change(a), a.expected), decimalMinus(change(b), b.expected));
  // The same amount off the payout's own amount: a refused payout (expected 0) debited anyway with a fee on top.
  const sameFeeOnAmount = decimalEquals(decimalMinus(change(a), a.amount), decimalMinus(change(b), b.amount));
  return sameMultiple || sameError || sameFeeOnAmount || decimalEquals(change(a), change(b));
}

export const MAX_TRIES = 3;

/**
 * Runs `attempt` (one payout of the run's own, settled) up to MAX_TRIES times between balance reads
 * of `wallet` (the merchant's own unless named).
 * Returns the first try whose change is exactly the expected one; throws a CheckFailure when two tries
 * missed the same way, and a CheckSkipped ("not judged: other activity on the wallet") otherwise.
 */
export async function balanceChange(
  ctx: CheckContext,
  rule: string,
  attempt: (before: Balance, tryNumber: number) => Promise<{ amount: Decimal; expected: Decimal } | { unusable: string }>,
  wallet: WalletRef = {},
): Promise<Try> {
  const tries: Try[] = [];
  let unusable: string | undefined;
  for (let n = 1; n <= MAX_TRIES; n++) {
    const suffix = n === 1 ? '' : ` (try ${n})`;
    const before = await readBalance(ctx, `balance before the payout${suffix}`, wallet);
    const outcome = await attempt(before, n);
    // A payout that did not end as the rule needs (a bank that refused this amount): another amount, another try.
    if ('unusable' in outcome) {
      unusable = outcome.unusable;
      continue;
    }
    const { amount, expected } = outcome;
    const after = await readBalance(ctx, `balance after the payout${suffix}`, wallet);
    const t: Try = { before, after, amount, expected };
    if (decimalEquals(change(t), expected)) return t;
    const reproduced = tries.find((earlier) => sameMiss(earlier, t));
    tries.push(t);
    if (reproduced !== undefined) {
      throw new CheckFailure(`${describe(t)}; an earlier try with another amount missed the same way (${rule})`, {
        expected: `balance ${decimalText(decimalMinus(t.before.balance, t.expected))}`,
        actual: `${answered(t.after.exchange)}; tries: ${tries.map(describe).join('; ')}`,
        exchange: t.after.exchange,
      });
    }
  }
  if (tries.length === 0)
    throw new CheckSkipped(`${unusable ?? 'no try could be made'} (on each of ${MAX_TRIES} tries, each with another amount)`);
  throw new CheckSkipped(
    `not judged: other activity on the wallet: the balance moved by amounts this run's own payouts do not explain, differently on each of ${tries.length} tries ` +
      `(${tries.map(describe).join('; ')}), so ${rule} could not be judged (P-MONEY-1)`,
  );
}

function describe(t: Try): string {
  return `a payout of ${decimalText(t.amount)} moved the balance from ${decimalText(t.before.balance)} to ${decimalText(t.after.balance)} (expected ${decimalText(decimalMinus(t.before.balance, t.expected))})`;
}
