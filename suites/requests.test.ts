import { describe, expect, it } from 'vitest';
import { decimalEquals, decimalMinus, decimalOf, decimalText, withoutField } from './requests.js';

describe('exact decimals for amounts and balances', () => {
  it.each([
    ['1500.00', 150000n, 2],
    ['-3.5', -35n, 1],
    ['0', 0n, 0],
    [100.5, 1005n, 1],
    [1, 1n, 0],
  ] as const)('%j is %s at scale %s', (value, units, scale) => {
    expect(decimalOf(value)).toEqual({ units, scale });
  });

  it.each([['1e3'], ['12,5'], [''], ['.5'], ['+1'], [Number.NaN], [null]])('%j is not decimal text', (value) => {
    expect(decimalOf(value)).toBeUndefined();
  });

  it('subtracts and compares across scales, without binary rounding', () => {
    const difference = decimalMinus(decimalOf('1000000.00')!, decimalOf('999999.9')!);
    expect(decimalText(difference)).toBe('0.10');
    expect(decimalEquals(difference, decimalOf(0.1)!)).toBe(true);
    expect(decimalText(decimalMinus(decimalOf('0.05')!, decimalOf(1)!))).toBe('-0.95');
    expect(decimalText(decimalOf('-0.07')!)).toBe('-0.07');
  });
});

describe('withoutField', () => {
  it('removes a nested field from a copy and leaves the original alone', () => {
    const body = { a: 1, customer: { address: { city: 'Kochi', line1: 'x' } } };
    expect(withoutField(body, 'customer.address.city')).toEqual({ a: 1, customer: { address: { line1: 'x' } } });
    expect(body.customer.address.city).toBe('Kochi');
    expect(withoutField(body, 'nowhere.deep')).toEqual(body);
  });
});
