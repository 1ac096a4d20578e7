import { isJsonObject } from '../core/json-of.js';
import { headerIsNot, isJsonContentType } from '../core/predicates.js';
import { secretFinder } from '../common/redact.js';
import { canonicalize } from '../signer/canonical.js';
import { diagnose } from '../signer/diagnose.js';
import { hmacSha256Hex } from '../signer/sign.js';
import { requestAmount } from '../schemas/amounts.js';
import { describeErrors, validateSchema } from '../schemas/index.js';
import { OPERATIONS } from '../core/operations.js';
import type { Outcome } from './result.js';
import { describe, field, withoutByteOrderMark, type ClientRequest } from './traffic.js';

export interface JudgeContext {
  requests: ClientRequest[];
  /** The client's API requests: everything but the sandbox's own pages. */
  api: ClientRequest[];
  /** The merchant's secret; without it (traffic judged without a config) the rules that need it are skipped. */
  secretKey: string | undefined;
  /** Identifiers of the other environment, which the sandbox knows only to refuse. */
  otherEnvironmentKeys: readonly string[];
  otherEnvironmentWallets: readonly string[];
  toleranceSeconds: number;
  /** Who answered, as an explanation names it: the kit's sandbox, or the server traffic was observed with. */
  server: string;
}

export type RuleOutcome = Outcome<ClientRequest>;

/** Why a rule that needs the merchant's secret was not judged (P-TRAFFIC-2). */
export const NO_SECRET = 'no secret to verify signatures with: give --config or SVC_SECRET_KEY';

const pass: RuleOutcome = { status: 'passed' };

/** Offending requests kept as evidence (and explained in full) per rule. */
const MAX_OFFENDING = 5;

/** Fails with the first offending request named, and up to five as evidence. */
function failures(found: Array<[ClientRequest, string]>, expected?: string): RuleOutcome {
  if (found.length === 0) return pass;
  const [first, why] = found[0]!;
  const more = found.length > 1 ? ` (and ${found.length - 1} more request${found.length > 2 ? 's' : ''})` : '';
  return {
    status: 'failed',
    message: `${describe(first)}: ${why}${more}`,
    offending: found.slice(0, MAX_OFFENDING).map(([r]) => r),
    ...(expected ? { expected } : {}),
    actual: why,
  };
}

/** Applies a test to every request; `explain` is true only while the evidence still has room, so a costly
 * explanation (diagnose) keeps judging linear however many requests are wrong. */
function each(ctx: JudgeContext, test: (r: ClientRequest, explain: boolean) => string | undefined, expected?: string): RuleOutcome {
  const found: Array<[ClientRequest, string]> = [];
  for (const r of ctx.api) {
    const why = test(r, found.length < MAX_OFFENDING);
    if (why !== undefined) found.push([r, why]);
  }
  return failures(found, expected);
}

/** How the evidence names a leading EF BB BF, which a default UTF-8 decoder hides. */
const BYTE_ORDER_MARK_TEXT = 'UTF-8 byte-order mark (EF BB BF)';

const REQUIRED_HEADERS = ['x-api-key', 'x-signature', 'x-timestamp'] as const;

export function headers(ctx: JudgeContext): RuleOutcome {
  return each(
    ctx,
    (r) => {
      const missing = REQUIRED_HEADERS.filter((h) => !r.header(h));
      if (missing.length > 0) return `${missing.map((h) => h.toUpperCase()).join(', ')} missing`;
      if (!isJsonContentType(r.header('content-type'))) return headerIsNot('Content-Type', r.header('content-type'), 'application/json');
      if (!/application\/json/i.test(r.header('accept') ?? '')) return headerIsNot('Accept', r.header('accept'), 'application/json');
      return undefined;
    },
    'X-API-KEY, X-SIGNATURE, X-TIMESTAMP, Content-Type: application/json, Accept: application/json',
  );
}

export function operation(ctx: JudgeContext): RuleOutcome {
  return each(ctx, (r) => {
    if (r.operation === undefined) return `${r.raw.method} ${r.path} is not an operation of the interface or the profile`;
    if (r.raw.method !== 'POST') return `${OPERATIONS[r.operation].name} takes POST, not ${r.raw.method}`;
    return undefined;
  });
}

/** P-CLIENT-2: the HMAC of exactly the bytes sent; a mismatch is explained by diagnose. */
export function signature(ctx: JudgeContext): RuleOutcome {
  const secret = ctx.secretKey;
  if (secret === undefined) return { status: 'skipped', reason: NO_SECRET };
  return each(
    ctx,
    (r, explain) => {
      const timestamp = r.header('x-timestamp');
      const sig = r.header('x-signature');
      if (timestamp === undefined || sig === undefined) return undefined; // CLIENT-HEADERS reports it
      if (sig === hmacSha256Hex(secret, r.raw.body + timestamp)) return undefined;
      // A byte-order mark before the body: diagnose explains the text after it; the mark is said here.
      const text = withoutByteOrderMark(r.raw.body);
      const mark = text !== r.raw.body;
      if (mark && sig === hmacSha256Hex(secret, text + timestamp))
        return `the signature does not cover the bytes sent: they begin with a ${BYTE_ORDER_MARK_TEXT} that was not signed, so a server verifying the bytes it receives refuses the request`;
      if (!explain) return 'the signature does not cover the bytes sent';
      const apiKey = r.header('x-api-key');
      const before = mark ? `; they begin with a ${BYTE_ORDER_MARK_TEXT}` : '';
      try {
        const d = diagnose({ body: text, timestamp, signature: sig, secret, ...(apiKey ? { apiKey } : {}) });
        return d.variants.length > 0
          ? `the signature does not cover the bytes sent${before}; diagnose: ${d.variants.join(' + ')}`
          : `the signature does not cover the bytes sent${before}, and no known variant explains it (${d.detail.likelyCauses[0] ?? 'wrong secret'})`;
      } catch {
        return 'the signature does not cover the bytes sent (the timestamp is not a number, so diagnose cannot say more)';
      }
    },
    'X-SIGNATURE = hex HMAC-SHA256(secret, body as sent + X-TIMESTAMP)',
  );
}

/** P-CLIENT-2/P-SIGN-3: the bytes are the canonical text; the variant shows how they are not. */
export function canonicalBody(ctx: JudgeContext): RuleOutcome {
  return each(
    ctx,
    (r, explain) => {
      if (r.raw.body === '') return undefined;
      if (r.json === undefined) return 'the body is not JSON';
      let canonical: string;
      try {
        canonical = canonicalize(r.json);
      } catch {
        return 'the body holds a number no signer can write canonically';
      }
      if (canonical === r.raw.body) return undefined;
      const text = withoutByteOrderMark(r.raw.body);
      const mark =
        text !== r.raw.body
          ? `the body begins with a ${BYTE_ORDER_MARK_TEXT} before its JSON text, so the bytes sent are not the canonical text`
          : undefined;
      if (canonical === text) return mark;
      if (!explain) return mark ?? 'the body is not the canonical text of its payload';
      // How the text differs: diagnose a signature made over the body as sent.
      const timestamp = /^\d+$/.test(r.header('x-timestamp') ?? '') ? r.header('x-timestamp')! : '0';
      // Any key will do: the text is signed and diagnosed with the same one, so only how it differs shows.
      const key = ctx.secretKey ?? 'any key';
      const d = diagnose({ body: text, timestamp, signature: hmacSha256Hex(key, text + timestamp), secret: key });
      const how = d.variants.filter((v) => v !== 'canonical');
      const notCanonical = `the body is not the canonical text of its payload${how.length > 0 ? `: ${how.join(' + ')}` : ''}`;
      return mark ? `${mark}; after it, ${notCanonical}` : `${notCanonical} (${whatServersDo(r, ctx, canonical)})`;
    },
    'the canonical text: keys sorted, compact, "/" and non-ASCII unescaped (P-SIGN-1)',
  );
}

/** What servers make of a non-canonical body: a raw-bytes verifier (like the sandbox) takes a signature over
 * the bytes sent, a re-canonicalizing one over the canonical text; the server's own answer is what happened. */
function whatServersDo(r: ClientRequest, { secretKey, server }: JudgeContext, canonical: string): string {
  const timestamp = r.header('x-timestamp');
  const sig = r.header('x-signature');
  const sandbox = `${server} answered ${r.raw.status}`;
  if (timestamp === undefined || sig === undefined) return `unsigned, so no server takes it; ${sandbox}`;
  if (secretKey === undefined) return `with no secret, which text its signature covers is not known; ${sandbox}`;
  if (sig === hmacSha256Hex(secretKey, r.raw.body + timestamp))
    return `its signature covers these bytes: a server verifying raw bytes takes it (${sandbox}), one that re-canonicalizes refuses it`;
  if (sig === hmacSha256Hex(secretKey, canonical + timestamp))
    return `its signature covers the canonical text, not these bytes: a server verifying raw bytes refuses it (${sandbox}), one that re-canonicalizes takes it`;
  return `its signature covers neither these bytes nor the canonical text (CLIENT-SIGNATURE says what it covers): servers of either kind refuse it; ${sandbox}`;
}

export function timestampSeconds(ctx: JudgeContext): RuleOutcome {
  return each(
    ctx,
    (r) => {
      const ts = r.header('x-timestamp');
      if (ts === undefined) return undefined;
      if (/^\d{13,}$/.test(ts)) return `X-TIMESTAMP ${ts} is in milliseconds`;
      if (!/^\d{1,12}$/.test(ts)) return `X-TIMESTAMP ${JSON.stringify(ts)} is not whole seconds`;
      return undefined;
    },
    'whole UNIX seconds, e.g. 1732147200',
  );
}

export function timestampWindow(ctx: JudgeContext): RuleOutcome {
  return each(ctx, (r) => {
    const ts = r.header('x-timestamp');
    if (ts === undefined || !/^\d{1,12}$/.test(ts)) return undefined;
    const skew = Number(ts) - Math.floor(r.raw.receivedAt / 1000);
    return Math.abs(skew) > ctx.toleranceSeconds
      ? `X-TIMESTAMP is ${skew} s from the server's clock (window ±${ctx.toleranceSeconds} s)`
      : undefined;
  });
}

export function noReuse(ctx: JudgeContext): RuleOutcome {
  const seen = new Map<string, ClientRequest>();
  return each(ctx, (r) => {
    const id = `${r.header('x-timestamp')}\u0000${r.header('x-signature')}`;
    if (r.header('x-signature') === undefined) return undefined;
    const earlier = seen.get(id);
    seen.set(id, earlier ?? r);
    return earlier ? `re-sends the timestamp and signature of request #${earlier.n}` : undefined;
  });
}

/** P-CLIENT: the secret never on the wire, in any form the redactor knows (as is, URL-encoded, hex, base64, inside Basic auth). */
export function noSecret(ctx: JudgeContext): RuleOutcome {
  if (ctx.secretKey === undefined) return { status: 'skipped', reason: NO_SECRET };
  const has = secretFinder([ctx.secretKey]);
  return failures(
    ctx.requests.flatMap((r): Array<[ClientRequest, string]> => {
      const where = [
        ...r.raw.headers.filter(([, v]) => has(v)).map(([h]) => `header ${h}`),
        ...(has(r.raw.path) ? ['the query'] : []),
        ...(has(r.raw.body) ? ['the body'] : []),
      ];
      return where.length > 0 ? [[r, `sends the secret key (or an encoding of it) in ${where.join(', ')}`]] : [];
    }),
  );
}

export function environment(ctx: JudgeContext): RuleOutcome {
  return each(ctx, (r) => {
    const key = r.header('x-api-key') ?? r.header('x-client-id');
    if (key !== undefined && (key.startsWith('pk_live_') || ctx.otherEnvironmentKeys.includes(key)))
      return 'uses a production API key against the sandbox';
    const wallet = field(r.json, 'svc_wallet_id');
    if (wallet !== undefined && ctx.otherEnvironmentWallets.includes(wallet))
      return `uses the production wallet ${wallet} against the sandbox`;
    return undefined;
  });
}

export function requestSchema(ctx: JudgeContext): RuleOutcome {
  return each(ctx, (r) => {
    if (r.operation === undefined) return undefined;
    if (r.json === undefined) return r.raw.body === '' ? 'the body is empty' : 'the body is not JSON';
    const result = validateSchema(OPERATIONS[r.operation].request, r.json);
    if (result.valid) return undefined;
    // An amount's two allowed forms make the schema's own words obscure; say it as P-AMOUNT-1 does.
    const name = result.errors.find((e) => e.instancePath === '/order_amount' || e.instancePath === '/amount')?.instancePath.slice(1);
    const amount = name !== undefined && isJsonObject(r.json) ? r.json[name] : undefined;
    if (name !== undefined && field(r.json, name) !== undefined && requestAmount(amount) === undefined)
      return `${name} ${JSON.stringify(amount)} is neither a JSON number nor a decimal string greater than zero such as "1499.50" (P-AMOUNT-1)`;
    return `the body does not satisfy ${OPERATIONS[r.operation].request}: ${describeErrors(result.errors.slice(0, 2)).replaceAll('\n', '; ')}`;
  });
}
