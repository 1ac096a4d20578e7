import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalMinus, decimalOf, minorUnitOf, normalized, requestAmount } from '../../schemas/amounts.js';
import { CURRENCIES, type RequestAmount } from '../../schemas/types.js';
import { amountIn, type AmountForm } from './amounts.js';

/** Whether a generated amount is well-formed (P-AMOUNT-1), above zero, below `max` and within the minor unit. */
function fits(amount: RequestAmount, currency: (typeof CURRENCIES)[number], max: number): string | undefined {
  const value = requestAmount(amount);
  if (value === undefined) return `${JSON.stringify(amount)} is not a well-formed amount`;
  if (value.units <= 0n) return `${JSON.stringify(amount)} is not above zero`;
  if (decimalMinus(value, decimalOf(max)!).units >= 0n) return `${JSON.stringify(amount)} is not below ${max}`;
  if (normalized(value).scale > minorUnitOf(currency)) return `${JSON.stringify(amount)} has more decimals than ${currency}'s minor unit`;
  if (typeof amount === 'string' && (amount.split('.')[1] ?? '').length > minorUnitOf(currency))
    return `${JSON.stringify(amount)} is written with more decimals than ${currency} has`;
  return undefined;
}

describe('amountIn (P-AMOUNT-1, P-AMOUNT-2)', () => {
  it.each<[AmountForm, readonly string[]]>([
    ['number', ['number']],
    ['string', ['string']],
    ['both', ['number', 'string']],
  ])('form %s: every amount is well-formed, in (0, max), within the minor unit; forms drawn: %j', (form, forms) => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        fc
          .constantFrom(...CURRENCIES)
          .chain((c) => fc.tuple(fc.constant(c), fc.constantFrom(2, 999.5, 1e6, 1e12)))
          .chain(([c, max]) => fc.tuple(fc.constant(c), fc.constant(max), amountIn(c, max, form))),
        ([currency, max, amount]) => {
          seen.add(typeof amount);
          expect(fits(amount, currency, max)).toBeUndefined();
        },
      ),
      { numRuns: 500 },
    );
    expect([...seen].sort()).toEqual([...forms]);
  });

  it('writes strings as payment code does: with every decimal ("150.00") and without trailing zeros ("150.5")', () => {
    const texts = fc.sample(amountIn('INR', 1e6, 'string'), { seed: 7, numRuns: 400 }) as string[];
    expect(texts.some((t) => /\.\d\d$/.test(t) && t.endsWith('0'))).toBe(true);
    expect(texts.some((t) => !t.includes('.'))).toBe(true);
    expect(texts.some((t) => /\.\d$/.test(t))).toBe(true);
  });

  it('uses three decimals for KWD, BHD and OMR and none for JPY and KRW', () => {
    for (const [currency, digits] of [
      ['KWD', 3],
      ['BHD', 3],
      ['OMR', 3],
      ['JPY', 0],
      ['KRW', 0],
    ] as const) {
      const scales = fc
        .sample(amountIn(currency, 1e6, 'string'), { seed: 3, numRuns: 300 })
        .map((a) => (String(a).split('.')[1] ?? '').length);
      expect(Math.max(...scales), currency).toBe(digits);
    }
  });
});
