// The sandbox's requests per second against two Node HTTP servers that read each body and answer a
// fixed JSON text: a bare one, and a fair one that first verifies the request's HMAC and parses its
// JSON (what any target must do). All three are driven the same way: signed requests (Create Order and Payout Status in
// turn, each distinct, signed before the clock starts) sent over 8 connections, 8 in flight, by the
// lean driver of wire-driver.ts, so that each server, not the driver, is what limits its rate.
// (sendAll, the bare undici loop, is the suite bench's baseline: it sends what a suite sent, over the
// suite's own transport.)
import { Worker } from 'node:worker_threads';
import { Agent } from 'undici';
import { OPERATIONS } from '../core/operations.js';
import type { RecordedExchange } from '../sandbox/options.js';
import { MERCHANT_A } from '../sandbox/tenants.js';
import { canonicalize } from '../signer/canonical.js';
import type { HmacKey } from '../signer/hmac.js';
import { hmacSha256Hex, sha256Key } from '../signer/sign.js';
import type { TargetConfig } from '../suites/config.js';
import { dispatch } from '../suites/dispatch.js';
import { MAX_KEPT_BODY, MAX_READ_BODY } from '../suites/http.js';
import type { ServerData } from './throughput-server.js';
import { sendOverWire, type Prepared } from './wire-driver.js';

export type { Prepared } from './wire-driver.js';

let prepared = 0;

/** `count` distinct signed requests: orders to create and payouts to look up, alternately. */
export function prepareRequests(count: number): Prepared[] {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const run = `${process.pid}-${++prepared}`;
  return Array.from({ length: count }, (_, n) => {
    const payload =
      n % 2 === 0
        ? {
            order_id: `TP-${run}-${n}`,
            order_amount: 250.75,
            order_currency: 'INR',
            service_type: 'payment',
            return_url: 'https://merchant.example.org/r',
            customer: {
              name: 'Meera Nair',
              email: 'meera@example.org',
              phone: '9123456780',
              address: { line1: '4 Residency Road', city: 'Kochi', state: 'Kerala', country: 'IN', postal_code: '682011' },
            },
          }
        : { svc_wallet_id: MERCHANT_A.walletId, debit_account_type: 'svc_wallet', payout_order_id: `TP-${run}-${n}` };
    const body = canonicalize(payload);
    return {
      path: n % 2 === 0 ? OPERATIONS.createOrder.path : OPERATIONS.payoutStatus.path,
      body,
      headers: {
        'content-type': 'application/json',
        'x-api-key': MERCHANT_A.apiKey,
        'x-timestamp': timestamp,
        'x-signature': hmacSha256Hex(MERCHANT_A.secretKey, body + timestamp),
      },
    };
  });
}

/**
 * Sends every request to baseUrl with a bare undici loop, `inFlight` at a time; returns the seconds
 * it took. Through `Agent.dispatch`, the transport the suites use (suites/dispatch.ts), with a handler
 * that only counts the answer's bytes: the loop is the suite's floor, the same requests over the same
 * transport with nothing else done. (undici's `request()` wraps each body in a stream and cost the
 * loop about a sixth more, which made the suite look cheaper than it is.) An answer that fails in
 * transport fails the loop: a baseline must not be fast by not being answered.
 */
export function sendAll(baseUrl: string, requests: readonly Prepared[], inFlight: number): Promise<number> {
  const { origin } = new URL(baseUrl);
  // Not async: the one promise a request is the answer's.
  return inLanes(
    requests,
    inFlight,
    (agent, r) =>
      new Promise<void>((resolve, reject) => {
        const method = r.method ?? 'POST';
        agent.dispatch(
          { origin, path: r.path, method, headers: r.headers, body: method === 'GET' ? null : r.body },
          {
            onRequestStart: () => {},
            onResponseStart: () => {},
            onResponseData: () => {},
            onResponseEnd: () => resolve(),
            onResponseError: (_controller, error) => reject(error),
          },
        );
      }),
  );
}

/**
 * Sends every request through `send`, `inFlight` lanes each taking the next request as its last is
 * answered; returns the seconds it took. As many connections as the suite's client may open
 * (suites/http.ts): the lanes, not the pool, keep `inFlight` requests in flight. On a pool of one,
 * replaying a suite's requests one at a time, undici opened a connection per request after the method
 * checks (537 for 814, against the suite's 25), whether or not the requests kept their Connection
 * header; on this pool and without it, 8.
 */
async function inLanes<T>(requests: readonly T[], inFlight: number, send: (agent: Agent, request: T) => Promise<void>): Promise<number> {
  const agent = new Agent({ connections: 32 });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < requests.length) await send(agent, requests[next++]!);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return seconds;
}

/** A replayed request as a client builds it: the payload its body is the canonical JSON of, if it is, and the secret its API key signs with, if known. */
export interface ClientRequest extends Prepared {
  payload?: unknown;
  secret?: string;
}

/**
 * The requests a suite sent, as a client would build them again (before any clock starts): each body
 * that is the canonical JSON of its payload gets that payload, each known API key its secret.
 */
export function clientRequests(requests: readonly Prepared[], config: TargetConfig): ClientRequest[] {
  const secrets = new Map<string, string>();
  for (const m of [config.merchant, config.otherMerchant]) if (m !== undefined) secrets.set(m.apiKey, m.secretKey);
  return requests.map((r) => {
    let payload: unknown;
    try {
      payload = JSON.parse(r.body);
      if (canonicalize(payload) !== r.body) payload = undefined;
    } catch {
      payload = undefined;
    }
    const secret = secrets.get(r.headers['x-api-key'] ?? '');
    return { ...r, ...(payload !== undefined ? { payload } : {}), ...(secret !== undefined ? { secret } : {}) };
  });
}

/** What the fair client keeps of an answer, and where it stops reading: the suites' own limits. */
const CLIENT_LIMITS = { keep: MAX_KEPT_BODY, stopAfter: MAX_READ_BODY };
const UTF8 = new TextDecoder();

/**
 * A fair client: sends every request, `inFlight` at a time, doing what any client of the interface
 * must for each (the suites' floor, as the fair server is the sandbox's): the body written as
 * canonical JSON from its payload, its HMAC computed (a key prepared per secret), sent through the
 * suites' own transport with a deadline and a bounded read (suites/dispatch.ts), and the answer
 * decoded and parsed as JSON. Nothing else: no generation, judging or evidence. Returns the seconds
 * it took; an answer that fails in transport fails it, as in sendAll.
 */
export function sendAllAsClient(baseUrl: string, requests: readonly ClientRequest[], inFlight: number): Promise<number> {
  const keys = new Map<string, HmacKey>();
  const base = baseUrl.replace(/\/+$/, '');
  return inLanes(requests, inFlight, async (agent, r) => {
    const method = r.method ?? 'POST';
    const body = r.payload !== undefined ? canonicalize(r.payload) : r.body;
    const headers = { ...r.headers };
    if (r.secret !== undefined) {
      let key = keys.get(r.secret);
      if (key === undefined) keys.set(r.secret, (key = sha256Key(r.secret)));
      const signature = key.digest(body + (r.headers['x-timestamp'] ?? ''));
      // Sent as computed where the suite signed correctly; a deliberately wrong one stays as recorded.
      if (signature === r.headers['x-signature']) headers['x-signature'] = signature;
    }
    const answer = await dispatch(agent, base + r.path, {
      method,
      headers,
      body: method === 'GET' ? undefined : body,
      timeoutMs: 10_000,
      limits: CLIENT_LIMITS,
    });
    try {
      JSON.parse(UTF8.decode(answer.body.kept));
    } catch {
      // Not JSON: an answer some checks ask for on purpose.
    }
  });
}

/** Requests per second of a server at baseUrl, `inFlight` at a time, and how many answers had each status. */
export async function drive(
  baseUrl: string,
  requests: readonly Prepared[],
  inFlight = 8,
): Promise<{ perSecond: number; statuses: Map<number, number> }> {
  const { seconds, statuses } = await sendOverWire(baseUrl, requests, inFlight);
  return { perSecond: requests.length / seconds, statuses };
}

/** A thread's event-loop time so far (ms), active and idle, and its CPU time where the system tells it. */
export interface LoopTime {
  active: number;
  idle: number;
  cpuMs?: number;
}

/** A server of throughput-server.ts in a worker thread of its own, once it listens. */
export interface ServerWorker {
  baseUrl: string;
  /** The sandbox's config (absent for the Node servers). */
  config?: TargetConfig;
  /** Starts recording what the sandbox receives (started with `record`); resolves once it has. */
  record(): Promise<void>;
  /** What it recorded since record(), and stops recording. */
  take(): Promise<RecordedExchange[]>;
  /** Its thread's event-loop time so far. */
  loopTime(): Promise<LoopTime>;
  close(): Promise<void>;
}

export async function startServerWorker(data: ServerData): Promise<ServerWorker> {
  const worker = new Worker(new URL('./throughput-server.js', import.meta.url), { workerData: data });
  const { baseUrl, config } = await new Promise<{ baseUrl: string; config?: TargetConfig }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const ask = <T>(message: 'record' | 'take' | 'busy') =>
    new Promise<T>((resolve) => {
      worker.once('message', (answer: unknown) => resolve(answer as T));
      worker.postMessage(message);
    });
  return {
    baseUrl,
    ...(config !== undefined ? { config } : {}),
    record: () => ask<void>('record'),
    take: () => ask<RecordedExchange[]>('take'),
    loopTime: async () => (await ask<{ busy: LoopTime }>('busy')).busy,
    close: async () => void (await worker.terminate()),
  };
}

export type ServerKind = 'sandbox' | 'bare' | 'fair';

/**
 * Each server's requests per second, the share of that time its thread was busy (0..1), and its
 * thread's CPU time a request (µs; undefined where the system does not tell a thread's CPU time).
 */
export interface Serving {
  perSecond: Record<ServerKind, number>;
  busy: Record<ServerKind, number>;
  cpuPerRequest: Record<ServerKind, number | undefined>;
}

/**
 * Requests per second of the sandbox and of the bare and fair Node servers, each on fresh requests.
 * Each server runs in a worker thread of its own (its own core), so the driver's work is not counted
 * against it; how busy that thread was while measured says whether the server was the limit. Any
 * other answers than the expected ones mean the bench itself is broken (a server that refuses every
 * request is fast; a sandbox that fails to create is too): that throws rather than give a figure.
 */
export async function sandboxThroughput(count: number, round = 0): Promise<Serving> {
  const serving: Serving = {
    perSecond: { sandbox: 0, bare: 0, fair: 0 },
    busy: { sandbox: 0, bare: 0, fair: 0 },
    cpuPerRequest: { sandbox: undefined, bare: undefined, fair: undefined },
  };
  // The order turns with the round, so no server is always the first or the last measured.
  const kinds = (['sandbox', 'bare', 'fair'] as const).map((_, i, all) => all[(i + round) % all.length]!);
  for (const kind of kinds) {
    const server = await startServerWorker({ kind });
    try {
      // Warm the server (JIT, connections) before measuring.
      await drive(server.baseUrl, prepareRequests(1_000));
      const before = await server.loopTime();
      const { perSecond, statuses } = await drive(server.baseUrl, prepareRequests(count));
      const after = await server.loopTime();
      // Every order created and every lookup of an unknown payout answered 404 (the sandbox); every request 200 (the others).
      const expected = kind === 'sandbox' ? { 201: Math.ceil(count / 2), 404: Math.floor(count / 2) } : { 200: count };
      const answered = Object.fromEntries([...statuses].sort(([a], [b]) => a - b));
      if (JSON.stringify(answered) !== JSON.stringify(expected))
        throw new Error(
          `the ${kind} server answered ${JSON.stringify(answered)} (by status) where ${JSON.stringify(expected)} was expected`,
        );
      serving.perSecond[kind] = perSecond;
      const active = after.active - before.active;
      serving.busy[kind] = active / (active + after.idle - before.idle);
      if (after.cpuMs !== undefined && before.cpuMs !== undefined)
        serving.cpuPerRequest[kind] = ((after.cpuMs - before.cpuMs) * 1000) / count;
    } finally {
      await server.close();
    }
  }
  return serving;
}
