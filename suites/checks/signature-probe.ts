// When every request signed the profile's way with the configured keys was refused 401, two causes
// look alike from outside: keys that do not belong to this environment (a configuration problem), or
// a target that computes signatures another way (its fault). This probe tells them apart: it sends a
// read signed each known wrong way (signer/variants.ts's ids, seen from the server's side) with the
// same keys. A target that accepts one verifies that scheme: a MUST failure named by the variant.
// None accepted: the keys are what is refused, and the run is inconclusive (core/verdict.ts).
import { createHmac } from 'node:crypto';
import { canonicalize } from '../../signer/canonical.js';
import type { VariantId } from '../../signer/variants.js';
import { CheckFailure, CheckSkipped, answered, defineCheck, type Check, type CheckContext } from '../check.js';
import { PAYOUT_STATUS_PATH, payoutStatusBody } from './requests.js';

interface WrongScheme {
  id: VariantId;
  /** What the target accepts when it accepts this one, as a sentence ends: "signatures made …". */
  says: string;
  /** X-TIMESTAMP and X-SIGNATURE for a body, signed this way. */
  sign(secret: string, body: string, seconds: number): { timestamp: string; signature: string };
}

const hmac = (algorithm: 'sha1' | 'sha256' | 'sha512', secret: string, text: string) =>
  createHmac(algorithm, secret).update(text, 'utf8').digest();
const hex = (secret: string, text: string) => hmac('sha256', secret, text).toString('hex');

/** Python's json.dumps default: ", " and ": " between tokens. The body sent stays canonical. */
const reserialized = (body: string) => JSON.stringify(JSON.parse(body)).replace(/,"/g, ', "').replace(/":/g, '": ');

export const WRONG_SCHEMES: readonly WrongScheme[] = [
  {
    id: 'timestamp-omitted',
    says: 'signatures made over the body alone, without X-TIMESTAMP',
    sign: (s, b, t) => ({ timestamp: String(t), signature: hex(s, b) }),
  },
  {
    id: 'timestamp-first',
    says: 'signatures made over X-TIMESTAMP followed by the body',
    sign: (s, b, t) => ({ timestamp: String(t), signature: hex(s, String(t) + b) }),
  },
  {
    id: 'pretty-printed',
    says: 'signatures made over the body serialized again with spaces (", " and ": ")',
    sign: (s, b, t) => ({ timestamp: String(t), signature: hex(s, reserialized(b) + String(t)) }),
  },
  {
    id: 'uppercase-hex',
    says: 'the digest in upper-case hexadecimal',
    sign: (s, b, t) => ({ timestamp: String(t), signature: hex(s, b + String(t)).toUpperCase() }),
  },
  {
    id: 'base64',
    says: 'the digest in base64 instead of hexadecimal',
    sign: (s, b, t) => ({ timestamp: String(t), signature: hmac('sha256', s, b + String(t)).toString('base64') }),
  },
  {
    id: 'hmac-sha512',
    says: 'HMAC-SHA512 instead of HMAC-SHA256',
    sign: (s, b, t) => ({ timestamp: String(t), signature: hmac('sha512', s, b + String(t)).toString('hex') }),
  },
  {
    id: 'hmac-sha1',
    says: 'HMAC-SHA1 instead of HMAC-SHA256',
    sign: (s, b, t) => ({ timestamp: String(t), signature: hmac('sha1', s, b + String(t)).toString('hex') }),
  },
  {
    id: 'secret-trailing-newline',
    says: "signatures made with the secret key followed by a newline (the target's copy of the key has one)",
    sign: (s, b, t) => ({ timestamp: String(t), signature: hex(`${s}\n`, b + String(t)) }),
  },
  {
    id: 'timestamp-milliseconds',
    says: 'X-TIMESTAMP in milliseconds, signed so',
    sign: (s, b, t) => ({ timestamp: `${t}000`, signature: hex(s, `${b}${t}000`) }),
  },
];

/** An answer that got past authentication: neither 401 nor 403 (refusals), nor a 5xx (which says nothing). */
const accepted = (status: number | undefined) => status !== undefined && status !== 401 && status !== 403 && status < 500;

/**
 * The probe as a check of AUTH-ACCEPT, and which variant the target accepted (read after it ran). The
 * runner adds it only when every correctly signed request of the run was refused 401.
 */
export function signatureSchemeProbe(): { check: Check; acceptedVariant(): VariantId | undefined } {
  let found: VariantId | undefined;
  const check = defineCheck({
    id: 'auth-signature-scheme-probe',
    requirement: 'AUTH-ACCEPT',
    title: 'every correctly signed request was refused 401: is a known wrong signature scheme accepted instead?',
    async run(ctx: CheckContext) {
      const payload = payoutStatusBody(ctx, ctx.ids.payoutOrderId('PROBE'));
      const body = canonicalize(payload);
      for (const scheme of WRONG_SCHEMES) {
        const { timestamp, signature } = scheme.sign(ctx.config.merchant.secretKey, body, ctx.nowSeconds());
        const exchange = await ctx.send({
          label: `Payout Status signed a known wrong way (${scheme.id}): ${scheme.says}`,
          path: PAYOUT_STATUS_PATH,
          payload,
          timestamp,
          signature,
        });
        if (accepted(exchange.response?.status)) {
          found = scheme.id;
          throw new CheckFailure(
            `the target refuses requests signed per P-SIGN-2 (HMAC-SHA256 of the canonical body followed by X-TIMESTAMP, lower-case hex) but accepts ${scheme.says} (${scheme.id}): it verifies another scheme`,
            {
              expected: "HTTP 401 for a signature made another way, and acceptance of the profile's own",
              actual: answered(exchange),
              exchange,
            },
          );
        }
      }
      throw new CheckSkipped(
        `none of ${WRONG_SCHEMES.length} requests signed known wrong ways (${WRONG_SCHEMES.map((s) => s.id).join(', ')}) was accepted either`,
      );
    },
  });
  return { check, acceptedVariant: () => found };
}
