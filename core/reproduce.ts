import { createdIdOf, freshIdPieces, type CreatedId } from './created-id.js';
import type { Exchange, Signing } from './exchange.js';

/**
 * Reproduce lines for a recorded exchange: a curl command that sends the same request, its signature
 * (or the defect a check put in it on purpose) rebuilt for the moment it runs, and a
 * `svc-conformance replay` command that resends the same body freshly signed. Both are pure
 * functions of the exchange.
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

/** The shell variable each configured secret is read from (P-CFG names the merchant's SVC_SECRET_KEY). */
const SECRET_VARIABLES = { merchant: 'SVC_SECRET_KEY', otherMerchant: 'SVC_OTHER_SECRET_KEY', otherEnvironment: 'SVC_OTHER_ENVIRONMENT_SECRET_KEY' } as const;
const SECRET_OWNERS = { merchant: 'the merchant', otherMerchant: 'the other merchant', otherEnvironment: 'the other environment' } as const;

/**
 * A secret's variable as the signing line reads it: unset or empty, bash stops there with a line
 * saying what to set, where openssl would sign with an empty key and the request would fail for that.
 */
function secretWord(who: keyof typeof SECRET_VARIABLES): string {
  const name = SECRET_VARIABLES[who];
  // No ' in the message: bash reads one inside ${…:?…} as a quote, even within double quotes.
  return `"\${${name}:?set ${name} to the secret key of ${SECRET_OWNERS[who]} (${who}.secretKey of the config)}"`;
}

/** X-SIGNATURE as the curl line sends it: a signature the line above could not compute (no secret) stops the command. */
const SIGNATURE_WORD = '${SIG:?no signature was computed: see the error above}';

/** A text inside a double-quoted shell word: only $, `, " and \ are special there. */
function inDoubleQuotes(text: string): string {
  return text.replace(/\0/g, '').replace(/[$`"\\]/g, '\\$&');
}

/** NOW, or NOW shifted by a number of seconds, as shell arithmetic. */
function nowPlus(offset: number): string {
  return offset === 0 ? '$NOW' : `$((NOW${offset > 0 ? '+' : '-'}${Math.abs(offset)}))`;
}

/**
 * X-TIMESTAMP as a shell word that means the same relative to the moment the line runs ($NOW) as the
 * recorded text did to the moment it was sent: 30 s old stays 30 s old, "<now>abc" stays "<now>abc",
 * milliseconds stay milliseconds. A text that holds no time stays as it was.
 */
export function timestampWord(text: string, sentAt: number): string {
  if (text === '') return "''";
  const WITHIN = 10 * 86_400;
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    if (Math.abs(value - sentAt) <= WITHIN) return `"${nowPlus(value - sentAt)}"`;
    const millis = value - sentAt * 1000;
    if (Math.abs(millis) <= WITHIN * 1000) return `"$((NOW*1000${millis >= 0 ? '+' : '-'}${Math.abs(millis)}))"`;
  }
  // A check reads the clock a moment before the request is sent: look a few seconds back.
  for (let back = 0; back <= 5; back++) {
    const seconds = sentAt - back;
    const hex = `0x${seconds.toString(16)}`;
    if (text.includes(hex)) return `"${text.split(hex).map(inDoubleQuotes).join(`0x$(printf %x ${nowPlus(-back)})`)}"`;
    if (text.includes(String(seconds))) return `"${text.split(String(seconds)).map(inDoubleQuotes).join(back === 0 ? '${NOW}' : nowPlus(-back))}"`;
  }
  return shellQuote(text);
}

/** Whether a line can rebuild the request's signature, or its defect, without being given a secret. */
function rebuildable(signing: Signing): boolean {
  return signing.edit !== 'replaced' && signing.secret !== 'unshown';
}

/**
 * The lines that set TS and SIG as the kit made them, moved to the moment the line runs: the same
 * secret (read from its variable), the same texts signed, the same change made to the signature.
 */
function signingScript(signing: Signing, headers: Record<string, string>, bodyWord: (text: string) => string): string[] {
  const lines = ['NOW=$(date +%s)', `TS=${timestampWord(signing.timestamp, signing.sentAt)}`];
  if (!Object.keys(headers).some(isSignatureHeader)) return lines;
  let signedBody = '"$BODY"';
  if (signing.signedBody !== undefined) {
    lines.push(`SIGNED_BODY=${bodyWord(signing.signedBody)}`);
    signedBody = '"$SIGNED_BODY"';
  }
  let signedTimestamp = '"$TS"';
  if (signing.signedTimestamp === '') signedTimestamp = '';
  else if (signing.signedTimestamp !== undefined) {
    lines.push(`SIGNED_TS=${timestampWord(signing.signedTimestamp, signing.sentAt)}`);
    signedTimestamp = '"$SIGNED_TS"';
  }
  const secret = typeof signing.secret === 'object' ? shellQuote(signing.secret.madeUp) : secretWord(signing.secret as keyof typeof SECRET_VARIABLES);
  lines.push(`SIG=$(printf %s ${signedBody}${signedTimestamp} | openssl dgst -sha256 -hmac ${secret} | sed 's/^.*= //')`);
  const edit = signing.edit;
  // An empty SIG (no secret) stays empty, so the curl line refuses to send it.
  if (edit === 'last-character-changed') lines.push(`case $SIG in '') ;; *0) SIG=\${SIG%?}1 ;; *) SIG=\${SIG%?}0 ;; esac`);
  else if (typeof edit === 'object') lines.push(`SIG=\${SIG:0:${edit.truncatedTo}}`);
  return lines;
}

/** The first comment line: what the command sends, and what it needs. */
function signingNote(exchange: Exchange, signing: Signing): string[] {
  const secret = typeof signing.secret === 'object' ? 'a made-up secret, shown' : `$${SECRET_VARIABLES[signing.secret as keyof typeof SECRET_VARIABLES]} (${signing.secret}.secretKey of the config)`;
  if (!rebuildable(signing)) {
    return [
      `Sent on purpose as: ${exchange.label}. Its X-SIGNATURE was made another way and is not shown (it may stand for a secret):`,
      'set SIG to such a signature (and X-TIMESTAMP to a fresh one) first, or the line does not send that defect.',
    ];
  }
  const what = signing.deliberate ? `the same defect again (${exchange.label})` : 'the request again as sent';
  const rebuilt = ['X-TIMESTAMP', 'X-SIGNATURE'].filter((name) => headerValue(exchange.request.headers, name) !== undefined);
  if (rebuilt.length === 0) return [`Sends ${what}.`];
  const signed = rebuilt.includes('X-SIGNATURE') ? `, with the secret from ${secret}; needs bash and openssl` : '';
  return [`Sends ${what}: ${rebuilt.join(' and ')} rebuilt for the moment it runs as the kit made ${rebuilt.length > 1 ? 'them' : 'it'}${signed}.`];
}

/** What a line does with the id of the record its request creates: made fresh, kept on purpose, or left to the reader. */
type IdHandling = { id: CreatedId; how: 'fresh' | 'kept' | 'yours' } | undefined;

function idNote(handling: IdHandling): string[] {
  if (handling === undefined) return [];
  const { field } = handling.id;
  if (handling.how === 'fresh') return [`Puts a fresh ${field} in the body ($FRESH, from the clock): the same one again would only be refused as a duplicate (409).`];
  if (handling.how === 'kept') return [`Sends the same ${field} again on purpose: the answer that failed was this 409 for it.`];
  return [`This request creates a record: sent with the same ${field} again it is only refused as a duplicate (409). Put a fresh ${field} in the body (and sign that body) first.`];
}

/** The caveats a reader needs before pasting the command: each becomes a `#` line above it. */
function curlNotes(exchange: Exchange, handling: IdHandling): string[] {
  const { headers, body } = exchange.request;
  const notes: string[] = [...idNote(handling)];
  const signing = exchange.signing;
  if (signing !== undefined) notes.push(...signingNote(exchange, signing));
  else if (Object.keys(headers).some(isSignatureHeader)) {
    // An exchange recorded without how it was signed (a client's own request): say how to compute one.
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

/** A shell word for the text with its created id replaced by `fresh` (a shell expansion of digits). */
function freshWord(text: string, id: CreatedId, fresh: string): string {
  const word = freshIdPieces(text, id).map((piece) => (piece === '' ? '' : shellQuote(piece))).join(fresh);
  return word === '' ? "''" : word;
}

/** Whether the request creates a record whose id, sent again, would be a duplicate; and what the line does about it. */
function idHandling(exchange: Exchange, script: boolean, inSequence: boolean): IdHandling {
  const id = createdIdOf(exchange.request.body);
  if (id === undefined) return undefined;
  // A 409 on its own is the duplicate answer that failed: a fresh id would be created, not refused.
  if (exchange.response?.status === 409 && !inSequence) return { id, how: 'kept' };
  return { id, how: script ? 'fresh' : 'yours' };
}

/**
 * A copy-pasteable command for the request: method, URL, every header as sent and the body with
 * --data-raw, which unlike --data neither strips newlines nor reads `@file`. A request the kit signed
 * gets its X-TIMESTAMP and X-SIGNATURE rebuilt for the moment the command runs, exactly as the kit
 * made them, a deliberate defect included (a header left out stays out); the secret comes from its
 * environment variable, never from the line. A request that creates a record gets a fresh id.
 *
 * `earlier` are the requests of the same evidence that created the same id before it (a refused
 * Create Order that stored the order anyway, then the 409): they are sent first, with the one fresh id.
 */
export function curlLine(exchange: Exchange, earlier: readonly Exchange[] = []): string {
  const sequence = [...earlier, exchange];
  const handlings = sequence.map((e) => idHandling(e, e.signing !== undefined && rebuildable(e.signing), earlier.length > 0));
  const lines = handlings.some((h) => h?.how === 'fresh') ? ['FRESH=$(date +%s)$RANDOM'] : [];
  // The evidence does not say whether the kit sent them in turn or at once: a race sent in turn may not show.
  if (earlier.length > 0) lines.push(`# Sends the ${sequence.length} requests of this evidence one after another. Where the kit sent them at once (a race), in turn they may not show it: the run line below sends them as the kit did.`);
  // An answer's body ends without a newline: each next request starts on a line of its own.
  sequence.forEach((e, i) => lines.push(...(i > 0 ? ['echo'] : []), requestLines(e, handlings[i])));
  return lines.join('\n');
}

function requestLines(exchange: Exchange, handling: IdHandling): string {
  const { method, url, headers, body } = exchange.request;
  const signing = exchange.signing;
  const script = signing !== undefined && rebuildable(signing);
  const bodyWord = (text: string) => (handling?.how === 'fresh' ? freshWord(text, handling.id, '"$FRESH"') : shellQuote(text));
  const parts = [`curl -sS -i -X ${shellQuote(method)} ${shellQuote(url)}`];
  for (const [name, value] of Object.entries(headers)) {
    // Only the header name goes into the double-quoted word, so nothing but $SIG or $TS is expanded.
    const safeName = name.replace(/[^A-Za-z0-9-]/g, '');
    if (isSignatureHeader(name)) parts.push(`-H "${safeName}: ${script ? SIGNATURE_WORD : '$SIG'}"`);
    else if (script && name.toLowerCase() === 'x-timestamp') parts.push(`-H "${safeName}: $TS"`);
    else parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  const sendsBody = body !== '' || method.toUpperCase() !== 'GET';
  if (sendsBody) parts.push(script ? '--data-raw "$BODY"' : `--data-raw ${shellQuote(body)}`);
  const setup = script ? [`BODY=${bodyWord(body)}`, ...signingScript(signing, headers, bodyWord)] : [];
  return [...curlNotes(exchange, handling), ...setup, parts.join(' \\\n  ')].join('\n');
}

/** Whether the exchange was sent wrong on purpose: then only a line that sends the same defect reproduces it. */
export function isDeliberate(exchange: Exchange): boolean {
  return exchange.signing?.deliberate === true;
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
  const signing = exchange.signing;
  const words = ['svc-conformance replay', `--config ${shellQuote(configHint)}`, `--method ${shellQuote(method)}`, `--path ${shellQuote(pathOf(url))}`];
  if (signing?.secret === 'otherMerchant') words.push('--as otherMerchant');
  if (body !== '') {
    // A record's id sent again is a duplicate (409): the replay creates under a fresh one, unless the 409 is what failed.
    const id = createdIdOf(body);
    words.push(`--body ${id !== undefined && exchange.response?.status !== 409 ? freshWord(body, id, '"$(date +%s)$RANDOM"') : shellQuote(body)}`);
  }
  return words.join(' ');
}

/** Where a trigger line delivers: a receiver the reader starts on this machine first (the kit's closed with the run). */
export const TRIGGER_RECEIVER = { port: 4020, url: 'http://127.0.0.1:4020/webhooks' } as const;

/**
 * A `svc-conformance trigger` command that makes the target send the event of a failed webhook
 * delivery again, to a receiver the reader starts first (the kit's closed with the run, and the target
 * may have no URL registered at all): trigger registers it while it runs, then puts the earlier one back.
 */
export function triggerLine(event: string | undefined, configHint = 'CONFIG.json'): string {
  return [
    `# First, in another terminal, a receiver that prints the delivery as it comes (method, headers, body): nc -l 127.0.0.1 ${TRIGGER_RECEIVER.port}`,
    '# (nc never answers, so the target sends it again later; or point --to at a receiver of your own).',
    `svc-conformance trigger ${event === undefined ? 'EVENT' : shellQuote(event)} --config ${shellQuote(configHint)} --to ${TRIGGER_RECEIVER.url}`,
  ].join('\n');
}
