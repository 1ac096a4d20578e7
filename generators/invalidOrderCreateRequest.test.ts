import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestAmount } from '../schemas/amounts.js';
import { CURRENCIES } from '../schemas/types.js';
import { extraChangeProblem, labelledReasonProblem } from './_internal/defect-test-support.js';
import { applicableDefects, invalidVariantsOf } from './_internal/mutations.js';
import { invalidOrderCreateRequest, ORDER_CREATE_SHAPE, type InvalidOrderCreateRequestConstraints } from './invalidRequests.js';
import { DEFECT_KINDS } from './invalidRequest.js';
import { orderCreateRequest } from './orderCreateRequest.js';

const REQUIRED_FIELDS = [
  'order_id',
  'order_amount',
  'order_currency',
  'service_type',
  'return_url',
  'customer',
  'customer.name',
  'customer.email',
  'customer.phone',
  'customer.address',
  'customer.address.line1',
  'customer.address.city',
  'customer.address.state',
  'customer.address.country',
  'customer.address.postal_code',
];

describe('invalidOrderCreateRequest (P-ERR-4, P-ORDER-1)', () => {
  it('each mutation breaks the schema for its labelled reason and changes only what its label says', () => {
    const pairs = orderCreateRequest().chain((order) =>
      invalidVariantsOf(order, ORDER_CREATE_SHAPE, applicableDefects(ORDER_CREATE_SHAPE)).map((mutant) => ({ order, mutant })),
    );
    fc.assert(
      fc.property(pairs, ({ order, mutant }) => {
        expect(labelledReasonProblem(mutant, 'order-create-request')).toBeUndefined();
        expect(extraChangeProblem(order, mutant)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('labels each defect with the statuses of P-ERR-4 and never plants a well-formed amount (P-AMOUNT-1) as the defect', () => {
    fc.assert(
      fc.property(invalidOrderCreateRequest(), (request) => {
        expect(labelledReasonProblem(request, 'order-create-request')).toBeUndefined();
        const lenient =
          ['bad-amount', 'unknown-currency'].includes(request.defect) ||
          (['null-field', 'wrong-type'].includes(request.defect) && ['order_amount', 'order_currency'].includes(request.field ?? ''));
        expect(request.expectedStatuses).toEqual(lenient ? [400, 422] : [400]);
        expect(request.description.length).toBeGreaterThan(10);
        if (request.field !== undefined) expect(request.description).toContain(request.field);
        if (request.body.kind === 'json' && request.field === 'order_amount') {
          const amount = (request.body.value as { order_amount?: unknown }).order_amount;
          expect(requestAmount(amount), JSON.stringify(amount)).toBeUndefined();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reaches every defect kind, every required field, every invalid-JSON form and both unknown-currency forms', () => {
    const requests = fc.sample(invalidOrderCreateRequest(), { seed: 42, numRuns: 1_500 });
    const kinds = new Set(requests.map((r) => r.defect));
    expect(kinds).toEqual(new Set(DEFECT_KINDS.filter((kind) => kind !== 'unknown-transfer-mode')));
    for (const defect of ['missing-field', 'null-field', 'wrong-type'] as const) {
      expect(new Set(requests.filter((r) => r.defect === defect).map((r) => r.field))).toEqual(new Set(REQUIRED_FIELDS));
    }
    const jsonForms = requests.filter((r) => r.defect === 'invalid-json').map((r) => r.description);
    for (const form of ['truncated', 'trailing comma', 'single quotes', 'unquoted', 'NaN', 'comment']) {
      expect(jsonForms.some((d) => d.includes(form))).toBe(true);
    }
    const codes = requests.flatMap((r) =>
      r.defect === 'unknown-currency' && r.body.kind === 'json' ? [(r.body.value as { order_currency: string }).order_currency] : [],
    );
    expect(codes.some((code) => (CURRENCIES as readonly string[]).includes(code.toUpperCase()) && code !== code.toUpperCase())).toBe(true);
    expect(codes.some((code) => /^[A-Z]{3}$/.test(code))).toBe(true);
    const amounts = requests.flatMap((r) =>
      r.defect === 'bad-amount' && r.body.kind === 'json' ? [(r.body.value as { order_amount: unknown }).order_amount] : [],
    );
    for (const bad of ['abc', '-5', '1e3', '', '0.00', '1,000.00', 'NaN', 'Infinity', 0]) expect(amounts).toContain(bad);
    expect(amounts.some((a) => typeof a === 'number' && a < 0)).toBe(true);
  });

  it('draws only the requested defects and honours the order constraints', () => {
    const requests = fc.sample(invalidOrderCreateRequest({ defects: ['unknown-currency'], currencies: ['INR'], orderIdKind: 'integer' }), {
      seed: 7,
      numRuns: 100,
    });
    for (const request of requests) {
      expect(request.defect).toBe('unknown-currency');
      expect(typeof (request.body as { value: { order_id: unknown } }).value.order_id).toBe('number');
    }
    expect(requests.some((r) => (r.body as { value: { order_currency: string } }).value.order_currency === 'inr')).toBe(true);
  });

  it('is deterministic for a seed', () => {
    expect(fc.sample(invalidOrderCreateRequest(), { seed: 42, numRuns: 20 })).toEqual(
      fc.sample(invalidOrderCreateRequest(), { seed: 42, numRuns: 20 }),
    );
  });

  it.each<[string, InvalidOrderCreateRequestConstraints]>([
    ['empty defects', { defects: [] }],
    ['defect that does not apply', { defects: ['unknown-transfer-mode'] }],
    ['unknown defect', { defects: ['bad-signature' as never] }],
    ['bad order constraint', { currencies: [] }],
  ])('rejects bad constraints when built: %s', (_, constraints) => {
    expect(() => invalidOrderCreateRequest(constraints)).toThrow(/^invalidOrderCreateRequest: /);
  });
});
