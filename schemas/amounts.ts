// Amounts (P-AMOUNT): a well-formed request amount, each currency's minor unit, and exact decimals,
// so amounts are compared by value, never as text or floats. Code reads amounts here, not by schema.
import type { Currency } from './types.js';

/** An exact decimal, value = units / 10^scale. */
export interface Decimal {
  units: bigint;
  scale: number;
}

/** P-AMOUNT-1's decimal string, greater than zero: the lookahead wants a non-zero digit ("0.00" is none). */
const AMOUNT_TEXT = /^(?=[0-9.]*[1-9])[0-9]+(\.[0-9]+)?$/;

/** ISO 4217 minor units of the interface's currencies that do not use two decimals (P-AMOUNT-2). */
const MINOR_UNITS: Partial<Record<Currency, 0 | 3>> = { JPY: 0, KRW: 0, KWD: 3, BHD: 3, OMR: 3 };

/** How many decimals the currency's minor unit has: 0 for JPY and KRW, 3 for KWD, BHD, OMR, else 2. */
export function minorUnitOf(currency: Currency): 0 | 2 | 3 {
  return MINOR_UNITS[currency] ?? 2;
}

/** A signed decimal written as JSON writes numbers, with or without an exponent ("150.5", "-3",
 *  "1e+21", "5e-7"); undefined for anything else. Exact: no binary floating point is involved. */
export function decimalFromText(text: string): Decimal | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) return undefined;
  const fraction = match[3] ?? '';
  let units = BigInt(match[2]! + fraction);
  let scale = fraction.length - Number(match[4] ?? 0);
  if (!Number.isSafeInteger(scale) || Math.abs(scale) > 400) return undefined;
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: match[1] === '-' ? -units : units, scale };
}

/** Decimal text such as "1500.00" or "-3.5", or a finite JSON number; undefined for anything else. */
export function decimalOf(value: unknown): Decimal | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? decimalFromText(String(value)) : undefined;
  if (typeof value !== 'string' || /[eE]/.test(value)) return undefined;
  return decimalFromText(value);
}

/** The amount of a request when it is well-formed by P-AMOUNT-1 (a JSON number greater than zero, or a
 *  decimal string greater than zero), else undefined. "1e3" as a string, "-5", "" and "abc" are not. */
export function requestAmount(value: unknown): Decimal | undefined {
  if (typeof value === 'number') return value > 0 ? decimalOf(value) : undefined;
  if (typeof value === 'string' && AMOUNT_TEXT.test(value)) return decimalFromText(value);
  return undefined;
}

/** The same value with trailing zeros of the fraction removed: 150.00 → 150. */
export function normalized(d: Decimal): Decimal {
  let { units, scale } = d;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  return { units, scale };
}

function unitsAt(d: Decimal, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale);
}

export function decimalMinus(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: unitsAt(a, scale) - unitsAt(b, scale), scale };
}

export function decimalPlus(a: Decimal, b: Decimal): Decimal {
  return decimalMinus(a, { units: -b.units, scale: b.scale });
}

/** Equal by value (P-AMOUNT-3): "150", "150.0" and "150.00" are the same amount. */
export function decimalEquals(a: Decimal, b: Decimal): boolean {
  return decimalMinus(a, b).units === 0n;
}

/** Decimal text with exactly `scale` decimals when given, else the decimal's own. */
export function decimalText(d: Decimal, scale = d.scale): string {
  const at = scale >= d.scale ? { units: unitsAt(d, scale), scale } : d;
  const digits = (at.units < 0n ? -at.units : at.units).toString().padStart(at.scale + 1, '0');
  const whole = at.scale === 0 ? digits : `${digits.slice(0, -at.scale)}.${digits.slice(-at.scale)}`;
  return at.units < 0n ? `-${whole}` : whole;
}

/** The amount in the currency's minor units (P-AMOUNT-2), undefined with more significant decimals
 *  than the minor unit (trailing zeros are notation: "150.000" INR is 15000 paise). */
export function toMinorUnits(d: Decimal, currency: Currency): bigint | undefined {
  const digits = minorUnitOf(currency);
  const n = normalized(d);
  if (n.scale > digits) return undefined;
  return unitsAt(n, digits);
}
