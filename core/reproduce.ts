import type { Exchange } from './exchange.js';

/**
 * Reproduce lines for a recorded exchange: a curl command that sends the same request (its
 * signature stays redacted, so the command says how to compute one) and a `svc-conformance replay`
 * command that resends the same body freshly signed. Both are pure functions of the exchange.
 */

/** Characters a POSIX shell takes literally outside quotes. */
const SHELL_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;
/** What http.ts writes after an evidence body it cut short. */
const TRUNCATED = /… \[\d+ more characters\]$/;
/** What the redactor writes in place of a secret or signature. */
const REDACTED = /\[redacted(?::[a-z]+)?\]/;

/**
 * One shell word for any text: bare when it is plainly safe, otherwise single-quoted, where a shell
 * expands nothing, with each ' written as '\'' (close, escaped quote, reopen). Newlines and UTF-8
 * pass through as they are. NUL cannot be carried in a shell argument at all, so it is dropped.
 */
export function shellQuote(text: string): string {
  const clean = text.replace(/\0/g, '');
  if (SHELL_SAFE.test(clean)) return clean;
  return `'${clean.replace(/'/g, `'\\''`)}'`;
}

function isSignatureHeader(name: string): boolean {
  return name.toLowerCase() === 'x-signature';
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
}

/** The caveats a reader needs before pasting the command: each becomes a `#` line above it. */
function curlNotes(exchange: Exchange): string[] {
  const { headers, body } = exchange.request;
  const notes: string[] = [];
  const signed = Object.keys(headers).some(isSignatureHeader);
  if (signed) {
    const timestamp = headerValue(headers, 'X-TIMESTAMP');
    const stamp = timestamp !== undefined && /^\d+$/.test(timestamp) ? timestamp : '"$(date +%s)"';
    notes.push(
      'X-SIGNATURE is redacted. Save the --data-raw text below as body.json, byte for byte, and compute it',
      `(secret from $SVC_SECRET_KEY), or use the replay line, which signs afresh:`,
      `SIG=$(svc-conformance sign --timestamp ${stamp} --file body.json)`,
    );
    if (timestamp !== undefined) notes.push('A server may refuse this old X-TIMESTAMP now; the replay line sends a fresh one.');
  }
  const otherHeaders = Object.entries(headers).filter(([name]) => !isSignatureHeader(name));
  if (REDACTED.test(body) || otherHeaders.some(([, value]) => REDACTED.test(value))) {
    notes.push('Values shown as [redacted…] were secrets in the evidence: put your own back before sending.');
  }
  if (TRUNCATED.test(body)) notes.push('The evidence kept only the start of this body: the command sends that shortened text.');
  if (body.includes('\0')) notes.push('The body held NUL bytes, which a shell argument cannot carry: they are left out.');
  return notes.map((note) => `# ${note.replace(/[\r\n]+/g, ' ')}`);
}

/**
 * A copy-pasteable curl command for the request as it was sent: method, URL, every header as sent
 * (X-SIGNATURE as "$SIG", explained in comment lines above), and the body with --data-raw, which
 * unlike --data neither strips newlines nor reads `@file`.
 */
export function curlLine(exchange: Exchange): string {
  const { method, url, headers, body } = exchange.request;
  const parts = [`curl -sS -i -X ${shellQuote(method)} ${shellQuote(url)}`];
  for (const [name, value] of Object.entries(headers)) {
    // Only the header name goes into the double-quoted word, so nothing but $SIG is expanded.
    if (isSignatureHeader(name)) parts.push(`-H "${name.replace(/[^A-Za-z0-9-]/g, '')}: $SIG"`);
    else parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (body !== '' || method.toUpperCase() !== 'GET') parts.push(`--data-raw ${shellQuote(body)}`);
  return [...curlNotes(exchange), parts.join(' \\\n  ')].join('\n');
}

/** The path and query of the request, which replay resends against the configured baseUrl. */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

/**
 * A `svc-conformance replay` command that resends the same method, path and body to the target of
 * the given config, with a fresh timestamp and signature, so a failure can be seen again after the
 * recorded timestamp has left the server's window.
 */
export function replayLine(exchange: Exchange, configHint = 'CONFIG.json'): string {
  const { method, url, body } = exchange.request;
  const words = ['svc-conformance replay', `--config ${shellQuote(configHint)}`, `--method ${shellQuote(method)}`, `--path ${shellQuote(pathOf(url))}`];
  if (body !== '') words.push(`--body ${shellQuote(body)}`);
  return words.join(' ');
}
