// The observers (P-ERR-1, P-ERR-2, P-ERR-3) on every exchange of every check: each finding made for
// the answer that breaks its rule and for no other, each condition broken alone.
import { describe, expect, it } from 'vitest';
import { exchangeOf, madeUpConfig, type Reply } from './checks/made-up-server-test-support.js';
import { observe } from './observers.js';

const config = madeUpConfig();
const seen = (reply: Reply) =>
  observe(exchangeOf(config, { label: 'the probe', path: '/api/v1/orders', payload: {} }, reply)).map(
    (f) => `${f.requirement}: ${f.message}`,
  );
const error = (status: number, contentType?: string): Reply => ({
  status,
  json: { status: false, code: status, message: 'no' },
  ...(contentType !== undefined ? { contentType } : {}),
});

describe('observe', () => {
  it('finds nothing in a correct answer, or in no answer', () => {
    expect(seen(error(404))).toEqual([]);
    expect(seen({ status: 200, json: { status: true, code: 200, message: 'ok', data: {} } })).toEqual([]);
    expect(seen('no answer')).toEqual([]);
  });

  it('ERR-CONTENT-TYPE: an answer not labelled application/json, naming the type or none', () => {
    expect(seen(error(404, 'text/plain'))).toEqual([
      'ERR-CONTENT-TYPE: POST /api/v1/orders (the probe) answered Content-Type "text/plain", not application/json',
    ]);
    expect(seen(error(404, ''))).toEqual([
      'ERR-CONTENT-TYPE: POST /api/v1/orders (the probe) answered Content-Type none, not application/json',
    ]);
    expect(seen(error(404, 'application/json; charset=utf-8'))).toEqual([]);
  });

  it('ERR-NO-5XX: from 500 up', () => {
    expect(seen(error(499))).toEqual([]);
    expect(seen(error(500))).toEqual(['ERR-NO-5XX: POST /api/v1/orders (the probe) answered HTTP 500']);
  });

  it('ERR-ENVELOPE: from 300 up, each problem named', () => {
    const bare = (status: number): Reply => ({ status, json: { error: 'no' } });
    expect(seen(bare(299))).toEqual([]);
    expect(seen(bare(300))).toEqual([
      'ERR-ENVELOPE: POST /api/v1/orders (the probe) answered HTTP 300 with status is undefined, not false; code is undefined, not an integer; message is undefined, not a non-empty string',
    ]);
    expect(seen({ status: 400, text: 'Bad Request' })).toEqual([
      'ERR-ENVELOPE: POST /api/v1/orders (the probe) answered HTTP 400 with the body is not JSON',
    ]);
  });

  it.each([
    ['an integer code of another status', { status: false, code: 400, message: 'no' }, 404, true],
    ['the integer code of its status', { status: false, code: 404, message: 'no' }, 404, false],
    ['a create-order envelope whose text code is another status', { status: 'success', code: '200', return_data: {} }, 201, true],
    ['a create-order envelope whose text code is its status', { status: 'success', code: '201', return_data: {} }, 201, false],
    // The code's type is ERR-ENVELOPE's (and ORDER-ENVELOPE's) to judge, not a second finding here.
    ['a general envelope with a text code', { status: true, code: '200', message: 'ok', data: {} }, 201, false],
    ['a create-order envelope with an integer code', { status: 'success', code: 200, return_data: {} }, 201, false],
    ['an envelope whose status is neither a boolean nor "success"', { status: 'ok', code: 200, message: 'ok' }, 201, false],
    ['no code', { status: true, message: 'ok', data: {} }, 201, false],
  ])('ERR-CODE-MATCHES-STATUS: %s', (_, json, status, found) => {
    const findings = seen({ status, json }).filter((f) => f.startsWith('ERR-CODE-MATCHES-STATUS'));
    expect(findings).toEqual(
      found
        ? [
            `ERR-CODE-MATCHES-STATUS: POST /api/v1/orders (the probe) answered HTTP ${status} with code ${JSON.stringify((json as { code?: unknown }).code)}`,
          ]
        : [],
    );
  });

  it('reads no code from a body that is not an object', () => {
    expect(seen({ status: 200, json: [{ status: true, code: 500 }] })).toEqual([]);
    expect(seen({ status: 200, json: null })).toEqual([]);
  });
});
