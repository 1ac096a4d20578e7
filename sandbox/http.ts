import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ReceivedOn, SandboxApp } from './app.js';
import { answerBody, type SandboxResponse, type WrittenAnswer } from './answer.js';
import { answerWireAtOnce, readRequestBody, unreadableRequest, type WireAnswer } from './wire.js';

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
  server: Server;
  baseUrl: string;
  close(): Promise<void>;
}

/** How often the stall watch looks at the event loop, ms. */
const STALL_TICK_MS = 20;
/** How far back a stall is said to delay a request read now, ms. */
const STALL_MEMORY_MS = 1_500;

/**
 * The longest recent stall of this process's event loop (a loaded machine, a garbage collection): a
 * request read now may have arrived that much earlier. Judging a client's timing allows for it.
 */
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
    // Asked once per request: a plain loop, no arrays built.
    recent: () => {
      const now = performance.now();
      // The current tick may be running late right now: count it too.
      let longest = Math.max(0, now - last - STALL_TICK_MS);
      for (const stall of stalls) if (stall.at >= now - STALL_MEMORY_MS && stall.ms > longest) longest = stall.ms;
      return longest;
    },
    stop: () => clearInterval(timer),
  };
}

/** What the listener keeps of one connection. */
interface Connection {
  received: ReceivedOn;
  /** The Host header of its last request, and the origin it gave (a client sends the same Host on every request). */
  host?: string | undefined;
  origin?: string;
}

/**
 * Links point where the client reached us (its Host), or at the listening address without one. The
 * same Host as the connection's last request gives the same origin text, neither checked nor built
 * again, and already hashed for the sandbox's look-ups by origin.
 */
function originOn(connection: Connection, host: string | undefined, listeningOrigin: string): string {
  if (connection.origin === undefined || host !== connection.host) {
    connection.host = host;
    connection.origin = validOrigin(host) ?? listeningOrigin;
  }
  return connection.origin;
}

/** Serves an app on a real socket: node's request in, a light Incoming to the app, its Answer (or Response) written out. */
export async function listen(app: SandboxApp, options: ListenOptions = {}): Promise<Listening> {
  // node:http is loaded by the first sandbox that listens: importing the kit (an in-process sandbox,
  // the client harness, or only the signer through the root entry) does not pay for it.
  const { createServer } = await import('node:http');
  const host = options.host ?? '127.0.0.1';
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  // node enforces the header and request timeouts only when it checks connections; check often enough.
  let listeningOrigin = `http://${host}`;
  // Connections numbered as accepted, so a recording can tell one keep-alive connection's requests apart.
  // When each was accepted: a request first on its connection may have been written right after.
  const connections = new WeakMap<Socket, Connection>();
  let accepted = 0;
  const stalls = stallWatch();
  // The strict parser whatever node's flags say (--insecure-http-parser): the app takes its headers as
  // it checks them (incomingFromWire's headersChecked).
  const server = createServer(
    { connectionsCheckingInterval: Math.min(1_000, Math.max(50, headersTimeout / 4)), insecureHTTPParser: false },
    (req, res) => {
      const connection = connections.get(req.socket) ?? { received: { connection: 0, connectedAt: app.options.clock() } };
      const on = connection.received;
      const origin = originOn(connection, req.headers.host, listeningOrigin);
      // Only a recording keeps the stall (judging a client's timing): without one it is not asked per request.
      respond(app, req, res, origin, app.options.record ? { ...on, stalledMs: stalls.recent() } : on);
    },
  );
  server.once('close', () => stalls.stop());
  server.on(
    'connection',
    (socket: Socket) => void connections.set(socket, { received: { connection: ++accepted, connectedAt: app.options.clock() } }),
  );
  server.headersTimeout = headersTimeout;
  server.requestTimeout = options.requestTimeoutMs ?? 15_000;
  server.keepAliveTimeout = 5_000;
  server.setTimeout(options.idleTimeoutMs ?? 20_000, (socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  listeningOrigin = `http://${shownHost}:${port}`;
  return {
    server,
    baseUrl: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Reads a request, hands it to the app, writes its answer. Not async: the body is told through a
 * callback and an answer the app has at once is written at once, so the usual request makes no
 * promise here (about ten fewer a request than awaiting each step, and an eighth fewer bytes
 * allocated a request, sandbox and driver together; its CPU time moved less than this machine's noise).
 */
function respond(app: SandboxApp, req: IncomingMessage, res: ServerResponse, origin: string, received: ReceivedOn): void {
  const lengthInCharacters = app.options.faults.has('http-content-length-chars');
  // A client that hung up mid-body, or an answer that failed: the error envelope if anyone is still listening.
  const failed = () => {
    if (res.headersSent || res.destroyed) res.destroy();
    else {
      try {
        const sending = send(res, unreadableRequest(app), true);
        if (sending !== undefined) sending.catch(() => res.destroy());
      } catch {
        res.destroy();
      }
    }
  };
  const deliver = ({ response, closeAfter }: WireAnswer) => {
    // The rest of a body not read whole is never read (it may be endless): answer, then drop the connection.
    if (closeAfter) res.once('finish', () => req.socket.destroy());
    try {
      const sending = send(res, response, closeAfter, lengthInCharacters);
      if (sending !== undefined) sending.catch(failed);
    } catch {
      failed();
    }
  };
  try {
    readRequestBody(app, req, answerRead, failed);
  } catch {
    failed();
  }
  /** The request, its body read: answered, then written. */
  function answerRead(body: Buffer | 'too-large'): void {
    let answered: WireAnswer | Promise<WireAnswer>;
    try {
      const rawHeaders: Array<[string, string]> = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) rawHeaders.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
      const wire = { method: req.method ?? 'GET', target: req.url ?? '/', origin, headers: rawHeaders, body, headersChecked: true };
      answered = answerWireAtOnce(app, wire, received);
    } catch {
      return failed();
    }
    if (answered instanceof Promise) answered.then(deliver, failed);
    else deliver(answered);
  }
}

function validOrigin(host: string | undefined): string | undefined {
  if (host === undefined || !/^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) return undefined;
  return `http://${host}`;
}

/** Sends an answer: an Answer's body is at hand and is written at once, a Response's once read. */
function send(res: ServerResponse, response: SandboxResponse, closeAfter: boolean, lengthInCharacters = false): Promise<void> | void {
  const written = answerBody(response);
  if (written instanceof Promise) return written.then((at) => write(res, response.status, at, closeAfter, lengthInCharacters));
  write(res, response.status, written, closeAfter, lengthInCharacters);
}

/**
 * Writes an answer with its Content-Length in bytes (P-HTTP-3). Under `http-content-length-chars`
 * the length is the text's UTF-16 length, as a server writes that sets it from `string.length`: the
 * same for ASCII, short for any other text, whose tail the client then reads as the next answer.
 */
function write(
  res: ServerResponse,
  status: number,
  { body, headers }: WrittenAnswer,
  closeAfter: boolean,
  lengthInCharacters: boolean,
): void {
  if (closeAfter) headers.connection = 'close';
  if (lengthInCharacters) headers['content-length'] = String(Buffer.from(body).toString('utf8').length);
  else headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length);
  res.writeHead(status, headers).end(body);
}
