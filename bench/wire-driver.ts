// The load driver of the serving figures (npm run bench, part 4). A server's requests per second
// mean something only while the server is what limits them. An undici loop in the bench's one
// thread could not keep a bare or a fair Node server busy: measured beside it, the fair server sat
// idle a quarter of the time, so its "rate" was the loop's, and the sandbox's ratio to it read 0.71
// where the servers' own costs gave 0.6. This driver does almost nothing per request: each request's
// bytes are written before the clock starts, and an answer is only framed (its head found, its
// Content-Length or chunks counted) and tallied by status. It keeps `inFlight` keep-alive
// connections, one request outstanding on each, as the undici loop did.
// It finds an answer's end itself rather than with suites/raw-http.ts's reader: that one reads a few
// answers for a check, one promise per wait, and must take a malformed answer as evidence; this one
// frames thousands in the socket's data callback and fails the run on anything it cannot frame. A
// chunked body is walked by the one chunk reader both use (common/http-chunks.ts).
import { connect, type Socket } from 'node:net';
import { ChunkedReader } from '../common/http-chunks.js';
import { contentLengthOf } from '../suites/raw-http.js';

export interface Prepared {
  method?: 'GET' | 'POST';
  path: string;
  body: string;
  headers: Record<string, string>;
}

export interface WireRun {
  seconds: number;
  /** How many answers came with each status. */
  statuses: Map<number, number>;
}

/** No answer, or no part of one, for this long: the run fails (a local server that stalls is broken). */
const SILENCE_MS = 10_000;
const HEAD_END = Buffer.from('\r\n\r\n');

/** A request's bytes as sent: the request line, Host, its headers, Content-Length, the body. */
function wireBytes(request: Prepared, host: string): Buffer {
  const method = request.method ?? 'POST';
  const body = method === 'GET' ? '' : request.body;
  let head = `${method} ${request.path} HTTP/1.1\r\nhost: ${host}\r\n`;
  for (const [name, value] of Object.entries(request.headers)) head += `${name}: ${value}\r\n`;
  if (method !== 'GET') head += `content-length: ${Buffer.byteLength(body)}\r\n`;
  return Buffer.from(`${head}\r\n${body}`);
}

/**
 * Where the answer at the start of `data` ends, with its status; undefined while it is incomplete.
 * Throws for an answer this driver cannot frame (neither Content-Length nor chunked).
 */
export function answerEnd(data: Buffer): { end: number; status: number } | undefined {
  const headEnd = data.indexOf(HEAD_END);
  if (headEnd < 0) return undefined;
  const head = data.toString('latin1', 0, headEnd);
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
  if (status === null) throw new Error(`the server answered something that is not HTTP/1.1: ${JSON.stringify(head.slice(0, 60))}`);
  const bodyStart = headEnd + HEAD_END.length;
  const said = /\r\ncontent-length:[ \t]*([^\r]*)/i.exec(head)?.[1];
  if (said !== undefined) {
    // Read as the HTTP-CONTENT-LENGTH check reads it (suites/raw-http.ts): one reading of the header.
    const length = contentLengthOf(said.trimEnd());
    if (length === undefined)
      throw new Error(`an answer whose Content-Length is not a number of bytes: ${JSON.stringify(said.slice(0, 60))}`);
    const end = bodyStart + length;
    return data.length >= end ? { end, status: Number(status[1]) } : undefined;
  }
  if (!/\r\ntransfer-encoding: *chunked/i.test(head))
    throw new Error(`an answer with neither Content-Length nor chunked framing: ${JSON.stringify(head.slice(0, 60))}`);
  // Only where it ends: its data is not gathered.
  const chunks = new ChunkedReader(bodyStart).read(data);
  if (chunks.state === 'malformed') throw new Error(`a malformed chunked answer: ${chunks.problem}`);
  return chunks.state === 'complete' ? { end: chunks.end, status: Number(status[1]) } : undefined;
}

/** Sends every request to `baseUrl` over `inFlight` connections, one outstanding on each. */
export async function sendOverWire(baseUrl: string, requests: readonly Prepared[], inFlight: number): Promise<WireRun> {
  const { hostname, port } = new URL(baseUrl);
  const host = `${hostname}:${port}`;
  const wire = requests.map((request) => wireBytes(request, host));
  const statuses = new Map<number, number>();
  let next = 0;
  const lane = () =>
    new Promise<void>((resolve, reject) => {
      const socket: Socket = connect(Number(port), hostname);
      socket.setNoDelay(true);
      socket.setTimeout(SILENCE_MS, () => fail(new Error(`the server at ${baseUrl} was silent for ${SILENCE_MS / 1000} s`)));
      let pending: Buffer = Buffer.alloc(0);
      let waiting = false;
      const fail = (error: Error) => {
        socket.destroy();
        reject(error);
      };
      const sendNext = () => {
        if (next >= wire.length) {
          socket.end();
          return resolve();
        }
        waiting = true;
        socket.write(wire[next++]!);
      };
      socket.once('connect', sendNext);
      socket.on('error', fail);
      socket.on('close', () => {
        if (waiting) fail(new Error(`the server at ${baseUrl} closed a connection before answering`));
      });
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        try {
          // Every answer that came whole first: a second one while one request was outstanding is an error.
          for (let answer = answerEnd(pending); answer !== undefined; answer = answerEnd(pending)) {
            if (!waiting) throw new Error(`the server at ${baseUrl} answered a request it was not sent`);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            pending = pending.subarray(answer.end);
            waiting = false;
          }
          if (!waiting) sendNext();
        } catch (error) {
          fail(error as Error);
        }
      });
    });
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(inFlight, wire.length) }, lane));
  return { seconds: (performance.now() - started) / 1000, statuses };
}
