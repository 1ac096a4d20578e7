// One webhook delivery: the signed request (P-HOOK-1) and the POST that carries it. The reference
// sandbox sends its events with it and verify-receiver its genuine and forged ones, so both speak
// the same wire format, with the same timeout and the same bounded read of the answer.
import type { Agent, request } from 'undici';
import { tlsProblemOf } from '../core/tls.js';
import { EVENT_ID_HEADER, type WebhookEvent } from '../core/webhooks.js';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';

/** A delivery as it goes on the wire: the body text and the headers, in the interface's spelling. */
export interface Delivery {
  body: string;
  headers: Record<string, string>;
}

/**
 * The genuine delivery of an event at a timestamp (P-HOOK-1): the canonical text of the event, and
 * the signature of P-SIGN-2 with the receiving merchant's secret over body + timestamp. Pure.
 */
export function signedDelivery(event: WebhookEvent, secret: string, timestamp: number): Delivery {
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
  error?: 'timeout' | 'refused' | 'reset' | 'other';
  errorMessage?: string;
  ms: number;
}

const KEPT_ANSWER_BYTES = 4 * 1024;
/** Past this, reading stops: a receiver's answer is judged by its status, not its body. */
const READ_ANSWER_BYTES = 64 * 1024;

/** Posts deliveries; one connection pool, closed with the sender. */
export class DeliveryClient {
  // undici takes about 100 ms to load: loaded at the first delivery, so a sandbox that sends no
  // webhook (or a library user who only imports the sandbox) does not pay for it.
  private connection?: Promise<{ agent: Agent; request: typeof request }>;
  private readonly closing = new AbortController();

  private connect(): Promise<{ agent: Agent; request: typeof request }> {
    this.connection ??= import('undici').then((undici) => ({
      agent: new undici.Agent({ connections: 16, keepAliveTimeout: 4_000 }),
      request: undici.request,
    }));
    return this.connection;
  }

  /** POSTs a delivery, waiting at most `timeoutMs` for the whole answer. Never throws. */
  async post(url: string, delivery: Delivery, timeoutMs: number): Promise<AttemptResult> {
    let started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    try {
      const { agent, request } = await this.connect();
      // The attempt's time is the receiver's, not the first load of undici.
      started = performance.now();
      const response = await request(url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        dispatcher: agent,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.closing.signal]),
      });
      const kept: Buffer[] = [];
      let read = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        if (read < KEPT_ANSWER_BYTES) kept.push(chunk.subarray(0, KEPT_ANSWER_BYTES - read));
        read += chunk.length;
        if (read >= READ_ANSWER_BYTES) {
          response.body.destroy();
          break;
        }
      }
      return { status: response.statusCode, body: new TextDecoder().decode(Buffer.concat(kept)), ms: ms() };
    } catch (error) {
      return { ...describeFailure(error, url, timeoutMs), ms: ms() };
    }
  }

  /** Cuts off every attempt in flight (they end as 'other' failures). */
  abort(): void {
    this.closing.abort();
  }

  async close(): Promise<void> {
    if (this.connection !== undefined) await (await this.connection).agent.close();
  }
}

function describeFailure(error: unknown, url: string, timeoutMs: number): Pick<AttemptResult, 'error' | 'errorMessage'> {
  const host = new URL(url).host;
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  const name = (error as { name?: string }).name;
  if (code === 'ECONNREFUSED') return { error: 'refused', errorMessage: `connection refused by ${host}` };
  if (
    name === 'TimeoutError' ||
    name === 'AbortError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return { error: 'timeout', errorMessage: `no answer from ${host} within ${timeoutMs / 1000} s` };
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return { error: 'reset', errorMessage: `${host} closed the connection without an answer` };
  const message = String((error as Error).message ?? error);
  const tls = tlsProblemOf(error);
  if (tls !== undefined) {
    return {
      error: 'other',
      errorMessage: `the TLS handshake with ${host} failed (${tls === 'untrusted-certificate' ? 'its certificate is not trusted' : 'it does not speak https: is the URL http?'})`,
    };
  }
  // One line: a transport's message may hold newlines (OpenSSL's do).
  return { error: 'other', errorMessage: `delivery to ${host} failed: ${message.replace(/\s+/g, ' ').slice(0, 300)}` };
}
