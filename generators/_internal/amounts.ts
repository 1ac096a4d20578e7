// Amounts as a merchant would send them: > 0, at most two decimals (whole units for currencies
// without minor units), below a maximum, and spread over magnitudes rather than clustered near it.
import fc from 'fast-check';
import type { Currency } from '../../schemas/types.js';

/** ISO 4217 currencies of the table with no minor unit. */
export const ZERO_DECIMAL_CURRENCIES: readonly Currency[] = ['JPY', 'KRW'];

export function decimalsOf(currency: Currency): 0 | 2 {
  return ZERO_DECIMAL_CURRENCIES.includes(currency) ? 0 : 2;
}

/**
 * A positive amount strictly below `maxAmount` (which callers check is > 1 and <= 1e12), with the
 * currency's number of decimals. Drawn in integer minor units, then divided once, so the JSON text
 * of the number never shows more decimals than the currency has.
 */
export function amountIn(currency: Currency, maxAmount: number): fc.Arbitrary<number> {
  const scale = decimalsOf(currency) === 0 ? 1 : 100;
  let top = Math.ceil(maxAmount * scale) - 1;
  while (top / scale >= maxAmount) top -= 1;
  const upTo = (limit: number) => fc.bigInt({ min: 1n, max: BigInt(Math.max(1, Math.min(top, limit))) });
  const units = fc.oneof(
    { arbitrary: upTo(1_000 * scale), weight: 3 },
    { arbitrary: upTo(100_000 * scale), weight: 2 },
    { arbitrary: upTo(top), weight: 1 },
    // round figures such as 500 or 1200.00
    { arbitrary: upTo(Math.floor(top / (100 * scale))).map((n) => n * 100n * BigInt(scale)), weight: 1 },
  );
  return units.map((n) => Number(n > BigInt(top) ? BigInt(top) : n) / scale);
}
