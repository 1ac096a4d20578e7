// Amounts as merchants send them (P-AMOUNT-1/2): within the currency's minor unit, spread over
// magnitudes, as a JSON number (1499.5) or a decimal string ("1499.50").
import { fc } from '../../common/fast-check.js';
import { memo } from '../../common/memo.js';
import { decimalText, minorUnitOf } from '../../schemas/amounts.js';
import type { Currency, RequestAmount } from '../../schemas/types.js';

/** Which JSON form amounts take: numbers, decimal strings, or a mix of both. */
export type AmountForm = 'number' | 'string' | 'both';

export const AMOUNT_FORMS: readonly AmountForm[] = ['number', 'string', 'both'];

/** Positive counts of minor units strictly below `maxAmount` (> 1 and <= 1e12, checked by callers). */
function minorUnits(digits: number, maxAmount: number): fc.Arbitrary<bigint> {
  const scale = 10 ** digits;
  let top = Math.ceil(maxAmount * scale) - 1;
  while (top / scale >= maxAmount) top -= 1;
  const upTo = (limit: number) => fc.bigInt({ min: 1n, max: BigInt(Math.max(1, Math.min(top, limit))) });
  const units = fc.oneof(
    { arbitrary: upTo(1_000 * scale), weight: 3 },
    { arbitrary: upTo(100_000 * scale), weight: 2 },
    { arbitrary: upTo(top), weight: 1 },
    { arbitrary: upTo(Math.floor(top / (100 * scale))).map((n) => n * 100n * BigInt(scale)), weight: 1 },
  );
  return units.map((n) => (n > BigInt(top) ? BigInt(top) : n));
}

/** The decimal string of `units` minor units, padded ("150.00") or not ("150.5", "150"): P-AMOUNT-3. */
function amountText(units: bigint, digits: number, padded: boolean): string {
  const text = decimalText({ units, scale: digits });
  return padded || digits === 0 ? text : text.replace(/\.?0+$/, '');
}

// Arbitraries made, by currency, maximum and form: generators ask again for every value drawn, and an
// arbitrary holds no state, so one made earlier draws what a new one would. Cleared past 256.
const madeAmounts = new Map<string, fc.Arbitrary<RequestAmount>>();

/** A positive amount in `currency` strictly below `maxAmount`, as a number, a string, or either. */
export function amountIn(currency: Currency, maxAmount: number, form: AmountForm = 'both'): fc.Arbitrary<RequestAmount> {
  return memo(madeAmounts, `${currency} ${maxAmount} ${form}`, () => {
    if (madeAmounts.size >= 256) madeAmounts.clear();
    const digits = minorUnitOf(currency);
    const asNumber = minorUnits(digits, maxAmount).map((n): RequestAmount => Number(n) / 10 ** digits);
    const asString = fc
      .tuple(minorUnits(digits, maxAmount), fc.boolean())
      .map(([n, padded]): RequestAmount => amountText(n, digits, padded));
    if (form === 'number') return asNumber;
    if (form === 'string') return asString;
    return fc.oneof(asNumber, asString);
  });
}
