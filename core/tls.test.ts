import { describe, expect, it } from 'vitest';
import { tlsProblemOf } from './tls.js';

/** Errors as Node and undici raise them (code, or a cause's code, and OpenSSL's message). */
describe('tlsProblemOf', () => {
  it.each<[string, unknown, ReturnType<typeof tlsProblemOf>]>([
    [
      'a plain-HTTP server (OpenSSL 3)',
      Object.assign(
        new Error(
          '806CE2694B7F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n',
        ),
        { code: 'ERR_SSL_WRONG_VERSION_NUMBER' },
      ),
      'not-tls',
    ],
    [
      'a plain-HTTP server (older OpenSSL)',
      Object.assign(new Error('packet length too long'), { code: 'ERR_SSL_PACKET_LENGTH_TOO_LONG' }),
      'not-tls',
    ],
    ['the code on the cause', Object.assign(new Error('fetch failed'), { cause: { code: 'ERR_SSL_WRONG_VERSION_NUMBER' } }), 'not-tls'],
    [
      'a self-signed certificate',
      Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
      'untrusted-certificate',
    ],
    ['an expired certificate', Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }), 'untrusted-certificate'],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }), undefined],
    ['a reset', Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }), undefined],
    ['not an error at all', 'boom', undefined],
    ['null', null, undefined],
  ])('%s', (_what, error, expected) => {
    expect(tlsProblemOf(error)).toBe(expected);
  });
});
