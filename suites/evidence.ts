// What a run keeps of each exchange as evidence: its texts shortened and redacted, how its request
// was signed, its answer as read, and a transport failure as one sentence naming the fix.
import type { HttpAnswer, Signing, TransportErrorCode } from '../core/exchange.js';
import type { BoundedBody } from '../common/bounded-body.js';
import { transportFailureOf } from '../common/net-errors.js';
import { jsonOf } from '../core/json-of.js';
import type { TargetConfig } from './config.js';
import type { Answer } from './dispatch.js';
import type { Redact } from './redact.js';
import { isMisSigned, type Credentials, type SendOptions } from './send-options.js';

const MAX_EVIDENCE_BODY = 8 * 1024;
/** Of an answer's body, this much is kept (to judge and show); the rest is read, counted and dropped. */
export const MAX_KEPT_BODY = 1024 * 1024;
/** Past this much, reading stops and the connection is dropped: the target is flooding. */
const MAX_READ_BODY = 64 * 1024 * 1024;
export const LIMITS = { keep: MAX_KEPT_BODY, stopAfter: MAX_READ_BODY };

/** What the evidence says about a body that was not kept whole. */
export function cutNote(body: BoundedBody): string {
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MiB`;
  return body.stopped
    ? `[the target sent more than ${mib(body.receivedBytes)} and kept sending; the kit kept the first ${mib(MAX_KEPT_BODY)}, stopped reading and closed the connection]`
    : `[the target sent ${body.receivedBytes} bytes; the kit kept the first ${MAX_KEPT_BODY} and discarded the rest]`;
}

/** Decodes each answer (a whole body at a time, so one decoder serves every request). */
const UTF8 = new TextDecoder('utf-8');

/** An answer as evidence, with what `hide` hides hidden, and its JSON unless its body was cut. */
export function answerOf(response: Answer, hide: Redact): HttpAnswer {
  const { body: bounded, headers } = response;
  // A character cut at the end of what was kept decodes as U+FFFD, not as an error.
  const text = UTF8.decode(bounded.kept);
  for (const name of Object.keys(headers)) headers[name] = hide(headers[name]!);
  const hidden = hide(text);
  const answer: HttpAnswer = { status: response.status, headers, body: shortened(hidden) + (bounded.cut ? `\n… ${cutNote(bounded)}` : '') };
  // Half a JSON document is not the answer: a cut body is judged as text only.
  const json = bounded.cut ? undefined : jsonOf(text);
  // Nothing to hide (the usual case): the parsed body as it is; else parsed again with it hidden
  // (a text with escapes may spell a secret as \u0073k_…: that one is always serialized again).
  if (json !== undefined) answer.json = hidden === text && !text.includes('\\') ? json : JSON.parse(hide(JSON.stringify(json)));
  return answer;
}

/** How this request was signed, for a reproduce line: whose secret by its config key (a made-up one is
 *  kept), the texts signed, and what was done to the signature; nothing secret. */
export function signingOf(
  config: TargetConfig,
  redact: Redact,
  options: SendOptions,
  sent: { as: Credentials; timestamp: string; computed: string; signature: string; sentAt: number },
): Signing {
  const { as, timestamp, computed, signature } = sent;
  const owners = ['merchant', 'otherMerchant', 'otherEnvironment'] as const;
  const configured = owners.find((key) => config[key]?.apiKey === as.apiKey && config[key]?.secretKey === as.secretKey);
  const secretOwner = owners.find((key) => config[key]?.secretKey === as.secretKey);
  // A secret of the config under another key, or anything the redactor would hide, is never written down.
  const secret = secretOwner ?? (redact(as.secretKey) === as.secretKey ? { madeUp: as.secretKey } : 'unshown');
  // An edit the check's own function made is named; any other signature is said to be replaced.
  const edited = typeof options.signature === 'function';
  let edit: Signing['edit'];
  if (signature === computed) edit = undefined;
  else if (edited && signature.length < computed.length && computed.startsWith(signature)) edit = { truncatedTo: signature.length };
  else if (edited && signature.length === computed.length && signature.slice(0, -1) === computed.slice(0, -1))
    edit = 'last-character-changed';
  else edit = 'replaced';
  // Timestamps are texts a check chose (a team's may pass its secret as one): kept only redacted,
  // so the reproduce lines built from them are clean too. A made-up secret is kept only if nothing in it is hidden (above).
  const signedTimestamp = options.signBodyOnly ? '' : options.signedTimestamp === undefined ? undefined : redact(options.signedTimestamp);
  return {
    sentAt: sent.sentAt,
    timestamp: redact(timestamp),
    secret,
    // A key and secret not of a merchant replay can sign as, or a chosen timestamp, is part of what the check judges.
    deliberate: isMisSigned(options) || (configured !== 'merchant' && configured !== 'otherMerchant') || options.timestamp !== undefined,
    ...(options.signedBody !== undefined ? { signedBody: shortened(redact(options.signedBody)) } : {}),
    ...(signedTimestamp !== undefined ? { signedTimestamp } : {}),
    ...(edit !== undefined ? { edit } : {}),
  };
}

/** A text as evidence keeps it: at most MAX_EVIDENCE_BODY characters, saying how many more there were. */
export function shortened(text: string): string {
  return text.length > MAX_EVIDENCE_BODY
    ? `${text.slice(0, MAX_EVIDENCE_BODY)}… [${text.length - MAX_EVIDENCE_BODY} more characters]`
    : text;
}

/** A transport failure as one sentence that names the problem and the fix. */
export function describeTransportError(error: unknown, url: string, timeoutMs: number): { code: TransportErrorCode; message: string } {
  const origin = new URL(url).host;
  const failure = transportFailureOf(error);
  if (failure.kind === 'refused')
    return { code: 'refused', message: `connection refused by ${origin}: is the server running, and is baseUrl right?` };
  if (failure.kind === 'unresolved') return { code: 'unresolved', message: `cannot resolve ${origin}: check the host name in baseUrl` };
  if (failure.kind === 'timeout') return { code: 'timeout', message: timeoutMessage(origin, failure.wait, timeoutMs / 1000) };
  if (failure.kind === 'reset') return { code: 'reset', message: `${origin} closed the connection without a complete HTTP answer` };
  if (failure.kind === 'tls' && failure.problem === 'not-tls')
    return { code: 'other', message: `the server at https://${origin} does not speak TLS: did you mean http://${origin}?` };
  return { code: 'other', message: `request to ${origin} failed: ${(error as Error).message}` };
}

function timeoutMessage(origin: string, wait: 'whole' | 'connect' | 'headers' | 'body', seconds: number): string {
  if (wait === 'whole') return `no complete answer from ${origin} within ${seconds} s: the server hangs or answers too slowly`;
  if (wait === 'body') return `${origin} started answering but its body did not arrive within ${seconds} s`;
  return `no answer from ${origin} within ${seconds} s: the server hangs or is unreachable`;
}
