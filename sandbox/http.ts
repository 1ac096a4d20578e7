import type { IncomingMessage, ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { readBounded } from '../common/bounded-body.js';
import type { ReceivedOn, SandboxApp } from './context.js';
import { SandboxResponse } from './envelope.js';
import { answerWire, unreadableRequest, type WireAnswer } from './wire.js';

export interface ListenOptions {
  port?: number;
  host?: string;
  /** A client that has not sent its headers, or its whole request, by then is cut off (ms). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** An idle keep-alive or half-open connection is closed after this (ms). */
  idleTimeoutMs?: number;
}

export interface Listening {
  baseUrl: string;
  close(): Promise<void>;
}

/** Serves an app on a real socket with node's HTTP server. */
export async function listen(app: SandboxApp, options: ListenOptions = {}): Promise<Listening> {
  // Loaded here, not at import: an in-process sandbox or the signer alone never needs it.
  const { createServer } = await import('node:http');
  const host = options.host ?? '127.0.0.1';
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const connections = new WeakMap<Socket, ReceivedOn>();
  const stalls = stallWatch();
  let listeningOrigin = `http://${host}`;
  // The strict parser whatever node's flags say; timeouts are enforced when connections are checked, so check often.
  const settings = { connectionsCheckingInterval: Math.min(1_000, Math.max(50, headersTimeout / 4)), insecureHTTPParser: false };
  const server = createServer(settings, (req, res) => {
    const on = connections.get(req.socket) ?? { connection: 0, connectedAt: app.options.clock() };
    // Links point where the client reached us (its Host), or at the listening address without one.
    const origin = originOf(req.headers.host) ?? listeningOrigin;
    void respond(app, req, res, origin, { ...on, stalledMs: stalls.recent() });
  });
  // Connections numbered as accepted, so a recording tells one keep-alive connection's requests apart.
  let accepted = 0;
  server.on('connection', (socket: Socket) => void connections.set(socket, { connection: ++accepted, connectedAt: app.options.clock() }));
  server.once('close', () => stalls.stop());
  server.headersTimeout = headersTimeout;
  server.requestTimeout = options.requestTimeoutMs ?? 15_000;
  server.keepAliveTimeout = 5_000;
  server.setTimeout(options.idleTimeoutMs ?? 20_000, (socket) => socket.destroy());

  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  listeningOrigin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    baseUrl: listeningOrigin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Connections where, under `http-body-unread`, a refusal left its body: the next request is read from it. */
const desynced = new WeakSet<Socket>();
// Made when needed: a Response's Headers at import would load node's fetch, and node:http with it.
const badRequest = (): WireAnswer => ({ response: new SandboxResponse('Bad Request', { status: 400 }), closeAfter: true });

/** Reads a request's body within the limit, has the app answer it, and writes the answer. */
async function respond(app: SandboxApp, req: IncomingMessage, res: ServerResponse, origin: string, received: ReceivedOn) {
  if (desynced.delete(req.socket)) return write(res, req, badRequest(), false);
  let answer: WireAnswer;
  try {
    const limit = app.options.maxBodyBytes;
    // Past the limit the rest is never read (it may be endless): the stream is paused and the connection dropped after the answer.
    const read = await readBounded(req, { keep: limit, stopAfter: limit, onStop: 'pause' });
    const wire = { method: req.method ?? 'GET', target: req.url ?? '/', origin, headers: pairs(req.rawHeaders) };
    const unread = app.options.faults.has('http-chunked-body-empty') && req.headers['transfer-encoding'] !== undefined;
    answer = await answerWire(app, { ...wire, body: read.stopped ? 'too-large' : unread ? Buffer.alloc(0) : read.kept }, received);
    if (app.options.faults.has('http-body-unread') && answer.response.status === 401 && read.receivedBytes > 0) desynced.add(req.socket);
  } catch {
    // A client gone mid-body, or an answer that failed (a recording, a log sink).
    answer = unreadableRequest(app);
  }
  try {
    if (res.headersSent || res.destroyed) throw new Error('the connection is gone');
    write(res, req, answer, app.options.faults.has('http-content-length-chars'));
  } catch {
    res.destroy();
  }
}

/** Writes an answer with its Content-Length in bytes (P-HTTP-3); under `http-content-length-chars` the
 * UTF-16 length, as a server using `string.length` does. */
function write(res: ServerResponse, req: IncomingMessage, { response, closeAfter }: WireAnswer, lengthInCharacters: boolean) {
  const body = response.bytes();
  const headers: Record<string, string> = Object.fromEntries(response.headers);
  headers['content-length'] = String(lengthInCharacters ? body.toString('utf8').length : body.length);
  if (closeAfter) {
    headers.connection = 'close';
    res.once('finish', () => req.socket.destroy());
  }
  res.writeHead(response.status, headers).end(body);
}

function pairs(raw: string[]): Array<[string, string]> {
  return Array.from({ length: raw.length / 2 }, (_, i) => [raw[2 * i]!, raw[2 * i + 1]!]);
}

function originOf(host: string | undefined): string | undefined {
  if (host === undefined || !/^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) return undefined;
  return `http://${host}`;
}

const STALL_TICK_MS = 20;
const STALL_MEMORY_MS = 1_500;

/** The longest event-loop stall in the last STALL_MEMORY_MS: a request read now may have arrived that much
 * earlier, which judging a client's timing allows for. */
function stallWatch(): { recent(): number; stop(): void } {
  const stalls: Array<{ at: number; ms: number }> = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - last - STALL_TICK_MS;
    last = now;
    if (late > 5) stalls.push({ at: now, ms: late });
    while (stalls.length > 0 && stalls[0]!.at < now - STALL_MEMORY_MS) stalls.shift();
  }, STALL_TICK_MS);
  timer.unref();
  return {
    recent: () => {
      const now = performance.now();
      // The current tick may be running late right now: it counts too.
      const current = Math.max(0, now - last - STALL_TICK_MS);
      return Math.max(current, ...stalls.filter((stall) => stall.at >= now - STALL_MEMORY_MS).map((stall) => stall.ms));
    },
    stop: () => clearInterval(timer),
  };
}
