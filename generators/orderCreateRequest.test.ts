import fc from 'fast-check';
import { localeById } from './_internal/seededFaker.js';
import { describe, expect, it } from 'vitest';
import { describeErrors, validateSchema } from '../schemas/index.js';
import { decimalMinus, decimalOf, minorUnitOf, normalized, requestAmount } from '../schemas/amounts.js';
import { CURRENCIES, type OrderCreateRequest, type RequestAmount } from '../schemas/types.js';
import { GeneratorConstraintError } from './_internal/constraints.js';
import { orderCreateRequest, type OrderCreateRequestConstraints } from './orderCreateRequest.js';

function assertSchemaValid(order: OrderCreateRequest): void {
  const result = validateSchema('order-create-request', order);
  if (!result.valid) throw new Error(`${describeErrors(result.errors)}\nin ${JSON.stringify(order)}`);
}

/** The amount's value below `max`, compared exactly (P-AMOUNT-3: by value, whatever the form). */
function below(amount: RequestAmount, max: number): boolean {
  const value = requestAmount(amount);
  return value !== undefined && value.units > 0n && decimalMinus(value, decimalOf(max)!).units < 0n;
}

describe('orderCreateRequest (P-ORDER-1, P-ORDER-4)', () => {
  it('every value satisfies the order-create-request schema', () => {
    fc.assert(fc.property(orderCreateRequest(), assertSchemaValid), { numRuns: 200 });
  });

  it("amounts are > 0, below maxAmount, within the currency's minor unit, as numbers and as strings (P-AMOUNT)", () => {
    const forms = new Set<string>();
    fc.assert(
      fc.property(orderCreateRequest({ maxAmount: 5_000 }), ({ order_amount, order_currency }) => {
        forms.add(typeof order_amount);
        expect(below(order_amount, 5_000), JSON.stringify(order_amount)).toBe(true);
        expect(normalized(requestAmount(order_amount)!).scale).toBeLessThanOrEqual(minorUnitOf(order_currency));
      }),
      { numRuns: 200 },
    );
    expect([...forms].sort()).toEqual(['number', 'string']);
  });

  it('amountForm picks one form', () => {
    for (const form of ['number', 'string'] as const) {
      const orders = fc.sample(orderCreateRequest({ amountForm: form }), { seed: 5, numRuns: 50 });
      expect(new Set(orders.map((o) => typeof o.order_amount))).toEqual(new Set([form]));
    }
    expect(() => orderCreateRequest({ amountForm: 'text' as never })).toThrow(/amountForm must be one of/);
  });

  it('ids, phones and URLs have realistic shapes', () => {
    fc.assert(
      fc.property(orderCreateRequest(), (order) => {
        if (typeof order.order_id === 'number') {
          expect(Number.isSafeInteger(order.order_id) && order.order_id > 0).toBe(true);
        } else {
          expect(order.order_id).toMatch(/^[A-Za-z0-9-]+$/);
        }
        expect(order.customer.phone).toMatch(/^\+?\d{5,16}$/);
        expect(order.return_url).toMatch(/^https:\/\/[a-z0-9.-]+\/[^?]+\?[^?]+$/);
        expect(order.service_type).toBe('payment');
      }),
      { numRuns: 200 },
    );
  });

  it('honours its constraints', () => {
    const constraints: OrderCreateRequestConstraints = {
      currencies: ['JPY', 'EUR'],
      maxAmount: 250,
      serviceTypes: ['payment', 'subscription'],
      orderIdPrefix: 'RUN7',
    };
    fc.assert(
      fc.property(orderCreateRequest(constraints), (order) => {
        assertSchemaValid(order);
        expect(['JPY', 'EUR']).toContain(order.order_currency);
        expect(below(order.order_amount, 250)).toBe(true);
        expect(['payment', 'subscription']).toContain(order.service_type);
        expect(String(order.order_id)).toMatch(/^RUN7-/);
      }),
      { numRuns: 100 },
    );
    for (const order of fc.sample(orderCreateRequest({ orderIdKind: 'integer' }), { seed: 3, numRuns: 50 }))
      expect(typeof order.order_id).toBe('number');
    for (const order of fc.sample(orderCreateRequest({ orderIdKind: 'string' }), { seed: 3, numRuns: 50 }))
      expect(typeof order.order_id).toBe('string');
  });

  it('reaches every currency, both order_id kinds, optional fields present and absent, non-ASCII names and P-SIGN-5 characters', () => {
    const orders = fc.sample(orderCreateRequest(), { seed: 42, numRuns: 1_000 });
    expect(new Set(orders.map((o) => o.order_currency))).toEqual(new Set(CURRENCIES));
    expect(new Set(orders.map((o) => typeof o.order_id))).toEqual(new Set(['number', 'string']));
    expect(orders.some((o) => typeof o.order_id === 'string' && /^[A-Z]+-\d{4}-\d{5}$/.test(o.order_id))).toBe(true);
    expect(orders.some((o) => typeof o.order_id === 'string' && /^[A-Za-z0-9]+$/.test(o.order_id))).toBe(true);
    expect(new Set(orders.map((o) => 'order_note' in o))).toEqual(new Set([true, false]));
    expect(new Set(orders.map((o) => 'line2' in o.customer.address))).toEqual(new Set([true, false]));
    expect(new Set(orders.map((o) => o.customer.phone.startsWith('+')))).toEqual(new Set([true, false]));
    const names = orders.map((o) => o.customer.name);
    expect(names.some((n) => /[À-ž]/.test(n))).toBe(true); // Latin with diacritics (José Müller)
    expect(names.some((n) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(n))).toBe(true); // CJK
    expect(names.some((n) => /[\uac00-\ud7af]/.test(n))).toBe(true); // Hangul
    expect(names.some((n) => /[\u0600-\u06ff]/.test(n))).toBe(true); // Arabic
    const notes = orders.flatMap((o) => (o.order_note === undefined ? [] : [o.order_note]));
    for (const mark of ['&', '<', '>', '/', '"']) expect(notes.some((n) => n.includes(mark))).toBe(true);
    expect(notes.some((n) => /\p{Extended_Pictographic}/u.test(n))).toBe(true);
    expect(orders.some((o) => new URL(o.return_url).search.includes('&'))).toBe(true);
  });

  it('is deterministic for a seed, whatever faker was used for in between', () => {
    const first = fc.sample(orderCreateRequest(), { seed: 42, numRuns: 20 });
    localeById('de').faker.seed(999);
    localeById('de').faker.person.fullName();
    const second = fc.sample(orderCreateRequest(), { seed: 42, numRuns: 20 });
    expect(second).toEqual(first);
    expect(fc.sample(orderCreateRequest(), { seed: 43, numRuns: 20 })).not.toEqual(first);
  });

  it.each<[string, OrderCreateRequestConstraints]>([
    ['empty currencies', { currencies: [] }],
    ['unknown currency', { currencies: ['INR', 'XYZ'] as never }],
    ['lower-case currency', { currencies: ['inr'] as never }],
    ['unknown orderIdKind', { orderIdKind: 'uuid' as never }],
    ['maxAmount 0', { maxAmount: 0 }],
    ['maxAmount NaN', { maxAmount: Number.NaN }],
    ['maxAmount Infinity', { maxAmount: Number.POSITIVE_INFINITY }],
    ['empty serviceTypes', { serviceTypes: [] }],
    ['empty service type', { serviceTypes: [''] }],
    ['non-ASCII prefix', { orderIdPrefix: 'BESTELLUNG-Ü' }],
    ['prefix with integer ids', { orderIdPrefix: 'RUN', orderIdKind: 'integer' }],
  ])('rejects bad constraints when built: %s', (_, constraints) => {
    expect(() => orderCreateRequest(constraints)).toThrow(/^orderCreateRequest: /);
    expect(() => orderCreateRequest(constraints)).toThrow(GeneratorConstraintError);
  });
});
