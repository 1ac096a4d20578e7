import { describe, expect, it } from 'vitest';
import { signPayload, signText, timestampText } from './sign.js';
import { SignerError } from './errors.js';
import { verifyRequest, type VerifyInput } from './verify.js';

const secret = 'sk_test_verify_0001';
const now = 1_732_147_200;
const payload = { order_id: 'A-1', order_amount: 10.5, return_url: 'https://shop.example/r?x=1' };
const signed = signPayload({ payload, timestamp: now, secret });

function input(overrides: Partial<VerifyInput> = {}): VerifyInput {
  return { body: signed.canonical, timestamp: String(now), signature: signed.signature, secret, now, ...overrides };
}

describe('verifyRequest (P-AUTH-2, P-AUTH-3, P-SIGN-6)', () => {
  const verify = verifyRequest;
  it('accepts a correctly signed canonical body in both modes', () => {
    expect(verify(input())).toEqual({ ok: true, timestamp: now });
    expect(verify(input({ mode: 'canonical' }))).toEqual({ ok: true, timestamp: now });
  });

  it.each<[string, Partial<VerifyInput>, string]>([
    ['missing timestamp', { timestamp: undefined }, 'missing-timestamp'],
    ['empty timestamp', { timestamp: '' }, 'missing-timestamp'],
    ['missing signature', { signature: undefined }, 'missing-signature'],
    ['fractional timestamp', { timestamp: `${now}.5` }, 'malformed-timestamp'],
    ['millisecond timestamp', { timestamp: `${now}000` }, 'malformed-timestamp'],
    ['signed timestamp', { timestamp: `+${now}` }, 'malformed-timestamp'],
    ['timestamp too old', { timestamp: String(now - 301) }, 'timestamp-outside-window'],
    ['timestamp in the future', { timestamp: String(now + 301) }, 'timestamp-outside-window'],
    ['uppercase signature', { signature: signed.signature.toUpperCase() }, 'malformed-signature'],
    ['truncated signature', { signature: signed.signature.slice(0, 63) }, 'malformed-signature'],
    ['altered signature', { signature: (signed.signature[0] === 'a' ? 'b' : 'a') + signed.signature.slice(1) }, 'signature-mismatch'],
    ['wrong secret', { secret: 'sk_test_other' }, 'signature-mismatch'],
    ['body changed after signing', { body: signed.canonical.replace('10.5', '10.6') }, 'signature-mismatch'],
    ['timestamp changed after signing', { timestamp: String(now - 1) }, 'signature-mismatch'],
  ])('refuses a request with a %s', (_name, overrides, reason) => {
    const result = verify(input(overrides));
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.reason).toBe(reason);
  });

  it('accepts the edges of the window and honours a configured one', () => {
    expect(verify(input({ ...resign(now - 300) })).ok).toBe(true);
    expect(verify(input({ ...resign(now + 300) })).ok).toBe(true);
    expect(verify(input({ ...resign(now - 30), toleranceSeconds: 10 })).ok).toBe(false);
  });

  it('differs between raw and canonical mode only for a non-canonical body', () => {
    const pretty = JSON.stringify(payload, null, 2);
    const overCanonical = { body: pretty, signature: signed.signature };
    expect(verify(input(overCanonical)).ok).toBe(false);
    expect(verify(input({ ...overCanonical, mode: 'canonical' })).ok).toBe(true);
    const overRaw = { body: pretty, signature: signText(pretty, now, secret).signature };
    expect(verify(input(overRaw)).ok).toBe(true);
    expect(verify(input({ ...overRaw, mode: 'canonical' })).ok).toBe(false);
  });

  it('verifies a correctly signed malformed body by its raw text in canonical mode too (P-ERR-4)', () => {
    const body = '{"order_id": 1,';
    expect(verify(input({ body, signature: signText(body, now, secret).signature, mode: 'canonical' })).ok).toBe(true);
  });

  it('signs a request without a body as the empty string (P-SIGN-4)', () => {
    const empty = signPayload({ timestamp: now, secret });
    expect(empty.message).toBe(String(now));
    expect(verify(input({ body: '', signature: empty.signature })).ok).toBe(true);
  });
});

describe('signText', () => {
  it('refuses an empty secret', () => {
    expect(() => signText('{}', now, '')).toThrow(SignerError);
  });
});

describe('timestampText', () => {
  it.each([1.5, -1, Number.NaN, '17e8', ' 1', ''])('refuses %j', (value) => {
    expect(() => timestampText(value)).toThrow(SignerError);
  });
  it('keeps digits as given', () => {
    expect(timestampText(0)).toBe('0');
    expect(timestampText('001')).toBe('001');
  });
});

function resign(timestamp: number): Partial<VerifyInput> {
  return { timestamp: String(timestamp), signature: signPayload({ payload, timestamp, secret }).signature };
}
