import { Agent, request, errors as undiciErrors } from 'undici';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';
import type { TargetConfig } from './config.js';
import { redactor, type Redact } from './redact.js';

export interface Credentials {
  apiKey: string;
  secretKey: string;
}

export type AuthHeader = 'X-API-KEY' | 'X-SIGNATURE' | 'X-TIMESTAMP' | 'Content-Type' | 'Accept';

export interface SendOptions {
  /** What the exchange is for, shown with its evidence. */
  label: string;
  path: string;
  method?: 'GET' | 'POST';
  /** A JSON payload, sent as its canonical text (P-SIGN-3)… */
  payload?: unknown;
  /** …or a body text sent and signed exactly as given (malformed bodies, P-ERR-4). */
  raw?: string;
  /** Whose keys sign and identify the request; default the configured merchant. */
  as?: Credentials;
  /** X-TIMESTAMP as sent; default the client clock's whole seconds. */
  timestamp?: string | number;
  /** Sign with this timestamp text instead of the one sent (a timestamp changed after signing). */
  signedTimestamp?: string;
  /** Sign this text instead of the body sent (a body changed after signing), or null to leave the timestamp out. */
  signedBody?: string;
  /** Leave the timestamp out of the signed message (a client that signs the body alone). */
  signBodyOnly?: boolean;
  /** Replace the signature, e.g. to truncate or alter it. */
  signature?: string | ((signature: string) => string);
  omit?: readonly AuthHeader[];
  /** Header names as written: the interface's capitals, or all lower case (P-AUTH-1). */
  headerCase?: 'interface' | 'lower';
  /** Allow the same (timestamp, signature) as an earlier request: only the replay check wants it. */
  reuse?: boolean;
}

export interface Exchange {
  label: string;
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  response?: { status: number; headers: Record<string, string>; body: string; json?: unknown };
  /** A transport failure instead of a response: refused, timed out, reset. */
  error?: { code: TransportErrorCode; message: string };
  ms: number;
}

export type TransportErrorCode = 'refused' | 'timeout' | 'reset' | 'unresolved' | 'other';

export interface ClientOptions {
  /** How long to wait for an answer's headers, and then its body (ms). */
  timeoutMs?: number;
  /** The client clock, ms; injected for tests. */
  now?: () => number;
  /** Sees every exchange, redacted, as it completes. */
  onExchange?: (exchange: Exchange) => void;
}

const MAX_EVIDENCE_BODY = 8 * 1024;

/**
 * The one HTTP layer of the suites: signs (P-SIGN), sends with timeouts, records each exchange as
 * evidence with secrets and signatures redacted. Nothing else in the kit builds requests by hand.
 */
export class TargetClient {
  readonly redact: Redact;
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly used = new Set<string>();

  constructor(
    readonly config: TargetConfig,
    private readonly options: ClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.now = options.now ?? Date.now;
    this.agent = new Agent({ connections: 32, keepAliveTimeout: 10_000, connect: { timeout: this.timeoutMs } });
    this.redact = redactor(config);
  }

  /** The profile's signature of a text at a timestamp (P-SIGN-2), for checks that build their own headers. */
  signatureOf(text: string, timestamp: string, as: Credentials = this.config.merchant): string {
    return hmacSha256Hex(as.secretKey, text + timestamp);
  }

  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  async send(options: SendOptions): Promise<Exchange> {
    const as = options.as ?? this.config.merchant;
    const method = options.method ?? 'POST';
    const body = options.raw ?? (options.payload === undefined ? '' : canonicalize(options.payload));
    const timestamp = options.timestamp === undefined ? this.freshTimestamp(body, as) : String(options.timestamp);
    const signedText = (options.signedBody ?? body) + (options.signBodyOnly ? '' : (options.signedTimestamp ?? timestamp));
    let signature = hmacSha256Hex(as.secretKey, signedText);
    if (typeof options.signature === 'string') signature = options.signature;
    else if (options.signature) signature = options.signature(signature);
    if (!options.reuse) this.used.add(`${timestamp}\u0000${signature}`);

    const lower = options.headerCase === 'lower';
    const headers: Record<string, string> = {};
    const put = (name: AuthHeader, value: string) => {
      if (!options.omit?.includes(name)) headers[lower ? name.toLowerCase() : name] = value;
    };
    put('Content-Type', 'application/json');
    put('Accept', 'application/json');
    put('X-API-KEY', as.apiKey);
    put('X-TIMESTAMP', timestamp);
    put('X-SIGNATURE', signature);

    const url = this.config.baseUrl.replace(/\/+$/, '') + options.path;
    const started = performance.now();
    const exchange: Exchange = {
      label: options.label,
      request: { method, url, headers: this.redactHeaders(headers), body: this.evidenceText(body) },
      ms: 0,
    };
    try {
      const response = await request(url, {
        method,
        headers,
        ...(method === 'GET' ? {} : { body }),
        dispatcher: this.agent,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const text = await response.body.text();
      const responseHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) responseHeaders[name] = this.redact(Array.isArray(value) ? value.join(', ') : value);
      }
      exchange.response = { status: response.statusCode, headers: responseHeaders, body: this.evidenceText(text) };
      const json = parseJson(text);
      if (json !== undefined) exchange.response.json = JSON.parse(this.redact(JSON.stringify(json)));
    } catch (error) {
      exchange.error = describeTransportError(error, url, this.timeoutMs);
    }
    exchange.ms = Math.round(performance.now() - started);
    this.options.onExchange?.(exchange);
    return exchange;
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  /**
   * Whole seconds now, stepped back a second at a time if this exact request was already sent in
   * this second: a (timestamp, signature) pair is never reused (P-CLIENT-3), so a server that refuses
   * replays (P-AUTH-4) is not tripped by two identical reads.
   */
  private freshTimestamp(body: string, as: Credentials): string {
    let seconds = this.nowSeconds();
    for (let i = 0; i < 60; i++, seconds--) {
      const candidate = String(seconds);
      if (!this.used.has(`${candidate}\u0000${hmacSha256Hex(as.secretKey, body + candidate)}`)) return candidate;
    }
    return String(seconds);
  }

  private redactHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) out[name] = name.toLowerCase() === 'x-signature' ? '[redacted]' : this.redact(value);
    return out;
  }

  private evidenceText(text: string): string {
    const redacted = this.redact(text);
    return redacted.length > MAX_EVIDENCE_BODY ? `${redacted.slice(0, MAX_EVIDENCE_BODY)}… [${redacted.length - MAX_EVIDENCE_BODY} more characters]` : redacted;
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A transport failure as one sentence that names the problem and the fix. */
export function describeTransportError(error: unknown, url: string, timeoutMs: number): { code: TransportErrorCode; message: string } {
  const origin = new URL(url).host;
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'ECONNREFUSED') return { code: 'refused', message: `connection refused by ${origin}: is the server running, and is baseUrl right?` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'unresolved', message: `cannot resolve ${origin}: check the host name in baseUrl` };
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.ConnectTimeoutError || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { code: 'timeout', message: `no answer from ${origin} within ${timeoutMs / 1000} s: the server hangs or is unreachable` };
  }
  if (error instanceof undiciErrors.BodyTimeoutError || code === 'UND_ERR_BODY_TIMEOUT') {
    return { code: 'timeout', message: `${origin} started answering but its body did not arrive within ${timeoutMs / 1000} s` };
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || error instanceof undiciErrors.SocketError) {
    return { code: 'reset', message: `${origin} closed the connection without a complete HTTP answer` };
  }
  return { code: 'other', message: `request to ${origin} failed: ${(error as Error).message}` };
}
