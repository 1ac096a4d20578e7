import { changedIdOf, createdIdOf, freshIdPieces, sameId, type CreatedId } from './created-id.js';
import type { Exchange, Signing } from './exchange.js';
import { jsonOf } from './json-of.js';

// Reproduce lines for a recorded exchange: a curl command with its signature (or deliberate defect)
// rebuilt for the moment it runs. Pure functions of the exchange.

/** Characters a POSIX shell takes literally outside quotes. */
const SHELL_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;
/** What http.ts writes after an evidence body it cut short. */
const TRUNCATED = /… \[\d+ more characters\]$/;
/** What the redactor writes in place of a secret or signature. */
const REDACTED = /\[redacted(?::[a-z]+)?\]/;

/** One shell word for any text: single-quoted unless plainly safe. NUL cannot be carried in a shell argument, so it is dropped. */
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

/** The shell variable each configured secret is read from: P-CFG's own, as the run reads them. */
const SECRET_VARIABLES = {
  merchant: 'SVC_SECRET_KEY',
  otherMerchant: 'SVC_OTHER_SECRET_KEY',
  otherEnvironment: 'SVC_OTHER_ENV_SECRET_KEY',
} as const;
const SECRET_OWNERS = { merchant: 'the merchant', otherMerchant: 'the other merchant', otherEnvironment: 'the other environment' } as const;

/** A secret's variable, read with `:?` so bash stops when it is unset, rather than openssl signing with an empty key. */
function secretWord(who: keyof typeof SECRET_VARIABLES): string {
  const name = SECRET_VARIABLES[who];
  // No ' in the message: bash reads one inside ${…:?…} as a quote, even within double quotes.
  return `"\${${name}:?set ${name} to the secret key of ${SECRET_OWNERS[who]} (${who}.secretKey of the config)}"`;
}

/** X-SIGNATURE as the curl line sends it: a signature the line above could not compute (no secret) stops the command. */
function signatureWord(n: string): string {
  return `\${SIG${n}:?no signature was computed: see the error above}`;
}

/** A text inside a double-quoted shell word: only $, `, " and \ are special there. */
function inDoubleQuotes(text: string): string {
  return text.replace(/\0/g, '').replace(/[$`"\\]/g, '\\$&');
}

/** A double-quoted shell word for the text with every `find` replaced by the expansion `by`. */
function replacedInDoubleQuotes(text: string, find: string, by: string): string {
  return `"${text.split(find).map(inDoubleQuotes).join(by)}"`;
}

/** NOW, or NOW shifted by a number of seconds, as shell arithmetic. */
function nowPlus(offset: number): string {
  return offset === 0 ? '$NOW' : `$((NOW${offset > 0 ? '+' : '-'}${Math.abs(offset)}))`;
}

/** X-TIMESTAMP as a shell word that means the same relative to $NOW as the recorded text did to its sending:
 * 30 s old stays 30 s old, milliseconds stay milliseconds. */
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
    if (text.includes(hex)) return replacedInDoubleQuotes(text, hex, `0x$(printf %x ${nowPlus(-back)})`);
    if (text.includes(String(seconds))) return replacedInDoubleQuotes(text, String(seconds), back === 0 ? '${NOW}' : nowPlus(-back));
  }
  return shellQuote(text);
}

/** Whether a line can rebuild the request's signature, or its defect, without being given a secret. */
function rebuildable(signing: Signing): boolean {
  return signing.edit !== 'replaced' && signing.secret !== 'unshown';
}

/** Whether a right signature's timestamp lagged its sending only because the kit read the clock early: keeping
 * that lag (NOW-1) could resend the run's own timestamp and be refused as a replay (401), so such a line stamps NOW. */
function stampedJustBefore(signing: Signing): boolean {
  if (signing.deliberate || signing.signedTimestamp !== undefined || !/^\d+$/.test(signing.timestamp)) return false;
  const lag = signing.sentAt - Number(signing.timestamp);
  return lag > 0 && lag <= 5;
}

/** The lines that set TS and SIG as the kit made them, moved to the moment the line runs.
 * `n` ends each variable's name, so raced requests prepared in turn keep theirs apart. */
function signingScript(
  signing: Signing,
  headers: Record<string, string>,
  bodyWord: (text: string) => string,
  n: string,
  runsBody: boolean,
): string[] {
  const lines = [
    'NOW=$(date +%s)',
    `TS${n}=${runsBody && stampedJustBefore(signing) ? '"$NOW"' : timestampWord(signing.timestamp, signing.sentAt)}`,
  ];
  if (!Object.keys(headers).some(isSignatureHeader)) return lines;
  let signedBody = `"$BODY${n}"`;
  if (signing.signedBody !== undefined) {
    lines.push(`SIGNED_BODY${n}=${bodyWord(signing.signedBody)}`);
    signedBody = `"$SIGNED_BODY${n}"`;
  }
  let signedTimestamp = `"$TS${n}"`;
  if (signing.signedTimestamp === '') signedTimestamp = '';
  else if (signing.signedTimestamp !== undefined) {
    lines.push(`SIGNED_TS${n}=${timestampWord(signing.signedTimestamp, signing.sentAt)}`);
    signedTimestamp = `"$SIGNED_TS${n}"`;
  }
  const secret =
    typeof signing.secret === 'object' ? shellQuote(signing.secret.madeUp) : secretWord(signing.secret as keyof typeof SECRET_VARIABLES);
  const sig = `SIG${n}`;
  lines.push(`${sig}=$(printf %s ${signedBody}${signedTimestamp} | openssl dgst -sha256 -hmac ${secret} | sed 's/^.*= //')`);
  const edit = signing.edit;
  // An empty SIG (no secret) stays empty, so the curl line refuses to send it.
  if (edit === 'last-character-changed') lines.push(`case $${sig} in '') ;; *0) ${sig}=\${${sig}%?}1 ;; *) ${sig}=\${${sig}%?}0 ;; esac`);
  else if (typeof edit === 'object') lines.push(`${sig}=\${${sig}:0:${edit.truncatedTo}}`);
  return lines;
}

/** The first comment line: what the command sends, and what it needs. */
function signingNote(exchange: Exchange, signing: Signing): string[] {
  const secret =
    typeof signing.secret === 'object'
      ? 'a made-up secret, shown'
      : `$${SECRET_VARIABLES[signing.secret as keyof typeof SECRET_VARIABLES]} (${signing.secret}.secretKey of the config)`;
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
  return [
    `Sends ${what}: ${rebuilt.join(' and ')} rebuilt for the moment it runs as the kit made ${rebuilt.length > 1 ? 'them' : 'it'}${signed}.`,
  ];
}

/** What a line does with the id of the record its request creates: made fresh, kept on purpose, or left to the reader. */
type IdHandling = { id: CreatedId; how: 'fresh' | 'kept' | 'yours' | 'made above' } | undefined;

function idNote(handling: IdHandling): string[] {
  if (handling === undefined) return [];
  const { field } = handling.id;
  if (handling.how === 'fresh')
    return [`Puts a fresh ${field} in the body ($FRESH, from the clock): the same one again would only be refused as a duplicate (409).`];
  if (handling.how === 'made above')
    return [`Acts on the record the request above just made (its ${field} made fresh with $FRESH): the run's own one is changed by now.`];
  if (handling.how === 'kept') return [`Sends the same ${field} again on purpose: the answer that failed was this 409 for it.`];
  return [
    `This request creates a record: sent with the same ${field} again it is only refused as a duplicate (409). Put a fresh ${field} in the body (and sign that body) first.`,
  ];
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
export function freshWord(text: string, id: CreatedId, fresh: string): string {
  const word = freshIdPieces(text, id)
    .map((piece) => (piece === '' ? '' : shellQuote(piece)))
    .join(fresh);
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

/** What a curl script sends beside the failing request: the requests that made its record first, and raced
 * copies alongside. `recordChanged`: no request in the evidence makes a fresh record, so only the run line reproduces it. */
interface ScriptPlan {
  before: readonly Exchange[];
  alongside: readonly Exchange[];
  recordChanged?: boolean;
}

const ALONE: ScriptPlan = { before: [], alongside: [] };

function signedRight(exchange: Exchange): boolean {
  return exchange.signing !== undefined && !exchange.signing.deliberate && rebuildable(exchange.signing);
}

/** The amount a create asks for, as its JSON says it. */
function amountOf(body: string): unknown {
  const parsed = jsonOf(body) as { order_amount?: unknown; amount?: unknown } | null | undefined;
  return parsed?.order_amount ?? parsed?.amount;
}

/** Whether two requests are one create raced (DUP-CONCURRENT, OPS-INITIATE-CONCURRENT); a check's deliberate
 * second create differs (amount, signature), and there the order matters. */
function sameCreate(a: Exchange, b: Exchange): boolean {
  return (
    a.request.url === b.request.url &&
    sameId(createdIdOf(a.request.body), createdIdOf(b.request.body)) &&
    signedRight(a) &&
    signedRight(b) &&
    JSON.stringify(a.signing!.secret) === JSON.stringify(b.signing!.secret) &&
    amountOf(a.request.body) === amountOf(b.request.body)
  );
}

/** What the script for `first` sends beside it, from the other requests of its evidence (in the order they were sent). */
export function scriptPlan(first: Exchange, others: readonly Exchange[]): ScriptPlan {
  const created = createdIdOf(first.request.body);
  if (created !== undefined) {
    const same = others.filter((e) => e.request.url === first.request.url && sameId(createdIdOf(e.request.body), created));
    if (same.length === 0) return ALONE;
    return same.every((e) => sameCreate(e, first)) ? { before: [], alongside: same } : { before: same, alongside: [] };
  }
  const changed = changedIdOf(first.request);
  if (changed === undefined) return ALONE;
  // The record is made afresh by the create of the evidence that made it, signed right, under $FRESH.
  const maker = others.find((e) => signedRight(e) && sameId(createdIdOf(e.request.body), changed));
  if (maker === undefined || first.signing === undefined || !rebuildable(first.signing)) return { ...ALONE, recordChanged: true };
  // The same request, signed right, sent with it: concurrent cancels of one order (OPS-CANCEL-CONCURRENT).
  const alongside = signedRight(first)
    ? others.filter((e) => e.request.url === first.request.url && e.request.body === first.request.body && signedRight(e))
    : [];
  return { before: [maker], alongside };
}

/** A copy-pasteable curl command (--data-raw: unlike --data it neither strips newlines nor reads `@file`); the
 * secret comes from its variable, never the line. With a plan it is a script: record makers first, then raced copies. */
export function curlLine(exchange: Exchange, plan: ScriptPlan = ALONE): string {
  const inSequence = plan.before.length + plan.alongside.length > 0;
  const changed = plan.before.length > 0 ? changedIdOf(exchange.request) : undefined;
  const handlingOf = (e: Exchange): IdHandling =>
    changed !== undefined && e !== plan.before[0]
      ? { id: changed, how: 'made above' }
      : idHandling(e, e.signing !== undefined && rebuildable(e.signing), inSequence);
  const group = [exchange, ...plan.alongside];
  const handlings = [...plan.before, ...group].map(handlingOf);
  const lines = handlings.some((h) => h !== undefined && h.how !== 'kept' && h.how !== 'yours') ? ['FRESH=$(date +%s)$RANDOM'] : [];
  if (plan.recordChanged)
    lines.push(
      '# The run changed the record this request acts on, and its evidence holds no request that makes a fresh one: sent again it is answered for the changed record, so only the run line below reproduces the failure.',
    );
  if (plan.before.length > 0 && plan.alongside.length === 0)
    lines.push(
      `# Sends the ${plan.before.length + 1} requests of this evidence one after another, in the order the kit sent them: each next one is about the record the one before made.`,
    );
  // An answer's body ends without a newline: each next request starts on a line of its own.
  plan.before.forEach((e, i) => lines.push(...(i > 0 ? ['echo'] : []), requestLines(e, handlingOf(e))));
  if (plan.before.length > 0) lines.push('echo');
  if (plan.alongside.length === 0) lines.push(requestLines(exchange, handlingOf(exchange)));
  else lines.push(...raceLines(group, group.map(handlingOf)));
  return lines.join('\n');
}

/** Raced copies: all signed first (openssl is slow), then sent together in the background; sent in turn,
 * a target may answer rightly (201, then 409s) and hide the race. */
function raceLines(group: readonly Exchange[], handlings: readonly IdHandling[]): string[] {
  const lines = [
    `# Sends these ${group.length} requests at once, as the kit did (a race): all are prepared first, then sent together; their answers are printed in order once all are back. A race may not show on every try: run it a few times.`,
  ];
  const commands: string[] = [];
  group.forEach((e, i) => {
    const parts = requestParts(e, handlings[i], `_${i + 1}`);
    // The same notes would say the same thing again for each copy.
    lines.push(...(i === 0 ? parts.notes : []), ...parts.setup);
    commands.push(`${parts.command} >"$OUT/${i + 1}" 2>&1 &`);
  });
  const numbers = group.map((_, i) => i + 1).join(' ');
  return [...lines, 'OUT=$(mktemp -d)', ...commands, 'wait', `for i in ${numbers}; do cat "$OUT/$i"; echo; done`, 'rm -r "$OUT"'];
}

function requestLines(exchange: Exchange, handling: IdHandling): string {
  const { notes, setup, command } = requestParts(exchange, handling, '');
  return [...notes, ...setup, command].join('\n');
}

/** One request of a script: its `#` notes, the lines that set its body and signature, and the curl command. */
function requestParts(exchange: Exchange, handling: IdHandling, n: string): { notes: string[]; setup: string[]; command: string } {
  const { method, url, headers, body } = exchange.request;
  const signing = exchange.signing;
  const script = signing !== undefined && rebuildable(signing);
  const fresh = handling !== undefined && handling.how !== 'kept' && handling.how !== 'yours';
  const bodyWord = (text: string) => (fresh ? freshWord(text, handling.id, '"$FRESH"') : shellQuote(text));
  const parts = [`curl -sS -i -X ${shellQuote(method)} ${shellQuote(url)}`];
  for (const [name, value] of Object.entries(headers)) {
    // Only the header name goes into the double-quoted word, so nothing but $SIG or $TS is expanded.
    const safeName = name.replace(/[^A-Za-z0-9-]/g, '');
    if (isSignatureHeader(name)) parts.push(`-H "${safeName}: ${script ? signatureWord(n) : '$SIG'}"`);
    else if (script && name.toLowerCase() === 'x-timestamp') parts.push(`-H "${safeName}: $TS${n}"`);
    else parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  const sendsBody = body !== '' || method.toUpperCase() !== 'GET';
  if (sendsBody) parts.push(script ? `--data-raw "$BODY${n}"` : `--data-raw ${shellQuote(body)}`);
  const setup = script ? [`BODY${n}=${bodyWord(body)}`, ...signingScript(signing, headers, bodyWord, n, !fresh)] : [];
  return { notes: curlNotes(exchange, handling), setup, command: parts.join(' \\\n  ') };
}

/** Whether the exchange was sent wrong on purpose: then only a line that sends the same defect reproduces it. */
export function isDeliberate(exchange: Exchange): boolean {
  return exchange.signing?.deliberate === true;
}
