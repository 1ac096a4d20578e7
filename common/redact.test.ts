import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, evidenceHeaders, secretForms } from './redact.js';

const SECRET = 'sk_test_9f8e7d6c5b4a3210';
const KEY = 'pk_test_0123456789';
const redact = createRedactor({ secrets: [SECRET] });
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');
const hex = (text: string) => Buffer.from(text).toString('hex');

describe('createRedactor', () => {
  const leaks: Array<[string, string]> = [
    ['as is', `the key ${SECRET} was wrong`],
    ['upper-cased by the code that wrote it', `ERROR: ${SECRET.toUpperCase()}`],
    ['in mixed case', `key=${SECRET.slice(0, 8).toUpperCase()}${SECRET.slice(8)}`],
    ['URL-encoded', `?secret=${encodeURIComponent(SECRET + ' /&')}`],
    ['URL-encoded, lower-case escapes', `?s=${encodeURIComponent(`${SECRET}/`).replace(/%2F/g, '%2f')}`],
    ['hex', `digest key ${hex(SECRET)}`],
    ['hex, upper case', `KEY=${hex(SECRET).toUpperCase()}`],
    ['base64', `{"k":"${b64(SECRET)}"}`],
    ['base64url', `token=${b64url(`\u00ff\u00fe${SECRET}`)}`],
    ['base64 after one byte', `x=${b64(`a${SECRET}`)}`],
    ['base64 after two bytes', `x=${b64(`ab${SECRET}`)}`],
    ['Basic auth of key:secret', `Authorization: Basic ${b64(`${KEY}:${SECRET}`)}`],
    ['Basic auth of other credentials', `authorization: basic ${b64('admin:hunter2')}`],
    ['URL userinfo', 'baseUrl http://admin:hunter2@127.0.0.1:4010/api'],
  ];

  it.each(leaks)('removes a secret written %s', (_form, text) => {
    const out = redact(text);
    expect(out).toContain('[redacted');
    for (const form of [SECRET, hex(SECRET), hex(SECRET).toUpperCase(), b64(SECRET).slice(0, 20), 'hunter2'])
      expect(out.toLowerCase()).not.toContain(form.toLowerCase());
  });

  it('removes a signature in any letter case, and leaves ordinary text alone', () => {
    const signature = createHmac('sha256', SECRET).update('{}1732147200').digest('hex');
    const withSignature = createRedactor({ secrets: [SECRET], signatures: [signature] });
    expect(withSignature(`got ${signature.toUpperCase()} expected ${signature}`)).toBe(
      'got [redacted:signature] expected [redacted:signature]',
    );
    const prose = 'Basic checks passed for order 1234567890 at https://sandbox.example.test/api; base64 is fine';
    expect(withSignature(prose)).toBe(prose);
  });

  it('hides signatures given later in the same pass as the secrets, leaving the redactor it came from as it was', () => {
    const signature = createHmac('sha256', SECRET).update('{}1732147200').digest('hex');
    const withSignature = redact.withSignatures([signature, undefined, 'short']);
    const mixedCase = signature.slice(0, 32).toUpperCase() + signature.slice(32);
    expect(withSignature(`got ${mixedCase}, key ${hex(SECRET)}, auth Basic ${b64('user:pw')}`)).toBe(
      'got [redacted:signature], key [redacted:secret], auth Basic [redacted:credentials]',
    );
    expect(redact(`got ${signature}`)).toBe(`got ${signature}`);
    // A non-ASCII signature upper-cased before a letter lower-cases to other letters (ς, σ): the
    // expression, not the cheap look, decides.
    const odd = 'κλειδίς-κλειδίς';
    expect(redact.withSignatures([odd])(`x ${odd.toUpperCase()}x y`)).toBe('x [redacted:signature]x y');
  });

  it('hides credentials that a signature or a secret glued to them kept out of sight until it was removed', () => {
    const signature = createHmac('sha256', SECRET).update('{}1732147200').digest('hex');
    const credential = b64('merchant:hunter2-password');
    expect(redact.withSignatures([signature])(`echo: ${signature}Basic ${credential}`)).toBe(
      'echo: [redacted:signature]Basic [redacted:credentials]',
    );
    expect(redact(`echo: ${SECRET}Basic ${credential}`)).toBe('echo: [redacted:secret]Basic [redacted:credentials]');
    // A client that puts its own "Basic " before one it was given.
    expect(redact(`Authorization: Basic Basic ${credential}`)).toBe('Authorization: Basic Basic [redacted:credentials]');
    expect(redact('Basic checks passed; basic Basic flow')).toBe('Basic checks passed; basic Basic flow');
  });

  it('removes a secret of non-ASCII letters in another letter case, as the expression would, and each of several secrets', () => {
    // Lower-casing and the expression's case-insensitivity disagree outside ASCII: upper-cased and
    // followed by a letter, the final ς of this secret lower-cases to σ, yet the expression matches it.
    // The cheap look before the expression must never skip what the expression would catch.
    const greek = 'μυστικό-κλειδίς';
    const both = createRedactor({ secrets: [SECRET, greek] });
    expect(both(`a ${greek.toUpperCase()}x b`)).toBe('a [redacted:secret]x b');
    expect(both(`a ${hex(SECRET).toUpperCase()} b`)).toBe('a [redacted:secret] b');
    expect(both('nothing to hide here, not even ſk_')).toBe('nothing to hide here, not even ſk_');
  });

  it('keeps every encoded form long enough not to match by chance', () => {
    const { exact, anyCase } = secretForms(SECRET);
    for (const form of [...exact, ...anyCase]) expect(form.length).toBeGreaterThanOrEqual(8);
    expect(anyCase).toContain(SECRET);
    // Base64's letter case is its content: the same letters in another case are other bytes, left alone.
    expect(exact).toContain(b64(SECRET));
    expect(anyCase).not.toContain(b64(SECRET));
    expect(redact(`x=${b64(SECRET).toLowerCase()}`)).toBe(`x=${b64(SECRET).toLowerCase()}`);
  });
});

describe('evidenceHeaders', () => {
  it('redacts X-SIGNATURE in any letter case, and every value through the redactor', () => {
    for (const name of ['X-SIGNATURE', 'x-signature', 'X-Signature']) {
      expect(
        evidenceHeaders(
          [
            [name, 'ab'.repeat(32)],
            ['authorization', `Bearer ${SECRET}`],
          ],
          redact,
        ),
      ).toEqual({ [name]: '[redacted]', authorization: 'Bearer [redacted:secret]' });
    }
  });

  it('shows a signature only where the caller says it is the evidence, still through the redactor', () => {
    const wrong = (signature: string) => signature.startsWith('00');
    expect(evidenceHeaders([['x-signature', '00ff']], redact, wrong)).toEqual({ 'x-signature': '00ff' });
    expect(evidenceHeaders([['x-signature', 'ffff']], redact, wrong)).toEqual({ 'x-signature': '[redacted]' });
    expect(evidenceHeaders([['x-signature', SECRET]], redact, () => true)).toEqual({ 'x-signature': '[redacted:secret]' });
  });
});

describe('the cheap looks before each expression', () => {
  const signature = createHmac('sha256', SECRET).update('{}1732147200').digest('hex');
  // Pieces that hide something alone, only beside another piece, or never, glued in any order.
  const pieces = [
    'Basic',
    'basic',
    ' ',
    '\n',
    '\u3000',
    'x',
    'é',
    '@',
    '/',
    '"',
    'http://',
    'HTTPS://',
    '://',
    'admin:hunter2',
    'jose@example.test',
    b64(`${KEY}:${SECRET}`),
    'dXNlcjpwdw==',
    SECRET.slice(0, 9),
    SECRET.slice(9),
    SECRET.toUpperCase(),
    hex(SECRET).toUpperCase(),
    encodeURIComponent(`${SECRET}/`),
    b64(`ab${SECRET}`),
    signature.slice(0, 30),
    signature.slice(30).toUpperCase(),
    '{"ok":true}',
  ];
  const texts = fc.array(fc.constantFrom(...pieces), { maxLength: 8 }).map((parts) => parts.join(''));

  it('never change what the redactor writes: the same output as with every expression run on every text', () => {
    const options = { secrets: [SECRET, 'pässwörd-ÄÖÜ-1'], signatures: [signature] };
    const looking = createRedactor(options);
    const running = createRedactor({ ...options, lookFirst: false });
    fc.assert(
      fc.property(texts, (text) => {
        expect(looking(text)).toBe(running(text));
        expect(looking.withSignatures([text.slice(0, 12)])(text)).toBe(running.withSignatures([text.slice(0, 12)])(text));
      }),
      { numRuns: 4000, seed: 11 },
    );
  });
});
