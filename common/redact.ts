import { memo } from './memo.js';

/** Rewrites a text so that no secret it knows of survives in any form. */
export type Redact = (text: string) => string;

/** Encoded forms shorter than this are too likely to occur by chance to be replaced. */
const MIN_FORM_LENGTH = 8;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Basic credentials and URL userinfo are secrets whatever they hold. The scheme may be written twice
// ("Basic Basic dXNlcjpwdw==", a client adding its own prefix): the credential follows the last.
const BASIC_AUTH = /\b(Basic(?:\s+Basic)*)(\s+)([A-Za-z0-9+/_-]{4,}={0,2})/gi;
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>\\]+@/gi;
const BASIC_WORD = /basic/i;

/** Whether a token after "Basic" decodes to user:password (so prose such as "Basic checks" stays). */
function isBasicCredential(token: string): boolean {
  return Buffer.from(token, 'base64').toString('latin1').includes(':');
}

/** The base64 text a secret's bytes produce wherever they sit in a longer encoded value ("key:secret"):
 *  one fragment per byte alignment, only the characters that depend on the secret alone. */
function base64Fragments(bytes: Buffer): string[] {
  return [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    return encoded.slice(Math.ceil((offset * 4) / 3), Math.floor(((offset + bytes.length) * 8) / 6));
  });
}

/** Every form a secret leaks in. `exact`: base64 and base64url, whose letter case is content; `anyCase`:
 *  the secret itself (an upper-cased message still leaks it), hex and URL-encoded. */
export function secretForms(secret: string): { exact: string[]; anyCase: string[] } {
  const bytes = Buffer.from(secret, 'utf8');
  const fragments = base64Fragments(bytes);
  const exact = [...fragments, ...fragments.map((f) => f.replace(/\+/g, '-').replace(/\//g, '_'))];
  const urlEncoded = encodeURIComponent(secret);
  const anyCase = [secret, bytes.toString('hex'), urlEncoded, urlEncoded.replace(/%20/g, '+')];
  const keep = (forms: string[]) => [...new Set(forms)].filter((form) => form.length >= MIN_FORM_LENGTH || form === secret);
  return { exact: keep(exact), anyCase: keep(anyCase).filter((form) => !exact.includes(form)) };
}

/** One regular expression matching any of the texts; the longest first, so none is half-matched. */
function alternation(texts: string[], flags: string): RegExp | undefined {
  const longestFirst = [...new Set(texts)].sort((a, b) => b.length - a.length);
  return longestFirst.length === 0 ? undefined : new RegExp(longestFirst.map(escapeRegExp).join('|'), flags);
}

/** Whether every character of every text is ASCII, where lower-casing agrees with a RegExp's `i` flag. */
function allAscii(texts: readonly string[]): boolean {
  return texts.every((text) => /^[\x00-\x7f]*$/.test(text));
}

/** The patterns of every form of the secrets: one matched exactly, one whatever its letter case. */
function secretPatterns(secrets: readonly (string | undefined)[], flags: '' | 'g') {
  const forms = secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length >= 4).map(secretForms);
  const exact = forms.flatMap((f) => f.exact);
  const anyCase = forms.flatMap((f) => f.anyCase);
  return { exact: alternation(exact, flags), anyCase: alternation(anyCase, `${flags}i`) };
}

/** Whether a text holds a secret in any form the redactor removes: the client judge's test for a
 *  secret sent on the wire (P-CLIENT), so what is judged and what is hidden never disagree. */
export function secretFinder(secrets: readonly (string | undefined)[]): (text: string) => boolean {
  // Kept for the few secrets in use: a proxy asks once per exchange, and building the patterns is the cost.
  if (finders.size > 16) finders.clear();
  return memo(finders, secrets.join('\u0000'), () => {
    const { exact, anyCase } = secretPatterns(secrets, '');
    return (text: string) => (exact?.test(text) ?? false) || (anyCase?.test(text) ?? false);
  });
}
const finders = new Map<string, (text: string) => boolean>();

interface RedactorOptions {
  /** Secret keys: every form of them becomes `[redacted:secret]`. */
  secrets?: readonly (string | undefined)[];
  /** Signatures sent or received: replaced in any letter case by `[redacted:signature]`. */
  signatures?: readonly (string | undefined)[];
  /** false: every expression runs on every text, no cheap look first; a test holds the output to be the same. */
  lookFirst?: boolean;
}

/** A redactor that can also hide signatures made after it (each request's own), in the same pass. */
export interface Redactor extends Redact {
  withSignatures(signatures: readonly (string | undefined)[]): Redact;
}

/** Whether URL_USERINFO could match: a "://", then at least one character and an "@" before anything that
 *  ends a userinfo there (its Unicode spaces aside: a cheap look, never a miss). */
const MAY_HOLD_USERINFO = /:\/\/[^@/?#"'<>\\ \t\n\r\f\v]+@/;

/** Basic credentials and URL userinfo hidden, each expression run only when a cheap look says it could match. */
function credentialsHidden(text: string, lookFirst = true): string {
  let out = text;
  if (!lookFirst || BASIC_WORD.test(out))
    out = out.replace(BASIC_AUTH, (match, scheme: string, space: string, token: string) =>
      isBasicCredential(token) ? `${scheme}${space}[redacted:credentials]` : match,
    );
  if (!lookFirst || MAY_HOLD_USERINFO.test(out)) out = out.replace(URL_USERINFO, '$1[redacted]@');
  return out;
}

/** The kit's one redactor, for console lines, reports, evidence and relayed output: credentials whatever
 *  they hold, secrets in every form `secretForms` knows, signatures in any letter case. */
export function createRedactor(options: RedactorOptions): Redactor {
  const secrets = options.secrets ?? [];
  const { exact: exactPattern, anyCase: anyCasePattern } = secretPatterns(secrets, 'g');
  // The same expressions without `g` (no lastIndex kept between texts), so a look and its replacement agree.
  const { exact: exactLook, anyCase: anyCaseLook } = secretPatterns(secrets, '');
  const lookFirst = options.lookFirst ?? true;
  const mayHoldSecret = (text: string) => !lookFirst || (exactLook?.test(text) ?? false) || (anyCaseLook?.test(text) ?? false);
  const build = (given: readonly (string | undefined)[]): Redact => {
    const signatures = given.filter((s): s is string => typeof s === 'string' && s.length >= MIN_FORM_LENGTH);
    const signaturesLower = signatures.map((signature) => signature.toLowerCase());
    // A look whatever the case is exact only for ASCII forms; with any other, the text always "may hold" one.
    const signaturesAlways = signatures.length > 0 && !allAscii(signatures);
    // Built at the first text that may hold a signature: almost no answer echoes one.
    let signaturePattern: RegExp | undefined;
    const mayHoldSignature = (text: string) => {
      if (signatures.length === 0) return false;
      if (signaturesAlways || !lookFirst) return true;
      const folded = text.toLowerCase();
      return signaturesLower.some((form) => folded.includes(form));
    };
    return (text) => {
      let out = credentialsHidden(text, lookFirst);
      if (mayHoldSignature(out)) {
        signaturePattern ??= alternation(signatures, 'gi');
        const replaced = signaturePattern === undefined ? out : out.replace(signaturePattern, '[redacted:signature]');
        // A signature gone may leave "Basic" or a URL where a word boundary now lets them be seen.
        if (replaced !== out) out = credentialsHidden(replaced, lookFirst);
      }
      if (!mayHoldSecret(out)) return out;
      let hidden = out;
      if (exactPattern) hidden = hidden.replace(exactPattern, '[redacted:secret]');
      if (anyCasePattern) hidden = hidden.replace(anyCasePattern, '[redacted:secret]');
      // As after a signature: a secret gone may uncover credentials it was glued to.
      return hidden === out ? out : credentialsHidden(hidden, lookFirst);
    };
  };
  return Object.assign(build(options.signatures ?? []), {
    withSignatures: (signatures: readonly (string | undefined)[]) => build([...(options.signatures ?? []), ...signatures]),
  });
}

/** Headers as evidence, each value redacted; X-SIGNATURE as `[redacted]` unless `shown` says it is the
 *  evidence (a wrong one is; a right one would let anyone with the report send the request again). */
export function evidenceHeaders(
  headers: Iterable<readonly [string, string]>,
  redact: Redact,
  shown: (signature: string) => boolean = () => false,
): Record<string, string> {
  return Object.fromEntries(
    Array.from(headers, ([name, value]) => [name, name.toLowerCase() === 'x-signature' && !shown(value) ? '[redacted]' : redact(value)]),
  );
}
