// The kit's own webhook receiver: keeps each delivery as it arrived and answers what the suite says;
// it judges nothing. Any other request on its socket is a stray: answered, counted, never judged.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Clock } from '../core/clock.js';
import { isJsonObject, jsonOf } from '../core/json-of.js';
import { EVENT_ID_HEADER } from '../core/webhooks.js';
import { readBounded } from '../common/bounded-body.js';
import { textAsSent } from '../common/utf8.js';

/** One delivery attempt as the kit's receiver saw it. */
export interface ReceivedDelivery {
  /** 1 for the first delivery the receiver got, and so on. */
  n: number;
  /** When it arrived, ms on the run's clock. */
  receivedAt: number;
  method: string;
  path: string;
  /** Header names in lower case; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  /** The body as received (UTF-8), at most MAX_DELIVERY_BODY bytes of it. */
  body: string;
  /** The body was longer than what was kept. */
  cut: boolean;
  /** The status the kit answered. */
  answered: number;
}

/** Decides the answer to a delivery: 200 acknowledges it, anything else asks for a retry. */
export type AnswerPolicy = (delivery: Omit<ReceivedDelivery, 'answered'>) => number;

const MAX_DELIVERY_BODY = 1024 * 1024;
/** Deliveries kept for the checks; later ones are answered and counted, not kept (a run sees a few dozen). */
const MAX_KEPT_DELIVERIES = 1_000;
/** The path of the receiver's own URL: where the kit registers it. */
const RECEIVER_PATH = '/webhooks';

/** The headers of a webhook delivery (P-HOOK-1), which a health check or a probe does not send. */
const DELIVERY_HEADERS = ['x-signature', 'x-timestamp', EVENT_ID_HEADER.toLowerCase()];
/** How many strays are described (method and path); the rest are only counted. */
const DESCRIBED_STRAYS = 5;

/** Why a request to the listener is not a delivery it keeps. */
type StrayReason = 'another path' | 'not POST' | 'no delivery headers and no event';

/** A request that was not a delivery: answered, counted, never judged. */
interface StrayRequest {
  method: string;
  /** Its path without the query (which may carry a token), printable ASCII, at most 80 characters. */
  path: string;
  why: StrayReason;
  /** It carried a delivery header: a delivery sent to another path, or with another method. */
  marked: boolean;
}

/** What the listener got that the checks do not see, so far. */
export interface StrayTally {
  /** Requests that were not deliveries. */
  strays: number;
  /** The first few of them. */
  described: readonly StrayRequest[];
  /** The first that carried a delivery header: a delivery sent to another path, or with another method. */
  misdirected?: StrayRequest;
  /** How many deliveries the receiver keeps at most. */
  keptAtMost: number;
  /** Deliveries past that: answered 200 and counted, not kept, so not judged. */
  deliveriesNotKept: number;
}

export interface ReceiverOptions {
  /** "host:port" as P-CFG's webhooks.listen writes it ("127.0.0.1:0": a free port). */
  listen: string;
  clock: Clock;
  /** Paths that also take deliveries: webhooks.url's, which a tunnel that keeps the path forwards as it is. */
  alsoPaths?: readonly string[];
  /** Deliveries kept at most (default MAX_KEPT_DELIVERIES). */
  keepAtMost?: number;
}

/** A POST bearing no mark of P-HOOK (no delivery header, no event in the body) cannot be told from a local
 * process posting there: a stray. A sender whose every delivery is like that still fails HOOK-EVENTS-FIRED. */
function bearsNoDeliveryMark(headers: Readonly<Record<string, string>>, body: string): boolean {
  if (DELIVERY_HEADERS.some((name) => headers[name] !== undefined)) return false;
  const json = jsonOf(body);
  return !isJsonObject(json) || !('event' in json || 'event_id' in json);
}

/** `host:port` (an IPv6 host in brackets) as P-CFG's webhooks.listen writes it, or why it is not one. */
function parseListen(listen: string): { host: string; port: number } | string {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(listen);
  if (match === null) return `"${listen}" is not host:port (e.g. 127.0.0.1:0, or 0.0.0.0:8443 behind a tunnel)`;
  const port = Number(match[2]);
  if (port > 65_535) return `port ${port} is above 65535`;
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

export class KitReceiver {
  /** The deliveries the target sent, in arrival order: at most keepAtMost (MAX_KEPT_DELIVERIES). */
  readonly deliveries: ReceivedDelivery[] = [];
  private readonly tally: Omit<StrayTally, 'described' | 'keptAtMost'> & { described: StrayRequest[] } = {
    strays: 0,
    described: [],
    deliveriesNotKept: 0,
  };
  private policy: AnswerPolicy = () => 200;
  private readonly waiters = new Set<() => void>();
  /** How late this process's event loop ran: a stall delays when a delivery is seen to arrive. */
  private readonly loopDelay: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });

  private constructor(
    private readonly server: Server,
    /** http://host:port/webhooks: where a target on this machine reaches the receiver. */
    readonly url: string,
    private readonly clock: Clock,
    /** The paths that take deliveries. */
    private readonly paths: ReadonlySet<string>,
    private readonly keepAtMost: number,
  ) {
    this.loopDelay.enable();
  }

  /** The longest event-loop stall since start (ms): a delivery could have arrived unseen meanwhile, so the
   * observation and HOOK-RETRY allow for it (suites/checks/retry-timing.ts). */
  longestStallMs(): number {
    return (this.loopDelay.max / 1e6) * (this.clock.factor ?? 1);
  }

  /** Starts listening; rejects with a message that names the address when it cannot. */
  static async start(options: ReceiverOptions): Promise<KitReceiver> {
    const where = parseListen(options.listen);
    if (typeof where === 'string') throw new Error(`webhooks.listen ${where}`);
    // `receiver` is made below, once the server it needs listens; a request can only arrive after that.
    const server = createServer((req, res) => {
      void receiver.take(req).then(
        ({ status, body, headers }) =>
          res.writeHead(status, { 'content-type': 'application/json', connection: 'close', ...headers }).end(body),
        () => res.destroy(),
      );
    });
    server.headersTimeout = 10_000;
    server.requestTimeout = 15_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => {
        const why =
          error.code === 'EADDRINUSE' ? 'the port is in use' : error.code === 'EADDRNOTAVAIL' ? 'no such local address' : error.message;
        reject(new Error(`cannot listen for webhooks on ${options.listen}: ${why}`));
      });
      server.listen(where.port, where.host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const host = where.host.includes(':') ? `[${where.host}]` : where.host === '0.0.0.0' ? '127.0.0.1' : where.host;
    const receiver = new KitReceiver(
      server,
      `http://${host}:${port}${RECEIVER_PATH}`,
      options.clock,
      new Set([RECEIVER_PATH, ...(options.alsoPaths ?? [])]),
      options.keepAtMost ?? MAX_KEPT_DELIVERIES,
    );
    return receiver;
  }

  /** What the listener got that is not in `deliveries`, so far. */
  strays(): StrayTally {
    return { ...this.tally, described: [...this.tally.described], keptAtMost: this.keepAtMost };
  }

  /** From now on, deliveries are answered as `policy` says. */
  answerWith(policy: AnswerPolicy): void {
    this.policy = policy;
  }

  /** The first delivery (here or to come) that `match` accepts, or undefined once the clock passes `deadline`. */
  async waitFor(match: (delivery: ReceivedDelivery) => boolean, deadline: number): Promise<ReceivedDelivery | undefined> {
    for (;;) {
      const found = this.deliveries.find(match);
      if (found !== undefined) return found;
      const remaining = deadline - this.clock.now();
      if (remaining <= 0) return undefined;
      let wake!: () => void;
      const arrived = new Promise<void>((resolve) => (wake = resolve));
      this.waiters.add(wake);
      await Promise.race([arrived, this.clock.sleep(Math.min(remaining, 250))]);
      this.waiters.delete(wake);
    }
  }

  close(): Promise<void> {
    this.loopDelay.disable();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** Reads one request and decides its answer: a delivery's is the policy's, a stray's says why it was ignored. */
  private async take(req: IncomingMessage): Promise<Answer> {
    const receivedAt = this.clock.now();
    const method = req.method ?? '';
    const path = req.url ?? '';
    const pathname = pathnameOf(path);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    // A health check or a tunnel's probe is answered at once, its body (if any) discarded unread.
    if (!this.paths.has(pathname) || method !== 'POST') {
      req.resume();
      return this.stray({ method, pathname, why: this.paths.has(pathname) ? 'not POST' : 'another path', headers });
    }
    // At most MAX_DELIVERY_BODY bytes are kept; past 64 times that, reading stops.
    const read = await readBounded(req, { keep: MAX_DELIVERY_BODY, stopAfter: 64 * MAX_DELIVERY_BODY });
    const body = textAsSent(read.kept);
    if (bearsNoDeliveryMark(headers, body)) return this.stray({ method, pathname, why: 'no delivery headers and no event', headers });
    if (this.deliveries.length >= this.keepAtMost) {
      this.tally.deliveriesNotKept += 1;
      return answerOf(200);
    }
    const seen = { n: this.deliveries.length + 1, receivedAt, method, path, headers, body, cut: read.cut };
    let status = 500;
    try {
      status = this.policy(seen);
    } finally {
      this.deliveries.push({ ...seen, answered: status });
      for (const wake of this.waiters) wake();
    }
    return answerOf(status);
  }

  private stray(request: { method: string; pathname: string; why: StrayReason; headers: Record<string, string> }): Answer {
    this.tally.strays += 1;
    const marked = DELIVERY_HEADERS.some((name) => request.headers[name] !== undefined);
    const stray: StrayRequest = { method: shown(request.method, 10), path: shown(request.pathname, 80), why: request.why, marked };
    if (this.tally.described.length < DESCRIBED_STRAYS) this.tally.described.push(stray);
    if (marked) this.tally.misdirected ??= stray;
    const takes = [...this.paths].map((p) => `POST ${p}`).join(' or ');
    const error = `not a webhook delivery (${request.why}): the conformance kit's listener takes ${takes} from the target and ignores anything else`;
    if (request.why === 'another path') return { status: 404, body: JSON.stringify({ error }) };
    if (request.why === 'not POST') return { status: 405, body: JSON.stringify({ error }), headers: { allow: 'POST' } };
    return { status: 400, body: JSON.stringify({ error }) };
  }
}

/** What the listener answers: a status, a small JSON body, and any extra header. */
interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** The kit's answer to a delivery it keeps: an acknowledgement, or a request for a retry. */
export function answerOf(status: number): Answer {
  return { status, body: status === 200 ? '{"received":true}' : '{"error":"the conformance kit asks for a retry"}' };
}

/** The path of a request target, without its query: compared as sent, so "//x/webhooks" is not "/webhooks". */
function pathnameOf(target: string): string {
  return target.replace(/[?#].*$/s, '');
}

/** Text a stray sent, safe to print in a report: printable ASCII, at most `max` characters. */
function shown(text: string, max: number): string {
  const printable = text.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > max ? `${printable.slice(0, max - 1)}…` : printable;
}
