import type { RecordedExchange } from '../sandbox/options.js';
import { OPERATIONS, operationAtPath, type OperationName } from '../core/operations.js';
import type { Exchange } from '../core/exchange.js';
import type { Redact } from '../suites/redact.js';
import { isJsonObject, jsonOf } from '../core/json-of.js';
import { evidenceHeaders } from '../common/redact.js';
import { BYTE_ORDER_MARK } from '../common/utf8.js';
import { SCENARIOS } from '../sandbox/scenarios.js';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';

/** One request of the client, as judged: what it was, what it said, and what became of it. */
export interface ClientRequest {
  /** Position in the client's traffic, from 1. */
  n: number;
  raw: RecordedExchange;
  path: string;
  operation?: OperationName;
  /** The sandbox's own pages (checkout) and control endpoints: not the client's API traffic. */
  sandboxPage: boolean;
  header(name: string): string | undefined;
  /** The parsed body, when it is JSON. */
  json?: unknown;
  responseJson?: unknown;
  /** The client never saw this answer: it sent its next request before the answer was ready. */
  unanswered: boolean;
  /** The earliest it can have reached the sandbox, ms (earliestArrivals). */
  earliestArrival: number;
}

/** The client's requests, in order of receipt. `all` is everything the sandbox handled meanwhile: what kept it
 * busy tells when a request can have arrived. */
export function classify(exchanges: readonly RecordedExchange[], all: readonly RecordedExchange[] = exchanges): ClientRequest[] {
  const ordered = [...exchanges].sort((a, b) => a.receivedAt - b.receivedAt);
  const subjects = ordered.map((x) => subjectOf(parsed('json', x.body).json));
  const arrivals = earliestArrivals(all);
  return ordered.map((raw, i) => {
    const path = raw.path.split('?')[0]!;
    const operation = operationAtPath(path);
    // Only a repeat about the same order or payout before the answer was ready means the client gave up; a
    // parallel unrelated request says nothing. Looking only at earlier receipts keeps this linear.
    let unanswered = false;
    for (let j = i + 1; j < ordered.length && ordered[j]!.receivedAt < raw.respondedAt - 1 && !unanswered; j++) {
      unanswered = sameSubject(subjects[i]!, subjects[j]!);
    }
    return {
      n: i + 1,
      raw,
      path,
      ...(operation ? { operation } : {}),
      sandboxPage: path.startsWith('/checkout/') || path.startsWith('/sandbox/'),
      header: (name: string) => headerOf(raw, name),
      ...parsed('json', raw.body),
      ...parsed('responseJson', raw.responseBody),
      unanswered,
      earliestArrival: arrivals.get(raw) ?? raw.receivedAt,
    };
  });
}

/** How long a busy sandbox may pause between one request and the next (tens of ms on loaded CI); a longer
 * pause means it was idle and the next request arrived when it was begun. */
const QUEUE_GAP_MS = 20;

/** When each request can have reached the sandbox at the earliest: while the sandbox was busy, since that
 * stretch began, but on a reused connection not before the previous answer (HTTP/1.1, no pipelining). */
function earliestArrivals(all: readonly RecordedExchange[]): Map<RecordedExchange, number> {
  const ordered = [...all].sort((a, b) => a.receivedAt - b.receivedAt);
  const earliest = new Map<RecordedExchange, number>();
  const lastAnswerOn = new Map<number, number>();
  let busySince = -Infinity;
  let busyUntil = -Infinity;
  for (const x of ordered) {
    if (x.receivedAt > busyUntil + QUEUE_GAP_MS) busySince = x.receivedAt;
    const previousAnswer = x.connection === undefined ? undefined : lastAnswerOn.get(x.connection);
    // A connection's first request may have been on the wire since the connection was accepted.
    const sentFrom = previousAnswer !== undefined ? Math.max(busySince, previousAnswer) : Math.min(busySince, x.connectedAt ?? Infinity);
    // A stall of the sandbox's own event loop (a loaded machine) delays when a request is read by as much.
    earliest.set(x, Math.min(x.receivedAt - (x.stalledMs ?? 0), sentFrom));
    // A held answer (a scenario's hang) waits on a timer: the sandbox is free meanwhile.
    busyUntil = Math.max(busyUntil, held(x) ? x.receivedAt : x.respondedAt);
    if (x.connection !== undefined) lastAnswerOn.set(x.connection, Math.max(lastAnswerOn.get(x.connection) ?? -Infinity, x.respondedAt));
  }
  return earliest;
}

function held(x: RecordedExchange): boolean {
  return x.scenario !== undefined && SCENARIOS[x.scenario].effect === 'hold';
}

/** Two requests about the same order_id or payout_order_id (a status query about it, or a repeat). */
export function aboutTheSame(a: ClientRequest, b: ClientRequest): boolean {
  return sameSubject(subjectOf(a.json), subjectOf(b.json));
}

/** The order_id and payout_order_id a request's body is about, if any. */
function subjectOf(json: unknown): [unknown, unknown] {
  return [field(json, 'order_id'), field(json, 'payout_order_id')];
}

/** Two requests about the same order_id or payout_order_id. */
function sameSubject([orderA, payoutA]: [unknown, unknown], [orderB, payoutB]: [unknown, unknown]): boolean {
  return (orderA !== undefined && orderA === orderB) || (payoutA !== undefined && payoutA === payoutB);
}

/** The parsed JSON of a body; a leading byte-order mark is stepped over here, while the byte rules
 * (signature, canonical body) still see it. */
function parsed(key: 'json' | 'responseJson', text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const json = jsonOf(key === 'json' ? withoutByteOrderMark(text) : text);
  return json === undefined ? {} : { [key]: json };
}

/** A recorded request's header, by name in any case. */
export function headerOf(x: RecordedExchange, name: string): string | undefined {
  return x.headers.find(([h]) => h.toLowerCase() === name.toLowerCase())?.[1];
}

/** The body after a leading UTF-8 byte-order mark, if it begins with one. */
export function withoutByteOrderMark(body: string): string {
  return body.startsWith(BYTE_ORDER_MARK) ? body.slice(BYTE_ORDER_MARK.length) : body;
}

/** A field of a JSON object body, as text (ids compare as text, P-DUP-4). */
export function field(value: unknown, name: string): string | undefined {
  const v = isJsonObject(value) ? value[name] : undefined;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

export function describe(r: ClientRequest): string {
  return `request #${r.n} (${r.operation ? OPERATIONS[r.operation].name : `${r.raw.method} ${r.path}`})`;
}

/** Whether X-SIGNATURE is one a server of either kind would take (over the bytes sent or their canonical
 * text): such a signature is a request anyone holding the report could replay. */
function isRightSignature(r: ClientRequest, signature: string, secretKey: string): boolean {
  const timestamp = headerOf(r.raw, 'x-timestamp');
  if (timestamp === undefined) return false;
  if (signature === hmacSha256Hex(secretKey, r.raw.body + timestamp)) return true;
  try {
    return signature === hmacSha256Hex(secretKey, canonicalize(JSON.parse(r.raw.body)) + timestamp);
  } catch {
    return false;
  }
}

/** A recorded request as evidence, secrets redacted; X-SIGNATURE shown when wrong (CLIENT-SIGNATURE and
 * diagnose need it), redacted when right. */
export function asEvidence(r: ClientRequest, baseUrl: string, redact: Redact, secretKey: string | undefined): Exchange {
  const sent = r.raw.headers.filter(([name]) => name !== 'host' && name !== 'content-length' && name !== 'connection');
  // Without the secret a signature cannot be told right or wrong: it is redacted as if it were right.
  const headers = evidenceHeaders(sent, redact, (signature) => secretKey !== undefined && !isRightSignature(r, signature, secretKey));
  return {
    label: describe(r),
    request: { method: r.raw.method, url: redact(baseUrl + r.raw.path), headers, body: redact(r.raw.body) },
    response: {
      status: r.raw.status,
      headers: r.raw.retryAfter !== undefined ? { 'retry-after': r.raw.retryAfter } : {},
      body: redact(r.raw.responseBody),
      ...(r.responseJson !== undefined ? { json: JSON.parse(redact(JSON.stringify(r.responseJson))) } : {}),
    },
    ms: Math.round(r.raw.respondedAt - r.raw.receivedAt),
  };
}

/** A path segment decoded, or as it came when a client sent a malformed escape (it names no record then). */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
