import { describe, expect, it } from 'vitest';
import { envelopeProblems, getPath, headerIsNot, isJsonContentType, setPath, withPath } from './predicates.js';

describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON;charset=UTF-8', true],
    ['application/json-patch+json', false],
    ['text/json', false],
    ['text/html', false],
    ['', false],
    [undefined, false],
  ])('%j → %s', (value, expected) => expect(isJsonContentType(value)).toBe(expected));
});

describe('headerIsNot', () => {
  it('says a missing header is missing, not null, and quotes one that is there', () => {
    expect(headerIsNot('Accept', undefined, 'application/json')).toBe('no Accept header (application/json wanted)');
    expect(headerIsNot('Accept', '', 'application/json')).toBe('Accept is "", not application/json');
    expect(headerIsNot('Content-Type', 'text/plain', 'application/json')).toBe('Content-Type is "text/plain", not application/json');
  });
});

describe('envelopeProblems', () => {
  it('accepts the general error envelope and names each slip', () => {
    expect(envelopeProblems({ status: false, code: 404, message: 'not found' })).toEqual([]);
    expect(envelopeProblems(undefined)).toEqual(['the body is not JSON']);
    expect(envelopeProblems([1])).toEqual(['the body is not a JSON object']);
    expect(envelopeProblems({ status: 'false', code: '404', message: '' })).toEqual([
      'status is "false", not false',
      'code is "404", not an integer',
      'message is "", not a non-empty string',
    ]);
  });
});

describe('dotted paths', () => {
  const body = { customer: { address: { city: 'Pune' } }, amount: 1 };
  it('reads, and is undefined where the path leaves the object', () => {
    expect(getPath(body, 'customer.address.city')).toBe('Pune');
    expect(getPath(body, 'customer.phone.number')).toBeUndefined();
    expect(getPath(body, 'amount.value')).toBeUndefined();
  });
  it('sets in place, making the objects on the way', () => {
    const target: Record<string, unknown> = {};
    setPath(target, 'merchant.apiKey', 'k');
    expect(target).toEqual({ merchant: { apiKey: 'k' } });
  });
  it('copies with a value set or removed, leaving the original alone', () => {
    expect(withPath(body, 'customer.address.city', 'Goa')).toEqual({ customer: { address: { city: 'Goa' } }, amount: 1 });
    expect(withPath(body, 'customer.address.city', undefined)).toEqual({ customer: { address: {} }, amount: 1 });
    expect(withPath(body, 'amount', undefined)).toEqual({ customer: { address: { city: 'Pune' } } });
    expect(body.customer.address.city).toBe('Pune');
  });
});
