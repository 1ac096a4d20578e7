// The kit's own webhook receiver: listens where P-CFG's `webhooks.listen` says, keeps every delivery
// as it arrived (headers, the exact body bytes as text, when, on the run's clock) and answers what
// the suite tells it to (200, or a 500 to see a retry). It judges nothing: the checks do.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Clock } from '../core/clock.js';

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

export const MAX_DELIVERY_BODY = 1024 * 1024;

export interface ReceiverOptions {
  /** "host:port" as P-CFG's webhooks.listen writes it ("127.0.0.1:0": a free port). */
  listen: string;
  clock: Clock;
}

/** `host:port` (an IPv6 host in brackets) as P-CFG's webhooks.listen writes it, or why it is not one. */
export function parseListen(listen: string): { host: string; port: number } | string {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(listen);
  if (match === null) return `"${listen}" is not host:port (e.g. 127.0.0.1:0, or 0.0.0.0:8443 behind a tunnel)`;
  const port = Number(match[2]);
  if (port > 65_535) return `port ${port} is above 65535`;
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

export class KitReceiver {
  readonly deliveries: ReceivedDelivery[] = [];
  private policy: AnswerPolicy = () => 200;
  private readonly waiters = new Set<() => void>();
  /** How late this process's event loop ran: a stall delays when a delivery is seen to arrive. */
  private readonly loopDelay: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });

  private constructor(
    private readonly server: Server,
    /** http://host:port/webhooks: where a target on this machine reaches the receiver. */
    readonly url: string,
    private readonly clock: Clock,
  ) {
    this.loopDelay.enable();
  }

  /**
   * The longest stall of this process's event loop since the receiver started, in ms of the run's
   * clock: while it lasted, a delivery could have arrived unseen, so arrival times are uncertain by it.
   */
  longestStallMs(): number {
    return (this.loopDelay.max / 1e6) * (this.clock.factor ?? 1);
  }

  /** Starts listening; rejects with a message that names the address when it cannot. */
  static async start(options: ReceiverOptions): Promise<KitReceiver> {
    const where = parseListen(options.listen);
    if (typeof where === 'string') throw new Error(`webhooks.listen ${where}`);
    let receiver: KitReceiver | undefined;
    const server = createServer((req, res) => {
      void receiver!.take(req).then(
        ({ answered }) => res.writeHead(answered, { 'content-type': 'application/json', connection: 'close' }).end(answered === 200 ? '{"received":true}' : '{"error":"the conformance kit asks for a retry"}'),
        () => res.destroy(),
      );
    });
    server.headersTimeout = 10_000;
    server.requestTimeout = 15_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(new Error(`cannot listen for webhooks on ${options.listen}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.code === 'EADDRNOTAVAIL' ? 'no such local address' : error.message}`)),
      );
      server.listen(where.port, where.host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const host = where.host.includes(':') ? `[${where.host}]` : where.host === '0.0.0.0' ? '127.0.0.1' : where.host;
    receiver = new KitReceiver(server, `http://${host}:${port}/webhooks`, options.clock);
    return receiver;
  }

  /** From now on, deliveries are answered as `policy` says. */
  answerWith(policy: AnswerPolicy): void {
    this.policy = policy;
  }

  /**
   * The first delivery (already here or still to come) that `match` accepts, or undefined once the
   * run's clock passes `deadline` (ms) without one.
   */
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

  private async take(req: IncomingMessage): Promise<ReceivedDelivery> {
    const receivedAt = this.clock.now();
    const kept: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      if (size < MAX_DELIVERY_BODY) kept.push(chunk.subarray(0, MAX_DELIVERY_BODY - size));
      size += chunk.length;
      if (size > 64 * MAX_DELIVERY_BODY) {
        req.destroy();
        break;
      }
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const seen = {
      n: this.deliveries.length + 1,
      receivedAt,
      method: req.method ?? '',
      path: req.url ?? '',
      headers,
      body: new TextDecoder('utf-8').decode(Buffer.concat(kept)),
      cut: size > MAX_DELIVERY_BODY,
    };
    let status = 500;
    try {
      status = this.policy(seen);
    } finally {
      const delivery = { ...seen, answered: status };
      this.deliveries.push(delivery);
      for (const wake of this.waiters) wake();
    }
    return { ...seen, answered: status };
  }
}
