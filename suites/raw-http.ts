// P-HTTP-3 framing cannot be seen through undici, which frames an answer by its Content-Length: this client writes
// and reads one socket by hand, answers read to the connection's close. Signing, headers, redaction: the kit's own.
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { systemClock, type Clock } from '../core/clock.js';
import { jsonOf } from '../core/json-of.js';
import { ChunkedReader, quoted, readChunked } from '../common/http-chunks.js';
import { createRedactor } from '../common/redact.js';
import { hmacSha256Hex } from '../signer/sign.js';
import type { Exchange } from './http.js';
import type { CheckContext } from './check.js';
import { headersOf } from './send-options.js';
import { DEFAULT_TIMEOUT_MS } from './settings.js';

/** More than this is not read: an answer that large is no answer to these requests. */
const MAX_RAW_BYTES = 1024 * 1024;

export interface RawOptions {
  /** How long the socket may stay silent before the kit gives up on it (ms); default the run's (DEFAULT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The clock that silence is timed on; default the system's (a network's silence is real time). */
  clock?: Clock;
}

export interface RawRequest {
  label: string;
  path: string;
  /** The body text, sent as given and signed (canonical text of a payload, or a malformed body). */
  body: string;
  /** The signature it was sent with, once sent: hidden from its evidence, as TargetClient hides its own. */
  signature?: string;
  /** Signed over other text, so authentication refuses it. */
  signedWrong?: boolean;
}

/** One answer as it came off the wire. */
export interface RawAnswer {
  status: number;
  /** Header names in lower case; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  /** The body's bytes: to the close (read-to-close), or as framed (on a kept-alive connection). */
  body: Buffer;
}

/** The path a request goes to: the base URL's own path, then the operation's, as TargetClient joins
 *  them (a base URL such as https://host/sandbox serves its operations under /sandbox). */
export function targetPath(baseUrl: string, path: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, '') + path;
}

/** The request's head and body, signed as the profile signs (P-SIGN-2), fresh timestamp. The signature
 *  is kept on the request so its evidence can hide it. */
function requestBytes(ctx: CheckContext, request: RawRequest, host: string, close: boolean): Buffer {
  const timestamp = String(ctx.nowSeconds());
  const body = Buffer.from(request.body, 'utf8');
  const { merchant } = ctx.config;
  const signed = `${request.signedWrong === true ? ' ' : ''}${request.body}${timestamp}`;
  const signature = (request.signature = hmacSha256Hex(merchant.secretKey, signed));
  const headers = headersOf({ label: request.label, path: request.path }, merchant, {
    method: 'POST',
    timestamp,
    signature,
    form: undefined,
  });
  const head = [
    `POST ${targetPath(ctx.config.baseUrl, request.path)} HTTP/1.1`,
    `Host: ${host}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${body.length}`,
    `Connection: ${close ? 'close' : 'keep-alive'}`,
  ];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** The exchange as evidence, redacted as every other: secrets by the run's redactor, and the signature
 *  sent wherever a server echoes it (a header or the body), as TargetClient.send hides its own. */
export function rawEvidence(ctx: CheckContext, request: RawRequest, answer: RawAnswer | undefined, problem?: string): Exchange {
  const hideSignature = createRedactor({ signatures: [request.signature] });
  const hide = (text: string) => ctx.redact(hideSignature(text));
  const sent = {
    label: hide(request.label),
    request: {
      method: 'POST',
      url: hide(ctx.config.baseUrl.replace(/\/+$/, '') + request.path),
      headers: { 'Content-Type': 'application/json', 'X-API-KEY': hide(ctx.config.merchant.apiKey), 'X-SIGNATURE': '[redacted]' },
      body: hide(request.body),
    },
    ms: 0,
  };
  if (answer === undefined) return { ...sent, error: { code: 'reset', message: hide(problem ?? 'no complete HTTP answer') } };
  const headers = Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name, hide(value)]));
  const text = hide(answer.body.toString('utf8'));
  const json = jsonOf(text);
  return { ...sent, response: { status: answer.status, headers, body: text.slice(0, 8192), ...(json !== undefined ? { json } : {}) } };
}

/** A socket to the target, plain or TLS as its base URL says, with every byte it receives collected. */
class RawConnection {
  /** The bytes received and not yet taken lie in `bytes` from `start` to `end`, with room after: an
   *  answer that comes a byte at a time is copied about twice, not once per arrival. */
  private bytes = Buffer.alloc(0);
  private start = 0;
  private end = 0;
  private ended = false;
  /** The last head read did not begin with an HTTP/1.x status line. */
  private notHttp = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  /** Aborts the running silence timeout: each byte sent or received starts it again. */
  private silence = new AbortController();

  private constructor(
    private readonly socket: Socket,
    readonly host: string,
    private readonly options: Required<RawOptions>,
  ) {
    this.restartSilence();
    socket.on('data', (chunk: Buffer) => {
      this.restartSilence();
      if (this.end - this.start + chunk.length > MAX_RAW_BYTES) socket.destroy(new Error('the answer is larger than 1 MiB'));
      else this.append(chunk);
      this.wake?.();
    });
    const ended = (error?: Error) => {
      if (error !== undefined) this.failure = error;
      this.ended = true;
      this.wake?.();
    };
    socket.on('end', () => ended());
    socket.on('close', () => {
      this.silence.abort();
      ended();
    });
    socket.on('error', ended);
  }

  static open(baseUrl: string, { timeoutMs = DEFAULT_TIMEOUT_MS, clock = systemClock }: RawOptions): Promise<RawConnection> {
    const url = new URL(baseUrl);
    const tls = url.protocol === 'https:';
    const port = Number(url.port || (tls ? 443 : 80));
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    return new Promise((resolve, reject) => {
      const socket = tls ? connectTls({ host: hostname, port, servername: hostname }) : connectTcp(port, hostname);
      socket.once(tls ? 'secureConnect' : 'connect', () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket, url.host, { timeoutMs, clock }));
      });
      socket.once('error', reject);
    });
  }

  write(bytes: Buffer): void {
    this.restartSilence();
    this.socket.write(bytes);
  }

  /** Gives up on the socket once it has been silent for the timeout, on the injected clock. */
  private restartSilence(): void {
    this.silence.abort();
    if (this.socket.destroyed) return;
    const silence = (this.silence = new AbortController());
    const { timeoutMs, clock } = this.options;
    void clock.sleep(timeoutMs, silence.signal).then(() => {
      if (!silence.signal.aborted) this.socket.destroy(new Error(`the connection stayed silent for ${timeoutMs / 1000} s`));
    });
  }

  /** The bytes received and not yet taken. A view: what it shows never changes, though more may come after it. */
  private get buffer(): Buffer {
    return this.bytes.subarray(this.start, this.end);
  }

  private append(chunk: Buffer): void {
    if (this.end + chunk.length > this.bytes.length) {
      // Into a new buffer, never over the old one: views handed out of it stay as they were.
      const live = this.end - this.start;
      // Doubling, but never past the most an answer may hold (MAX_RAW_BYTES, checked before this).
      const needed = live + chunk.length;
      const grown = Buffer.allocUnsafe(Math.max(needed, Math.min(Math.max(2 * needed, 4096), MAX_RAW_BYTES)));
      this.bytes.copy(grown, 0, this.start, this.end);
      this.bytes = grown;
      this.start = 0;
      this.end = live;
    }
    chunk.copy(this.bytes, this.end);
    this.end += chunk.length;
  }

  close(): void {
    this.silence.abort();
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
    // Each search goes on from where the last stopped: a head that comes a byte at a time is read once.
    for (let from = 0; ; ) {
      const end = this.buffer.indexOf('\r\n\r\n', from);
      if (end >= 0) {
        const lines = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
        this.start += end + 4;
        const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
        this.notHttp = status === null;
        if (status === null) return undefined;
        // An interim answer (100 Continue, 103 Early Hints) comes before the real one (RFC 9110 §15.2).
        if (status[1]!.startsWith('1') && status[1] !== '101') return this.head();
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
      from = Math.max(0, this.buffer.length - 3);
      if (!(await this.more())) return undefined;
    }
  }

  /** The error the connection ended with, unless a reset: that ends an answer as a close does. */
  private get cutOff(): Error | undefined {
    const { failure } = this;
    const reset = (failure as NodeJS.ErrnoException | undefined)?.code === 'ECONNRESET' || /ECONNRESET/.test(failure?.message ?? '');
    return reset ? undefined : failure;
  }

  /** The next answer, its body read to the connection's close whatever Content-Length says. Any end but a close or a
   *  reset (a timeout, a proxy holding on) is judged only if the answer is complete (head and body, or the last chunk). */
  async answerToClose(): Promise<ReadToClose> {
    const head = await this.head();
    if (head === undefined) return this.cutOff !== undefined ? { unjudged: `no complete HTTP head came (${this.cutOff.message})` } : {};
    while (await this.more());
    const chunks = /chunked/i.test(head.headers['transfer-encoding'] ?? '') ? readChunked(this.buffer) : undefined;
    if (this.cutOff !== undefined) {
      const said = contentLengthOf(head.headers['content-length'] ?? '');
      const complete = chunks !== undefined ? chunks.state === 'complete' : said !== undefined && this.buffer.length >= said;
      if (!complete)
        return {
          unjudged: `the connection ended without closing (${this.cutOff.message}) before the answer's ${chunks !== undefined ? 'last chunk' : 'Content-Length bytes'} had come`,
        };
    }
    // A chunked body's data, as far as it came and was well-formed: the bytes judged are the data.
    return { answer: { ...head, body: chunks !== undefined ? chunks.data : this.buffer } };
  }

  /** The next answer framed as it says (Content-Length, or chunked), leaving the connection open; or why there is none. */
  async framedAnswer(): Promise<{ answer: RawAnswer } | { problem: string }> {
    // Whose doing the end was: the server's close or reset, or the kit's own wait (its silence timeout).
    const cutShort = () => ({
      problem:
        this.cutOff !== undefined ? `no complete answer came (${this.cutOff.message})` : 'the connection ended before a complete answer',
    });
    const head = await this.head();
    if (head === undefined) return this.notHttp ? { problem: 'the answer does not begin with an HTTP/1.x status line' } : cutShort();
    if (/chunked/i.test(head.headers['transfer-encoding'] ?? '')) {
      // Walked chunk by chunk to its end (trailers included), going on from where each wait began.
      const chunks = new ChunkedReader();
      for (;;) {
        const read = chunks.read(this.buffer);
        if (read.state === 'malformed') return { problem: `a malformed chunked body: ${read.problem}` };
        if (read.state === 'complete') {
          const body = chunks.data(this.buffer);
          this.start += read.end;
          return { answer: { ...head, body } };
        }
        if (!(await this.more())) return cutShort();
      }
    }
    const said = head.headers['content-length'] ?? '0';
    const length = contentLengthOf(said);
    if (length === undefined) return { problem: `Content-Length ${quoted(said)} is not a number of bytes` };
    while (this.buffer.length < length) if (!(await this.more())) return cutShort();
    const body = this.buffer.subarray(0, length);
    this.start += length;
    return { answer: { ...head, body } };
  }
}

/** A Content-Length header's number of bytes, or undefined when it gives none. A header sent twice
 *  reads as its values joined with ", ": the same number each time is that number (RFC 9110 §8.6). */
export function contentLengthOf(said: string): number | undefined {
  const number = /^(\d{1,15})(?:[ \t]*,[ \t]*\1)*$/.exec(said);
  return number === null ? undefined : Number(number[1]);
}

/** An answer read to the close; or none, with `unjudged` saying why the kit cannot tell when the
 *  connection ended some other way than a close before the answer was complete. */
export interface ReadToClose {
  answer?: RawAnswer;
  unjudged?: string;
}

/** One signed POST with `Connection: close`, its answer read to the close: the bytes that really came. */
export async function postReadToClose(
  ctx: CheckContext,
  request: RawRequest,
  options: RawOptions = {},
): Promise<ReadToClose & { evidence: Exchange }> {
  const connection = await RawConnection.open(ctx.config.baseUrl, options);
  try {
    connection.write(requestBytes(ctx, request, connection.host, true));
    const read = await connection.answerToClose();
    return { ...read, evidence: rawEvidence(ctx, request, read.answer, read.unjudged) };
  } finally {
    connection.close();
  }
}

/** Two signed POSTs on one connection: the first kept alive, the second (sent only if the first answer
 *  did not say `Connection: close`) closing it. Says what each got. */
export async function twoOnOneConnection(
  ctx: CheckContext,
  first: RawRequest,
  second: RawRequest,
  options: RawOptions = {},
): Promise<{ first: RawAnswer | undefined; firstProblem?: string; second: ReadToClose; sentSecond: boolean }> {
  const connection = await RawConnection.open(ctx.config.baseUrl, options);
  try {
    connection.write(requestBytes(ctx, first, connection.host, false));
    const framed = await connection.framedAnswer();
    if ('problem' in framed) return { first: undefined, firstProblem: framed.problem, second: {}, sentSecond: false };
    const firstAnswer = framed.answer;
    if (/\bclose\b/i.test(firstAnswer.headers.connection ?? '')) return { first: firstAnswer, second: {}, sentSecond: false };
    connection.write(requestBytes(ctx, second, connection.host, true));
    return { first: firstAnswer, second: await connection.answerToClose(), sentSecond: true };
  } finally {
    connection.close();
  }
}
