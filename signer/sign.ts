import { createHmac } from 'node:crypto';
import { canonicalize } from './canonical.js';
import { SignerError } from './errors.js';

export interface SignInput {
  /** The request payload; `undefined` means a request without a body (P-SIGN-4: signs ""). */
  payload?: unknown;
  /** UNIX seconds, the same value sent in X-TIMESTAMP. */
  timestamp: number | string;
  secret: string;
}

export interface Signed {
  /** The body to send, byte for byte (P-SIGN-3). */
  canonical: string;
  /** canonical + timestamp text: what the HMAC covers (P-SIGN-2). */
  message: string;
  /** Lowercase hex HMAC-SHA256 of message under the secret. */
  signature: string;
}

/** Signs a payload per P-SIGN-1/2/4. Pure: the caller supplies the timestamp. */
export function signPayload({ payload, timestamp, secret }: SignInput): Signed {
  const canonical = payload === undefined ? '' : canonicalize(payload);
  return signText(canonical, timestamp, secret);
}

/** Signs a body text exactly as given, without canonicalizing it. The kit uses it to sign
 *  deliberately malformed bodies correctly (P-ERR-4), so only the defect under test is present. */
export function signText(text: string, timestamp: number | string, secret: string): Signed {
  const message = text + timestampText(timestamp);
  return { canonical: text, message, signature: hmacSha256Hex(secret, message) };
}

/** P-SIGN-2's HMAC-SHA256 of a message, in lowercase hex; an empty secret is refused. */
export function hmacSha256Hex(secret: string, message: string): string {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new SignerError('SVC_BAD_SECRET', 'sign: the secret key is empty; pass the sk_test_… / sk_live_… key of the environment');
  }
  return createHmac('sha256', secret).update(message, 'utf8').digest('hex');
}

/** The decimal text of a timestamp in whole seconds; anything else is refused, not rounded. */
export function timestampText(timestamp: number | string): string {
  if (typeof timestamp === 'number' && Number.isSafeInteger(timestamp) && timestamp >= 0) return String(timestamp);
  if (typeof timestamp === 'string' && /^\d+$/.test(timestamp)) return timestamp;
  throw new SignerError(
    'SVC_BAD_TIMESTAMP',
    `sign: timestamp ${JSON.stringify(timestamp)} is not whole UNIX seconds; use Math.floor(Date.now() / 1000)`,
  );
}
