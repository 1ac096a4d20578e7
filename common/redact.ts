/** Rewrites a text so that no secret it knows of survives in any form. */
export type Redact = (text: string) => string;

/** Encoded forms shorter than this are too likely to occur by chance to be replaced. */
const MIN_FORM_LENGTH = 8;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Credentials in an HTTP Basic header or in a URL's userinfo are secrets whatever they hold. */
const BASIC_AUTH = /\b(Basic)(\s+)[A-Za-z0-9+/_-]{4,}={0,2}/gi;
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>\\]+@/gi;
const BASIC_WORD = /basic/i;

/** Whether a token after "Basic" decodes to user:password (so prose such as "Basic checks" stays). */
function isBasicCredential(token: string): boolean {
  return Buffer.from(token, 'base64').toString('latin1').includes(':');
}

/**
 * The base64 text that a secret's bytes produce wherever they sit in a longer encoded value (as in
 * Basic auth's base64 of "key:secret"): one fragment for each of the three byte alignments, keeping
 * only the characters that depend on the secret alone.
 */
function base64Fragments(bytes: Buffer): string[] {
  const fragments: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    fragments.push(encoded.slice(Math.ceil((offset * 4) / 3), Math.floor(((offset + bytes.length) * 8) / 6)));
  }
  return fragments;
}

/**
 * Every form in which a secret has been seen to leak: as is, URL-encoded, hex in either case,
 * base64 and base64url (also inside a longer base64 value such as a Basic credential).
 * The first list is matched exactly (base64's letter case is its content: another case is other
 * bytes), the second whatever its letter case: the secret itself (code that upper-cases a message
 * still leaks it), hex and URL escapes, whose case carries no meaning.
 */
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
  return texts.length === 0
    ? undefined
    : new RegExp(
        [...new Set(texts)]
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join('|'),
        flags,
      );
}

/**
 * A cheap look for any of the texts, true whenever the alternation of them could match: most texts
 * hold none, and a string search costs far less than the regular expression (the suite redacts every
 * request and answer). Whatever the letter case only when every text is ASCII, where lower-casing
 * agrees with the expression's `i` flag; with any other text it always says "could".
 */
function mayHoldAny(texts: readonly string[], anyCase: boolean): (text: string) => boolean {
  // Nothing to look for (a redactor of signatures alone has no secret forms): no text folded to look.
  if (texts.length === 0) return () => false;
  if (!anyCase) return (text) => texts.some((form) => text.includes(form));
  const ascii = (form: string) => Array.from(form).every((char) => char.charCodeAt(0) < 0x80);
  if (!texts.every(ascii)) return () => true;
  const lower = texts.map((form) => form.toLowerCase());
  return (text) => {
    const folded = text.toLowerCase();
    return lower.some((form) => folded.includes(form));
  };
}

/** The forms of every secret: one list matched exactly, one whatever its letter case. */
function formsOf(secrets: readonly (string | undefined)[]): { exact: string[]; anyCase: string[] } {
  const exact: string[] = [];
  const anyCase: string[] = [];
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < 4) continue;
    const forms = secretForms(secret);
    exact.push(...forms.exact);
    anyCase.push(...forms.anyCase);
  }
  return { exact, anyCase };
}

/** The patterns of every form of the secrets: one matched exactly, one whatever its letter case. */
function secretPatterns(
  secrets: readonly (string | undefined)[],
  flags: '' | 'g',
): { exact?: RegExp | undefined; anyCase?: RegExp | undefined } {
  const { exact, anyCase } = formsOf(secrets);
  return { exact: alternation(exact, flags), anyCase: alternation(anyCase, `${flags}i`) };
}

/**
 * Whether a text holds a secret in any form the redactor removes: the client judge's test for a
 * secret sent on the wire (P-CLIENT), so what is judged and what is hidden never disagree.
 */
export function secretFinder(secrets: readonly (string | undefined)[]): (text: string) => boolean {
  const { exact, anyCase } = secretPatterns(secrets, '');
  return (text) => (exact?.test(text) ?? false) || (anyCase?.test(text) ?? false);
}

export interface RedactorOptions {
  /** Secret keys: every form of them becomes `[redacted:secret]`. */
  secrets?: readonly (string | undefined)[];
  /** Signatures sent or received: replaced in any letter case by `[redacted:signature]`. */
  signatures?: readonly (string | undefined)[];
}

/**
 * The kit's one redactor: console lines, reports, evidence and a client's relayed output all pass
 * through one of these. Basic credentials and URL userinfo go whatever they contain; secrets go in
 * every form `secretForms` knows; signatures in any letter case.
 */
export function createRedactor(options: RedactorOptions): Redact {
  const { exact: exactPattern, anyCase: anyCasePattern } = secretPatterns(options.secrets ?? [], 'g');
  const forms = formsOf(options.secrets ?? []);
  const signatures = (options.signatures ?? []).filter((s): s is string => typeof s === 'string' && s.length >= MIN_FORM_LENGTH);
  // Built on the first text that may hold a signature: the suite makes a redactor for every request's
  // own signature, and almost no answer echoes it, so the expression was mostly built for nothing.
  let signaturePattern: RegExp | undefined;
  // The expressions run only on a text that could hold what they match: one look for all three.
  const mayHold = [mayHoldAny(signatures, true), mayHoldAny(forms.exact, false), mayHoldAny(forms.anyCase, true)];
  return (text) => {
    let out = text;
    // Most texts hold neither: skip those two passes unless the text could (a cheap look first).
    if (BASIC_WORD.test(out))
      out = out.replace(BASIC_AUTH, (match, scheme: string, space: string) =>
        isBasicCredential(match.slice(scheme.length + space.length)) ? `${scheme}${space}[redacted:credentials]` : match,
      );
    if (out.includes('@')) out = out.replace(URL_USERINFO, '$1[redacted]@');
    if (!mayHold.some((look) => look(out))) return out;
    signaturePattern ??= alternation(signatures, 'gi');
    if (signaturePattern) out = out.replace(signaturePattern, '[redacted:signature]');
    if (exactPattern) out = out.replace(exactPattern, '[redacted:secret]');
    if (anyCasePattern) out = out.replace(anyCasePattern, '[redacted:secret]');
    return out;
  };
}

/**
 * Headers as evidence: each value through the redactor, and X-SIGNATURE (any letter case) as
 * `[redacted]` unless `shown` says this one is the evidence (a wrong signature is; a right one would be
 * a request anyone holding the report could send again).
 */
export function evidenceHeaders(
  headers: Iterable<readonly [string, string]>,
  redact: Redact,
  shown: (signature: string) => boolean = () => false,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) out[name] = name.toLowerCase() === 'x-signature' && !shown(value) ? '[redacted]' : redact(value);
  return out;
}
