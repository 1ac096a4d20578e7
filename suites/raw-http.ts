// P-HTTP-3 cannot be judged through the kit's HTTP layer (suites/http.ts): undici frames an answer by
// its Content-Length, so a wrong one is never seen, only its effects. Here one socket is written and
// read by hand: an answer read to the connection's close shows how many bytes really came, and two
// requests on one connection show whether it stays usable after an error. Signing and redaction are
// the kit's own (TargetClient.signatureOf, its redactor); nothing else builds requests this way.
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { Exchange } from './http.js';
import type { CheckContext } from './check.js';

/** More than this is not read: an answer that large is no answer to these requests. */
const MAX_RAW_BYTES = 1024 * 1024;
const TIMEOUT_MS = 10_000;

export interface RawRequest {
  label: string;
  path: string;
  /** The body text, sent as given and signed (canonical text of a payload, or a malformed body). */
  body: string;
}

/** One answer as it came off the wire. */
export interface RawAnswer {
  status: number;
  /** Header names in lower case; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  /** The body's bytes: to the close (read-to-close), or as framed (on a kept-alive connection). */
  body: Buffer;
}

/** The request's head and body, signed as the profile signs (P-SIGN-2), fresh timestamp. */
function requestBytes(ctx: CheckContext, request: RawRequest, host: string, close: boolean): Buffer {
  const timestamp = String(ctx.client.nowSeconds());
  const body = Buffer.from(request.body, 'utf8');
  const head = [
    `POST ${request.path} HTTP/1.1`, `Host: ${host}`, 'Content-Type: application/json', 'Accept: application/json',
    `X-API-KEY: ${ctx.config.merchant.apiKey}`, `X-TIMESTAMP: ${timestamp}`, `X-SIGNATURE: ${ctx.client.signatureOf(request.body, timestamp)}`,
    `Content-Length: ${body.length}`, `Connection: ${close ? 'close' : 'keep-alive'}`,
  ];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** The exchange as evidence, redacted as every other (the signature never shown). */
export function rawEvidence(ctx: CheckContext, request: RawRequest, answer: RawAnswer | undefined, problem?: string): Exchange {
  const sent = {
    label: request.label,
    request: {
      method: 'POST', url: ctx.client.redact(ctx.config.baseUrl.replace(/\/+$/, '') + request.path),
      headers: { 'Content-Type': 'application/json', 'X-API-KEY': ctx.client.redact(ctx.config.merchant.apiKey), 'X-SIGNATURE': '[redacted]' },
      body: ctx.client.redact(request.body),
    },
    ms: 0,
  };
  if (answer === undefined) return { ...sent, error: { code: 'reset', message: problem ?? 'no complete HTTP answer' } };
  const text = ctx.client.redact(answer.body.toString('utf8'));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { ...sent, response: { status: answer.status, headers: answer.headers, body: text.slice(0, 8192), ...(json !== undefined ? { json } : {}) } };
}

/** A socket to the target, plain or TLS as its base URL says, with every byte it receives collected. */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  readonly host: string;

  private constructor(private readonly socket: Socket, host: string) {
    this.host = host;
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    socket.on('data', (chunk: Buffer) => {
      if (this.buffer.length + chunk.length > MAX_RAW_BYTES) socket.destroy(new Error('the answer is larger than 1 MiB'));
      else this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    socket.on('end', () => { this.ended = true; this.wake?.(); });
    socket.on('close', () => { this.ended = true; this.wake?.(); });
    socket.on('error', (error) => { this.failure = error; this.ended = true; this.wake?.(); });
  }

  static open(baseUrl: string): Promise<RawConnection> {
    const url = new URL(baseUrl);
    const tls = url.protocol === 'https:';
    const port = Number(url.port || (tls ? 443 : 80));
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    return new Promise((resolve, reject) => {
      const socket = tls ? connectTls({ host: hostname, port, servername: hostname }) : connectTcp(port, hostname);
      socket.once(tls ? 'secureConnect' : 'connect', () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket, url.host));
      });
      socket.once('error', reject);
    });
  }

  write(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  close(): void {
    this.socket.destroy();
  }

  /** Waits for more bytes, or the end; false once the connection has ended with nothing more. */
  private async more(): Promise<boolean> {
    if (this.ended) return false;
    await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
    return true;
  }

  /** The status line and headers of the next answer, once they have all come; undefined if the connection ended first. */
  private async head(): Promise<{ status: number; headers: Record<string, string> } | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const lines = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
        this.buffer = this.buffer.subarray(end + 4);
        const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
        if (status === null) return undefined;
        const headers: Record<string, string> = {};
        for (const line of lines.slice(1)) {
          const colon = line.indexOf(':');
          if (colon <= 0) continue;
          const name = line.slice(0, colon).trim().toLowerCase();
          const value = line.slice(colon + 1).trim();
          headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
        }
        return { status: Number(status[1]), headers };
      }
      if (!(await this.more())) return undefined;
    }
  }

  /** The next answer with its body read to the connection's close, whatever Content-Length says. */
  async answerToClose(): Promise<RawAnswer | undefined> {
    const head = await this.head();
    if (head === undefined) return undefined;
    while (await this.more());
    if (this.failure !== undefined && !/ECONNRESET/.test(this.failure.message)) return undefined;
    const body = /chunked/i.test(head.headers['transfer-encoding'] ?? '') ? dechunked(this.buffer) : this.buffer;
    return { ...head, body };
  }

  /** The next answer framed as it says (Content-Length, or chunked), leaving the connection open. */
  async framedAnswer(): Promise<RawAnswer | undefined> {
    const head = await this.head();
    if (head === undefined) return undefined;
    if (/chunked/i.test(head.headers['transfer-encoding'] ?? '')) {
      while (this.buffer.indexOf('0\r\n\r\n') < 0) if (!(await this.more())) return undefined;
      const end = this.buffer.indexOf('0\r\n\r\n') + 5;
      const body = dechunked(this.buffer.subarray(0, end));
      this.buffer = this.buffer.subarray(end);
      return { ...head, body };
    }
    const length = Number(head.headers['content-length'] ?? 0);
    while (this.buffer.length < length) if (!(await this.more())) return undefined;
    const body = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return { ...head, body };
  }
}

/** A chunked body's data (RFC 9112 §7.1), as far as it is well-formed. */
function dechunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const line = raw.indexOf('\r\n', at);
    if (line < 0) break;
    const size = parseInt(raw.subarray(at, line).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(raw.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** One signed POST with `Connection: close`, its answer read to the close: the bytes that really came. */
export async function postReadToClose(ctx: CheckContext, request: RawRequest): Promise<{ answer: RawAnswer | undefined; evidence: Exchange }> {
  const connection = await RawConnection.open(ctx.config.baseUrl);
  try {
    connection.write(requestBytes(ctx, request, connection.host, true));
    const answer = await connection.answerToClose();
    return { answer, evidence: rawEvidence(ctx, request, answer) };
  } finally {
    connection.close();
  }
}

/**
 * Two signed POSTs on one connection: the first kept alive, the second (sent only if the first answer
 * did not say `Connection: close`) closing it. Says what each got.
 */
export async function twoOnOneConnection(ctx: CheckContext, first: RawRequest, second: RawRequest): Promise<{ first: RawAnswer | undefined; second: RawAnswer | undefined; sentSecond: boolean }> {
  const connection = await RawConnection.open(ctx.config.baseUrl);
  try {
    connection.write(requestBytes(ctx, first, connection.host, false));
    const firstAnswer = await connection.framedAnswer();
    if (firstAnswer === undefined || /\bclose\b/i.test(firstAnswer.headers.connection ?? '')) return { first: firstAnswer, second: undefined, sentSecond: false };
    connection.write(requestBytes(ctx, second, connection.host, true));
    return { first: firstAnswer, second: await connection.answerToClose(), sentSecond: true };
  } finally {
    connection.close();
  }
}
