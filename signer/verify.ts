import { timingSafeEqual } from 'node:crypto';
import { canonicalize } from './canonical.js';
import { hmacSha256Hex } from './sign.js';

/** P-AUTH-3's default window, in seconds either side of the server's clock. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** P-SIGN-6: `raw` verifies the bytes received; `canonical` a re-canonicalized parse of them, or the raw
 *  text when they are not JSON, so a correctly signed malformed body still gets its 400. */
export type VerifyMode = 'raw' | 'canonical';

export interface VerifyInput {
  /** The body as received, decoded as UTF-8 ("" when there is none). */
  body: string;
  /** X-TIMESTAMP and X-SIGNATURE as received (undefined when absent). */
  timestamp: string | undefined;
  signature: string | undefined;
  secret: string;
  /** The server's clock, UNIX seconds. Injected so tests and replays are deterministic. */
  now: number;
  toleranceSeconds?: number;
  mode?: VerifyMode;
}

export type VerifyFailure =
  | 'missing-timestamp'
  | 'missing-signature'
  | 'malformed-timestamp'
  | 'timestamp-outside-window'
  | 'malformed-signature'
  | 'signature-mismatch';

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: VerifyFailure; message: string };

const SIGNATURE_SHAPE = /^[0-9a-f]{64}$/;

/** Verifies a request per P-AUTH-2/3 and P-SIGN-2. Never throws for bad input: it says why. */
export function verifyRequest(input: VerifyInput): VerifyResult {
  const { timestamp, signature } = input;
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (timestamp === undefined || timestamp === '') return fail('missing-timestamp', 'X-TIMESTAMP is missing');
  if (signature === undefined || signature === '') return fail('missing-signature', 'X-SIGNATURE is missing');

  if (!/^\d{1,12}$/.test(timestamp)) {
    const hint = /^\d{13,}$/.test(timestamp) ? ' (it looks like milliseconds; send seconds)' : '';
    return fail('malformed-timestamp', `X-TIMESTAMP must be whole UNIX seconds${hint}`);
  }
  const seconds = Number(timestamp);
  if (Math.abs(input.now - seconds) > tolerance) {
    return fail('timestamp-outside-window', `X-TIMESTAMP is more than ${tolerance} s from the server clock`);
  }
  if (!SIGNATURE_SHAPE.test(signature)) return fail('malformed-signature', 'X-SIGNATURE must be 64 lowercase hexadecimal characters');

  const signedText = input.mode === 'canonical' ? recanonicalized(input.body) : input.body;
  const expected = hmacSha256Hex(input.secret, signedText + timestamp);
  if (!timingSafeEqual(Buffer.from(expected, 'latin1'), Buffer.from(signature, 'latin1'))) {
    return fail('signature-mismatch', 'X-SIGNATURE does not match the body and timestamp');
  }
  return { ok: true, timestamp: seconds };
}

function recanonicalized(body: string): string {
  if (body === '') return body;
  try {
    return canonicalize(JSON.parse(body));
  } catch {
    return body;
  }
}

function fail(reason: VerifyFailure, message: string): VerifyResult {
  return { ok: false, reason, message };
}
