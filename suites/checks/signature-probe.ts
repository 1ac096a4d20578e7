// When no correctly signed request was taken, a read signed each known wrong way (signer/variants.ts)
// tells a target that signs another way (fails, naming it) from a configuration problem (inconclusive).
import { createHmac } from 'node:crypto';
import { canonicalize } from '../../signer/canonical.js';
import { keyEnvironment } from '../../signer/diagnose.js';
import type { VariantId } from '../../signer/variants.js';
import { CheckFailure, CheckSkipped, defineCheck, type Check, type CheckContext } from '../check.js';
import type { TargetConfig } from '../config.js';
import type { Exchange } from '../http.js';
import { PAYOUT_STATUS_PATH, payoutStatusBody } from '../requests.js';
import { shown } from './shown.js';

interface WrongScheme {
  id: VariantId;
  /** What the target accepts when it accepts this one, as a sentence ends: "signatures made …". */
  says: string;
  /** X-TIMESTAMP and X-SIGNATURE for a body, signed this way. */
  sign(secret: string, body: string, seconds: number): { timestamp: string; signature: string };
}

const hmac = (algorithm: 'sha1' | 'sha256' | 'sha512', secret: string, text: string) => createHmac(algorithm, secret).update(text).digest();
const hex = (secret: string, text: string, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha256') =>
  hmac(algorithm, secret, text).toString('hex');

/** Python's json.dumps default: ", " and ": " between tokens. The body sent stays canonical. */
const reserialized = (body: string) => JSON.stringify(JSON.parse(body)).replace(/,"/g, ', "').replace(/":/g, '": ');

/** The X-TIMESTAMP sent (the seconds, unless a scheme writes them otherwise) and the signature. */
const signed = (signature: string, timestamp: number | string) => ({ timestamp: String(timestamp), signature });

export const WRONG_SCHEMES: readonly WrongScheme[] = [
  { id: 'timestamp-omitted', says: 'signatures made over the body alone, without X-TIMESTAMP', sign: (s, b, t) => signed(hex(s, b), t) },
  {
    id: 'timestamp-first',
    says: 'signatures made over X-TIMESTAMP followed by the body',
    sign: (s, b, t) => signed(hex(s, `${t}${b}`), t),
  },
  {
    id: 'pretty-printed',
    says: 'signatures made over the body serialized again with spaces (", " and ": ")',
    sign: (s, b, t) => signed(hex(s, reserialized(b) + String(t)), t),
  },
  { id: 'uppercase-hex', says: 'the digest in upper-case hexadecimal', sign: (s, b, t) => signed(hex(s, `${b}${t}`).toUpperCase(), t) },
  {
    id: 'base64',
    says: 'the digest in base64 instead of hexadecimal',
    sign: (s, b, t) => signed(hmac('sha256', s, `${b}${t}`).toString('base64'), t),
  },
  { id: 'hmac-sha512', says: 'HMAC-SHA512 instead of HMAC-SHA256', sign: (s, b, t) => signed(hex(s, `${b}${t}`, 'sha512'), t) },
  { id: 'hmac-sha1', says: 'HMAC-SHA1 instead of HMAC-SHA256', sign: (s, b, t) => signed(hex(s, `${b}${t}`, 'sha1'), t) },
  {
    id: 'secret-trailing-newline',
    says: "signatures made with the secret key followed by a newline (the target's copy of the key has one)",
    sign: (s, b, t) => signed(hex(`${s}\n`, `${b}${t}`), t),
  },
  {
    id: 'timestamp-milliseconds',
    says: 'X-TIMESTAMP in milliseconds, signed so',
    sign: (s, b, t) => signed(hex(s, `${b}${t}000`), `${t}000`),
  },
];

/** Refused, or no answer worth reading: a 401 or 403, a 5xx, or none at all. */
const refused = (status: number | undefined) => status === undefined || status === 401 || status === 403 || status >= 500;

/** The probe as a check of AUTH-ACCEPT. A variant counts as accepted only when answered otherwise than
 *  the same request signed right, sent first (a wrong base URL answers both 404). */
export function signatureSchemeProbe(): { check: Check; acceptedVariant(): VariantId | undefined; clues(): string[] } {
  let found: VariantId | undefined;
  let clues: string[] = [];
  const check = defineCheck({
    id: 'auth-signature-scheme-probe',
    requirement: 'AUTH-ACCEPT',
    title: 'no correctly signed request was taken: is a known wrong signature scheme accepted instead?',
    async run(ctx: CheckContext) {
      const payload = payoutStatusBody(ctx, ctx.ids.payoutOrderId('PROBE'));
      const body = canonicalize(payload);
      const baseline = await ctx.send({
        label: "Payout Status signed the profile's way, to compare with",
        path: PAYOUT_STATUS_PATH,
        payload,
      });
      clues = credentialClues(ctx.config, saidIn(baseline, ctx));
      for (const scheme of WRONG_SCHEMES) {
        const { timestamp, signature } = scheme.sign(ctx.config.merchant.secretKey, body, ctx.nowSeconds());
        const exchange = await ctx.send({
          label: `Payout Status signed a known wrong way (${scheme.id}): ${scheme.says}`,
          path: PAYOUT_STATUS_PATH,
          payload,
          timestamp,
          signature,
        });
        const status = exchange.response?.status;
        if (!refused(status) && status !== baseline.response?.status) {
          found = scheme.id;
          throw new CheckFailure(
            `the target refuses requests signed per P-SIGN-2 (HMAC-SHA256 of the canonical body followed by X-TIMESTAMP, lower-case hex) but accepts ${scheme.says} (${scheme.id}): it verifies another scheme`,
            shown(exchange, "HTTP 401 for a signature made another way, and acceptance of the profile's own"),
          );
        }
      }
      throw new CheckSkipped(
        `none of ${WRONG_SCHEMES.length} requests signed known wrong ways (${WRONG_SCHEMES.map((s) => s.id).join(', ')}) was accepted either`,
      );
    },
  });
  return { check, acceptedVariant: () => found, clues: () => clues };
}

/** The message of a refusal, as the target wrote it (redacted, short): "the target answered 401 \"signature mismatch\"". */
function saidIn(exchange: Exchange, ctx: CheckContext): string | undefined {
  const message = (exchange.response?.json as { message?: unknown } | undefined)?.message;
  if (exchange.response?.status !== 401 || typeof message !== 'string' || message.trim() === '') return undefined;
  const text = ctx.redact(message.trim());
  return `the target answered 401 ${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)}`;
}

/** What the configuration itself suggests about refused keys, never showing a secret: whitespace copied
 *  with a key, a secret that is the other merchant's or environment's, keys of two environments. */
export function credentialClues(
  config: Pick<TargetConfig, 'merchant' | 'otherMerchant' | 'otherEnvironment' | 'environment'>,
  said?: string,
): string[] {
  const { apiKey, secretKey } = config.merchant;
  const clues: string[] = [];
  for (const name of ['apiKey', 'secretKey'] as const)
    if (config.merchant[name] !== config.merchant[name].trim())
      clues.push(`merchant.${name} begins or ends with whitespace (a newline copied with it?)`);
  for (const name of ['otherMerchant', 'otherEnvironment'] as const) {
    const keys = config[name];
    if (keys?.secretKey === secretKey) clues.push(`merchant.secretKey is the same as ${name}.secretKey`);
    if (keys?.apiKey === apiKey) clues.push(`merchant.apiKey is the same as ${name}.apiKey`);
  }
  const keyEnv = keyEnvironment(apiKey.trim(), 'pk');
  const secretEnv = keyEnvironment(secretKey.trim(), 'sk');
  if (keyEnv !== undefined && secretEnv !== undefined && keyEnv !== secretEnv)
    clues.push(`merchant.apiKey is a ${keyEnv} key but merchant.secretKey a ${secretEnv} secret`);
  if (keyEnv !== undefined && keyEnv !== config.environment)
    clues.push(`merchant.apiKey is a ${keyEnv} key but environment is ${config.environment}`);
  if (said !== undefined) clues.push(said);
  return clues;
}
