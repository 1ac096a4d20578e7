import { describe, expect, it } from 'vitest';
import { decimalEquals, decimalFromText, decimalOf, decimalText, minorUnitOf, requestAmount, toMinorUnits } from './amounts.js';
import { validateSchema } from './index.js';

const ORDER = {
  order_id: 'ORD-1',
  order_currency: 'INR',
  service_type: 'payment',
  return_url: 'https://m.example/r',
  customer: {
    name: 'A',
    email: 'a@example.com',
    phone: '1',
    address: { line1: 'x', city: 'x', state: 'x', country: 'IN', postal_code: '1' },
  },
};

describe('P-AMOUNT-1: what a well-formed request amount is', () => {
  const wellFormed: unknown[] = [150, 1499.5, 0.01, 1e21, '150.00', '1499.5', '500', '0.01', '007', '12.345'];
  const malformed: unknown[] = [
    0,
    -5,
    -0.01,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '0',
    '0.00',
    '-5',
    '1e3',
    '',
    ' 150',
    '150 ',
    '+150',
    '.5',
    '150.',
    '1,000.00',
    '150,50',
    '0x10',
    '١٥٠',
    'abc',
    'NaN',
    null,
    true,
    [150],
    { amount: 150 },
  ];

  it.each(wellFormed.map((v) => [JSON.stringify(v), v]))('%s is an amount, for the code and for the request schemas alike', (_, value) => {
    expect(requestAmount(value)).toBeDefined();
    expect(validateSchema('order-create-request', { ...ORDER, order_amount: value }).valid).toBe(true);
  });

  it.each(malformed.map((v) => [JSON.stringify(v) ?? String(v), v]))(
    '%s is not, for the code and for the request schemas alike',
    (_, value) => {
      expect(requestAmount(value)).toBeUndefined();
      // NaN and Infinity have no JSON text: a request cannot carry them, so only the code is asked.
      if (typeof value !== 'number' || Number.isFinite(value)) {
        expect(validateSchema('order-create-request', { ...ORDER, order_amount: value }).valid).toBe(false);
      }
    },
  );
});

describe('P-AMOUNT-3: amounts compare by value', () => {
  it('"150", "150.0", "150.00" and 150 are one amount; "150.01" is another', () => {
    const [a, b, c, d] = ['150', '150.0', '150.00', 150].map((v) => requestAmount(v)!);
    expect(decimalEquals(a!, b!) && decimalEquals(b!, c!) && decimalEquals(c!, d!)).toBe(true);
    expect(decimalEquals(a!, requestAmount('150.01')!)).toBe(false);
  });

  it('reads JSON number text with exponents exactly', () => {
    expect(decimalFromText('1e+21')).toEqual({ units: 10n ** 21n, scale: 0 });
    expect(decimalText(decimalFromText('5e-7')!)).toBe('0.0000005');
    expect(decimalOf(1e21)).toEqual({ units: 10n ** 21n, scale: 0 });
  });
});

describe('P-AMOUNT-2: minor units', () => {
  it('knows the currencies with no and with three decimals', () => {
    expect([
      minorUnitOf('JPY'),
      minorUnitOf('KRW'),
      minorUnitOf('KWD'),
      minorUnitOf('BHD'),
      minorUnitOf('OMR'),
      minorUnitOf('INR'),
    ]).toEqual([0, 0, 3, 3, 3, 2]);
  });

  it.each([
    ['150.5', 'INR', 15050n],
    ['150.000', 'INR', 15000n],
    ['12.345', 'KWD', 12345n],
    ['250', 'JPY', 250n],
    ['250.00', 'JPY', 250n],
    ['10.005', 'INR', undefined],
    ['250.5', 'JPY', undefined],
  ] as const)('%s %s is %s minor units', (text, currency, minor) => {
    expect(toMinorUnits(requestAmount(text)!, currency)).toBe(minor);
  });
});
