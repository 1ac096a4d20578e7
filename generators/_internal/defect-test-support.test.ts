// The checkers the generator properties rely on must themselves catch wrong labels and extra changes.
import { describe, expect, it } from 'vitest';
import type { InvalidRequest } from '../invalidRequest.js';
import { extraChangeProblem, labelledReasonProblem } from './defect-test-support.js';

const order = {
  order_id: 'ORD-2026-00042',
  order_amount: 100.5,
  order_currency: 'INR',
  service_type: 'payment',
  customer: {
    name: 'José Müller',
    email: 'jose@example.com',
    phone: '+919876543210',
    address: { line1: 'MG Road 1', city: 'Pune', state: 'MH', country: 'IN', postal_code: '411001' },
  },
  return_url: 'https://shop.example/return?a=1&b=2',
};

function withCity(city: unknown): unknown {
  return { ...order, customer: { ...order.customer, address: { ...order.customer.address, city } } };
}

function request(defect: InvalidRequest['defect'], field: string | undefined, value: unknown): InvalidRequest {
  return { defect, ...(field === undefined ? {} : { field }), description: 'test', expectedStatuses: [400], body: { kind: 'json', value } };
}

describe('labelledReasonProblem', () => {
  it('accepts a defect the schema reports at the labelled place', () => {
    const { city: _, ...address } = order.customer.address;
    expect(
      labelledReasonProblem(
        request('missing-field', 'customer.address.city', { ...order, customer: { ...order.customer, address } }),
        'order-create-request',
      ),
    ).toBeUndefined();
    expect(labelledReasonProblem(request('null-field', 'customer.address.city', withCity(null)), 'order-create-request')).toBeUndefined();
    expect(labelledReasonProblem(request('top-level-scalar', undefined, 'text'), 'order-create-request')).toBeUndefined();
  });

  it('flags a body that is valid, or invalid for another reason than its label', () => {
    expect(labelledReasonProblem(request('null-field', 'customer.address.city', order), 'order-create-request')).toMatch(/satisfies/);
    expect(labelledReasonProblem(request('null-field', 'customer.address.state', withCity(null)), 'order-create-request')).toMatch(
      /no schema error/,
    );
    expect(
      labelledReasonProblem(request('unknown-currency', 'order_currency', { ...order, order_amount: 0 }), 'order-create-request'),
    ).toMatch(/no schema error/);
    expect(
      labelledReasonProblem({ ...request('invalid-json', undefined, null), body: { kind: 'text', text: '{}' } }, 'order-create-request'),
    ).toMatch(/parses/);
  });
});

describe('extraChangeProblem', () => {
  it('accepts a change of the labelled field only', () => {
    expect(extraChangeProblem(order, request('wrong-type', 'customer.address.city', withCity(42)))).toBeUndefined();
  });

  it('flags a change elsewhere, an unchanged field, or a field that should be gone', () => {
    const twoChanges = { ...(withCity(42) as object), service_type: 'other' };
    expect(extraChangeProblem(order, request('wrong-type', 'customer.address.city', twoChanges))).toMatch(/changed more/);
    expect(extraChangeProblem(order, request('wrong-type', 'customer.address.city', order))).toMatch(/unchanged/);
    expect(extraChangeProblem(order, request('missing-field', 'customer.address.city', order))).toMatch(/still present/);
  });
});
