// One webhook delivery (P-HOOK-1) and the POST that carries it, shared by the sandbox and verify-receiver
// so both speak the same wire format, timeout and bounded read.
import type { Agent, request } from 'undici';
import { readBounded } from '../common/bounded-body.js';
import { transportFailureOf } from '../common/net-errors.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { TransportErrorCode } from '../core/exchange.js';
import { EVENT_ID_HEADER, type WebhookEvent } from '../core/webhooks.js';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';

/** A delivery as it goes on the wire: the body text and the headers, in the interface's spelling. */
export interface Delivery {
  body: string;
  headers: Record<string, string>;
}

/** An event's delivery (P-HOOK-1): its canonical text, signed per P-SIGN-2 over body + timestamp (a forgery's may be "….5"). */
export function signedDelivery(event: WebhookEvent, secret: string, timestamp: number | string): Delivery {
  const body = canonicalize(event);
  return { body, headers: deliveryHeaders(event.event_id, String(timestamp), hmacSha256Hex(secret, body + String(timestamp))) };
}

/** A delivery's headers; a part left undefined is left out (a forgery that lacks it). */
export function deliveryHeaders(
  eventId: string | undefined,
  timestamp: string | undefined,
  signature: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (signature !== undefined) headers['X-SIGNATURE'] = signature;
  if (timestamp !== undefined) headers['X-TIMESTAMP'] = timestamp;
  if (eventId !== undefined) headers[EVENT_ID_HEADER] = eventId;
  return headers;
}

/** What came of one attempt: the receiver's status, or why there was none, and how long it took. */
export interface AttemptResult {
  status?: number;
  /** The first bytes of the answer's body, as text (at most 4 KiB). */
  body?: string;
  error?: Exclude<TransportErrorCode, 'stopped'>;
  errorMessage?: string;
  ms: number;
}

const KEPT_ANSWER_BYTES = 4 * 1024;
/** Past this, reading stops: a receiver's answer is judged by its status, not its body. */
const READ_ANSWER_BYTES = 64 * 1024;

/** Posts deliveries; one connection pool, closed with the sender. */
export class DeliveryClient {
  // undici is slow to load: loaded at the first delivery, so a sandbox that sends no webhook does not pay for it.
  private connection?: Promise<{ agent: Agent; request: typeof request }>;
  private readonly closing = new AbortController();

  /** `clock`: the answer window's and durations' clock (a test's manual clock closes a window at once). */
  constructor(private readonly clock: Clock = systemClock) {}

  private connect(): Promise<{ agent: Agent; request: typeof request }> {
    this.connection ??= import('undici').then((undici) => ({
      agent: new undici.Agent({ connections: 16, keepAliveTimeout: 4_000 }),
      request: undici.request,
    }));
    return this.connection;
  }

  /** POSTs a delivery, waiting at most `timeoutMs` of the clock for the whole answer. Never throws. */
  async post(url: string, delivery: Delivery, timeoutMs: number): Promise<AttemptResult> {
    let started = this.clock.now();
    const ms = () => Math.round(this.clock.now() - started);
    const answered = new AbortController();
    const windowClosed = new AbortController();
    try {
      const { agent, request } = await this.connect();
      // The attempt's time and window are the receiver's, not the first load of undici.
      started = this.clock.now();
      void this.clock
        .sleep(timeoutMs, answered.signal)
        .then(() => windowClosed.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')));
      const response = await request(url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        dispatcher: agent,
        // Real-time bounds as well, whatever the clock: no attempt outlives the window in real time.
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.any([windowClosed.signal, this.closing.signal]),
      });
      const answer = await readBounded(response.body, { keep: KEPT_ANSWER_BYTES, stopAfter: READ_ANSWER_BYTES });
      return { status: response.statusCode, body: new TextDecoder().decode(answer.kept), ms: ms() };
    } catch (error) {
      return { ...attemptFailureOf(error, url, timeoutMs), ms: ms() };
    } finally {
      answered.abort();
    }
  }

  /** Cuts off every attempt in flight (they end as 'timeout' failures: common/net-errors.ts reads an abort as a wait cut short). */
  abort(): void {
    this.closing.abort();
  }

  async close(): Promise<void> {
    if (this.connection !== undefined) await (await this.connection).agent.close();
  }
}

/** Why an attempt got no answer, in a line for the sandbox's log and verify-receiver's evidence. */
export function attemptFailureOf(error: unknown, url: string, timeoutMs: number): Pick<AttemptResult, 'error' | 'errorMessage'> {
  const host = new URL(url).host;
  const failure = transportFailureOf(error);
  switch (failure.kind) {
    case 'refused':
      return { error: 'refused', errorMessage: `connection refused by ${host}` };
    case 'unresolved':
      return { error: 'unresolved', errorMessage: `cannot resolve ${host}: check the host name in the webhook URL` };
    case 'timeout':
      return { error: 'timeout', errorMessage: `no answer from ${host} within ${timeoutMs / 1000} s` };
    case 'reset':
      return { error: 'reset', errorMessage: `${host} closed the connection without an answer` };
    case 'tls':
      return {
        error: 'other',
        errorMessage: `the TLS handshake with ${host} failed (${failure.problem === 'untrusted-certificate' ? 'its certificate is not trusted' : 'it does not speak https: is the URL http?'})`,
      };
    case 'other': {
      // One line: a transport's message may hold newlines (OpenSSL's do).
      const message = String((error as Error).message ?? error);
      return { error: 'other', errorMessage: `delivery to ${host} failed: ${message.replace(/\s+/g, ' ').slice(0, 300)}` };
    }
  }
}
