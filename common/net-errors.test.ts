import { errors as undiciErrors } from 'undici';
import { describe, expect, it } from 'vitest';
import { attemptFailureOf } from '../webhooks/delivery.js';
import { describeTransportError } from '../suites/evidence.js';
import { transportFailureOf, type TransportFailure } from './net-errors.js';

const withCode = (code: string) => Object.assign(new Error(`failed: ${code}`), { code });
const wrapped = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: withCode(code) });
const named = (name: string) => Object.assign(new Error(name), { name });

// Every code either caller knew before they shared this rule, and the kind it means.
const TABLE: Array<[string, unknown, TransportFailure]> = [
  ['ECONNREFUSED', withCode('ECONNREFUSED'), { kind: 'refused' }],
  ['ECONNREFUSED as a cause', wrapped('ECONNREFUSED'), { kind: 'refused' }],
  ['ENOTFOUND', withCode('ENOTFOUND'), { kind: 'unresolved' }],
  ['EAI_AGAIN', wrapped('EAI_AGAIN'), { kind: 'unresolved' }],
  ['a TimeoutError (AbortSignal.timeout)', named('TimeoutError'), { kind: 'timeout', wait: 'whole' }],
  ['an AbortError', named('AbortError'), { kind: 'timeout', wait: 'whole' }],
  ["undici's RequestAbortedError", new undiciErrors.RequestAbortedError(), { kind: 'timeout', wait: 'whole' }],
  ['UND_ERR_CONNECT_TIMEOUT', withCode('UND_ERR_CONNECT_TIMEOUT'), { kind: 'timeout', wait: 'connect' }],
  ["undici's ConnectTimeoutError", new undiciErrors.ConnectTimeoutError(), { kind: 'timeout', wait: 'connect' }],
  ['UND_ERR_HEADERS_TIMEOUT', withCode('UND_ERR_HEADERS_TIMEOUT'), { kind: 'timeout', wait: 'headers' }],
  ["undici's HeadersTimeoutError", new undiciErrors.HeadersTimeoutError(), { kind: 'timeout', wait: 'headers' }],
  ['UND_ERR_BODY_TIMEOUT', wrapped('UND_ERR_BODY_TIMEOUT'), { kind: 'timeout', wait: 'body' }],
  ["undici's BodyTimeoutError", new undiciErrors.BodyTimeoutError(), { kind: 'timeout', wait: 'body' }],
  ['ECONNRESET', withCode('ECONNRESET'), { kind: 'reset' }],
  ['UND_ERR_SOCKET', withCode('UND_ERR_SOCKET'), { kind: 'reset' }],
  ["undici's SocketError", new undiciErrors.SocketError('other side closed'), { kind: 'reset' }],
  ['a plain-HTTP server spoken to in TLS', withCode('ERR_SSL_WRONG_VERSION_NUMBER'), { kind: 'tls', problem: 'not-tls' }],
  ['a self-signed certificate', withCode('DEPTH_ZERO_SELF_SIGNED_CERT'), { kind: 'tls', problem: 'untrusted-certificate' }],
  ['anything else', new Error('something odd'), { kind: 'other' }],
  ['a thrown string', 'odd', { kind: 'other' }],
];

describe('transportFailureOf: one rule for what a failed request says', () => {
  it.each(TABLE)('%s', (_, error, expected) => {
    expect(transportFailureOf(error)).toEqual(expected);
  });
});

describe('both callers classify alike', () => {
  const url = 'http://127.0.0.1:9/webhooks';
  it.each(TABLE)('%s', (_, error, expected) => {
    // The suites' code and a delivery's error agree on the kind (a TLS problem has no code of its own: "other").
    const code = expected.kind === 'tls' ? 'other' : expected.kind;
    expect(describeTransportError(error, url, 1000).code).toBe(code);
    expect(attemptFailureOf(error, url, 1000).error).toBe(code);
  });

  // Before this rule was shared, a delivery took these for "other": a webhook URL whose host does not
  // resolve read as an unexplained failure, and a SocketError without its code as one too.
  it('a delivery to a host that does not resolve says so', () => {
    expect(attemptFailureOf(wrapped('ENOTFOUND'), 'http://hooks.invalid/webhooks', 1000)).toEqual({
      error: 'unresolved',
      errorMessage: 'cannot resolve hooks.invalid: check the host name in the webhook URL',
    });
  });
});
