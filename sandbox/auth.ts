import { timingSafeEqual } from 'node:crypto';
import { parseJsonTree } from '../signer/json-tree.js';
import { hmacSha256Hex } from '../signer/sign.js';
import { verifyRequest, type VerifyInput, type VerifyResult } from '../signer/verify.js';
import { CANONICAL_STYLE, writeStyled, type TextStyle } from '../signer/variants.js';
import type { ResolvedOptions } from './options.js';
import type { Merchant } from './tenants.js';

export type AuthOutcome = { ok: true; merchant: Merchant } | { ok: false; status: 401 | 403; message: string; merchant?: Merchant };

/** (timestamp, signature) pairs already accepted (P-AUTH-4), each kept until its timestamp leaves the window. */
export class ReplayCache {
  private readonly seen = new Map<string, number>();

  /** True when the pair was accepted before; remembers it until `expiresAt` (ms) otherwise. */
  check(timestamp: string, signature: string, expiresAt: number, now: number): boolean {
    // Pairs come in nearly timestamp order: the expired ones are at the front.
    for (const [pair, until] of this.seen) {
      if (until >= now) break;
      this.seen.delete(pair);
    }
    const pair = `${timestamp} ${signature}`;
    if (this.seen.has(pair)) return true;
    this.seen.set(pair, expiresAt);
    return false;
  }

  has(timestamp: string, signature: string): boolean {
    return this.seen.has(`${timestamp} ${signature}`);
  }
}

/** P-AUTH-1…4 and P-ENV-1 for one request (`body` as received); the catalog's auth and sign faults are applied here and nowhere else. */
export function authenticate(headers: Headers, body: string, options: ResolvedOptions, replays: ReplayCache): AuthOutcome {
  const { faults, variant } = options;
  const apiKey = headers.get('x-api-key') ?? headers.get('x-client-id') ?? undefined;
  const signature = headers.get('x-signature') ?? undefined;
  const timestamp = headers.get('x-timestamp') ?? undefined;
  if (apiKey === undefined || apiKey === '') return { ok: false, status: 401, message: 'X-API-KEY is missing' };

  const merchants = options.merchants;
  let merchant = merchants.find((m) => m.apiKey === apiKey);
  if (merchant === undefined) {
    if (!faults.has('auth-accept-unknown-key')) return { ok: false, status: 401, message: 'invalid API key' };
    merchant = merchants[0]!;
  }
  if (merchant.environment === 'production') {
    if (!faults.has('env-accept-production-key')) {
      return { ok: false, status: 403, message: 'a production API key cannot be used in the sandbox environment' };
    }
    // The fault: the key is mapped to its owner's sandbox account, whose secret then verifies it.
    const owner = merchant.id;
    merchant = merchants.find((m) => m.id === owner && m.environment === 'sandbox') ?? merchant;
  }

  const nowSeconds = Math.floor(options.clock() / 1000);
  const signedBy = (known: Merchant, accepted: boolean): AuthOutcome =>
    accepted ? { ok: true, merchant: known } : refuseSignature(known, options);
  const lenient = lenientSeconds(timestamp, faults);
  if (lenient !== undefined && signature !== undefined) {
    // The bug: the window is checked on converted seconds, the HMAC over the header as sent.
    const inWindow = Math.abs(nowSeconds - lenient) <= variant.toleranceSeconds;
    return signedBy(merchant, inWindow && matches(hmacSha256Hex(merchant.secretKey, body + timestamp), signature));
  }
  if (signature === undefined && faults.has('auth-accept-missing-signature')) return { ok: true, merchant };
  if (timestamp === undefined && faults.has('auth-accept-missing-timestamp'))
    return signedBy(merchant, signature !== undefined && matches(hmacSha256Hex(merchant.secretKey, body), signature));

  if (faults.has('auth-signature-cache') && timestamp !== undefined && signature !== undefined && replays.has(timestamp, signature)) {
    return { ok: true, merchant };
  }
  const result = verify({ body, timestamp, signature, secret: merchant.secretKey, now: nowSeconds }, options);
  if (!result.ok)
    return badSignature(result) ? refuseSignature(merchant, options) : { ok: false, status: 401, message: result.message, merchant };
  // The fault: a window checked as `now - timestamp <= tolerance` alone, so any time ahead is refused.
  if (faults.has('auth-window-past-only') && Number(timestamp) > nowSeconds) {
    return { ok: false, status: 401, message: 'X-TIMESTAMP is in the future', merchant };
  }
  if (
    (variant.replay === 'refuse' || faults.has('auth-signature-cache')) &&
    replays.check(timestamp!, signature!, (Number(timestamp) + variant.toleranceSeconds) * 1000, options.clock())
  ) {
    return { ok: false, status: 401, message: 'this request was already received (replayed timestamp and signature)', merchant };
  }
  return { ok: true, merchant };
}

/** Whether verification failed on the signature itself (every other check passed). */
const badSignature = (result: VerifyResult) =>
  !result.ok && (result.reason === 'signature-mismatch' || result.reason === 'malformed-signature');

function verify(input: Omit<VerifyInput, 'toleranceSeconds' | 'mode'>, options: ResolvedOptions): VerifyResult {
  const { body, timestamp, signature, secret, now } = input;
  const { faults, variant } = options;
  const toleranceSeconds = faults.has('auth-no-window') ? Number.MAX_SAFE_INTEGER : variant.toleranceSeconds;
  const style = faultyStyle(faults);
  const signedBody = style !== undefined ? restyle(body, style) : body;
  const mode = style !== undefined ? 'raw' : variant.verify;
  const result = verifyRequest({ ...input, body: signedBody, toleranceSeconds, mode });
  const scheme = faultyScheme(faults);
  if (scheme !== undefined && signature !== undefined && timestamp !== undefined && (result.ok || badSignature(result))) {
    // The fault: the window and the timestamp's form are checked as they should be, the HMAC another way.
    return sameText(scheme(secret, body, timestamp), signature)
      ? { ok: true, timestamp: Number(timestamp) }
      : { ok: false, reason: 'signature-mismatch', message: 'signature does not match' };
  }
  if (result.ok || signature === undefined || timestamp === undefined || !badSignature(result)) return result;

  // Faults that compare less than they should: every check passed but the HMAC comparison itself.
  const accepted: VerifyResult = { ok: true, timestamp: Number(timestamp) };
  const expected = (text: string) => hmacSha256Hex(secret, text);
  if (
    faults.has('auth-signature-prefix-compare') &&
    signature.length >= 16 &&
    expected(signedBody + timestamp).startsWith(signature.slice(0, 16))
  ) {
    return accepted;
  }
  if (result.reason === 'malformed-signature') return result;
  if (faults.has('auth-ignore-signature')) return accepted;
  if (faults.has('auth-timestamp-search')) {
    for (let t = now - variant.toleranceSeconds; t <= now + variant.toleranceSeconds; t++) {
      if (matches(expected(signedBody + t), signature)) return accepted;
    }
  }
  return result;
}

function lenientSeconds(timestamp: string | undefined, faults: ResolvedOptions['faults']): number | undefined {
  if (timestamp === undefined) return undefined;
  if (faults.has('auth-accept-milliseconds') && /^\d{13}$/.test(timestamp)) return Math.floor(Number(timestamp) / 1000);
  if (faults.has('auth-accept-fractional-timestamp') && /^\d+\.\d+$/.test(timestamp)) return Math.floor(Number(timestamp));
  return undefined;
}

function refuseSignature(merchant: Merchant, options: ResolvedOptions): AuthOutcome {
  return { ok: false, status: options.faults.has('auth-failure-403') ? 403 : 401, message: 'signature does not match', merchant };
}

/** A signature scheme other than P-SIGN-2's, as a server that computes it another way does. */
function faultyScheme(faults: ResolvedOptions['faults']): ((secret: string, body: string, timestamp: string) => string) | undefined {
  if (faults.has('auth-verify-timestamp-omitted')) return (secret, body) => hmacSha256Hex(secret, body);
  if (faults.has('auth-verify-timestamp-first')) return (secret, body, timestamp) => hmacSha256Hex(secret, timestamp + body);
  if (faults.has('auth-verify-base64'))
    return (secret, body, timestamp) => Buffer.from(hmacSha256Hex(secret, body + timestamp), 'hex').toString('base64');
  return undefined;
}

function faultyStyle(faults: ResolvedOptions['faults']): TextStyle | undefined {
  if (faults.has('sign-escaped-slashes')) return { ...CANONICAL_STYLE, escapeSlashes: true };
  if (faults.has('sign-ascii-only')) return { ...CANONICAL_STYLE, unicode: 'lower' };
  if (faults.has('sign-html-escaped')) return { ...CANONICAL_STYLE, htmlEscape: true };
  return undefined;
}

/** What a server with a mis-configured serializer re-canonicalizes the body into. */
function restyle(body: string, style: TextStyle): string {
  try {
    return writeStyled(parseJsonTree(body), style);
  } catch {
    return body;
  }
}

/** Constant-time comparison of two texts of any form (a faulty scheme's digest need not be hex). */
function sameText(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Constant-time comparison of two hex digests; anything not shaped like one simply does not match. */
function matches(expected: string, received: string): boolean {
  return /^[0-9a-f]{64}$/.test(received) && sameText(expected, received);
}
