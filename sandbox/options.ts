import { systemClock, type Clock } from '../core/clock.js';
import type { FaultName } from './faults.js';
import { SANDBOX_RETRY_DELAYS_SECONDS, type WebhookEvent } from '../core/webhooks.js';
import type { AttemptResult, Delivery } from '../webhooks/delivery.js';
import { ScenarioSwitches, type ScenarioName } from './scenarios.js';
import { tenantsWith, type Merchant } from './tenants.js';

/** The legitimate choices the profile leaves to a server: the suites must pass against every combination. */
export interface SandboxVariant {
  /** Create Order answers 200 or 201 (P-ORDER-2). */
  createStatus: 200 | 201;
  /** Verify the raw body bytes or a re-canonicalized parse (P-SIGN-6). */
  verify: 'raw' | 'canonical';
  /** Refuse a re-sent (timestamp, signature) pair, or allow it (P-AUTH-4). */
  replay: 'allow' | 'refuse';
  /** Timestamp window either side of the clock, seconds (P-AUTH-3). */
  toleranceSeconds: number;
  /** When a payout's amount leaves the wallet: as it is initiated, or as it settles SUCCESS (P-OPS-4, P-MONEY-1). */
  debitAt: 'initiation' | 'settlement';
  /** What another method than the operation's gets on its path: 405 or 404, each with the error envelope (P-HTTP-1). */
  otherMethod: 405 | 404;
  /** An identifier longer than 64 characters: kept whole, or refused with 400 (P-DUP-5). */
  longIds: 'keep' | 'refuse';
}

export const DEFAULT_VARIANT: SandboxVariant = {
  createStatus: 201,
  verify: 'raw',
  replay: 'refuse',
  toleranceSeconds: 300,
  debitAt: 'initiation',
  otherMethod: 405,
  longIds: 'keep',
};

/** The variants the proof certifies: each choice takes a parity of row i's bits, so any two choices' values
 * meet in 8 rows (pairwise cover); row 0 is the default. */
export function allVariants(): SandboxVariant[] {
  return Array.from({ length: 8 }, (_, i) => {
    // 1 when the bits of i picked by `mask` have an odd sum.
    const parity = (mask: number) => bitCount(i & mask) % 2 === 1;
    return {
      createStatus: parity(0b001) ? 200 : 201,
      verify: parity(0b010) ? 'canonical' : 'raw',
      replay: parity(0b100) ? 'allow' : 'refuse',
      toleranceSeconds: parity(0b011) ? 900 : 300,
      debitAt: parity(0b101) ? 'settlement' : 'initiation',
      otherMethod: parity(0b110) ? 404 : 405,
      longIds: parity(0b111) ? 'refuse' : 'keep',
    };
  });
}

const bitCount = (n: number) => n.toString(2).replaceAll('0', '').length;

export interface SandboxOptions {
  variant?: Partial<SandboxVariant>;
  faults?: Iterable<FaultName>;
  /** The sandbox's time, injected so tests are deterministic: ms since the epoch (timers then real), or a Clock
   * whose `sleep` its timers wait on too. */
  clock?: (() => number) | Clock;
  /** One line per request, without secrets. */
  log?: (line: string) => void;
  /** Seconds a PROCESSING payout or payment takes to settle (documented sandbox rule). */
  settleSeconds?: number;
  /** Ms a race fault waits between its check and its write (default 5); requests from separate processes
   * need it wider to overlap on a loaded machine. */
  raceWindowMs?: number;
  /** Largest accepted request body, bytes. */
  maxBodyBytes?: number;
  /** Sees every request as received and the status answered (recording mode). */
  record?: (exchange: RecordedExchange) => void;
  /** Misbehave on purpose, once each, to see a client recover (scenarios.ts). */
  scenarios?: Iterable<ScenarioName>;
  /** The one merchant the scenarios apply to (verify-client: the run's), so no other traffic uses them up. */
  scenarioMerchant?: string;
  /** Merchants besides the demo ones (verify-client: tenants.ts runMerchant), each funded like demo merchant A. */
  merchants?: readonly Merchant[];
  /** Seconds `create-order-hang-once` holds its answer (default 30). */
  hangSeconds?: number;
  /** Orders, and separately payouts, kept at most; past it the oldest is forgotten (default 10,000). */
  maxRecords?: number;
  /** Registers this URL as every demo merchant's webhook receiver (serve --webhook-url; P-HOOK-5). */
  webhookUrl?: string;
  /** Lets the registration control request name a receiver off this machine: off by default, since the demo
   * credentials are public and deliveries could otherwise go to any host. */
  allowRemoteWebhooks?: boolean;
  /** Seconds between a failed webhook attempt and the next (default 1, 2, 4, 8: P-HOOK-3). */
  webhookRetryDelaysSeconds?: readonly number[];
  /** One line per webhook delivery attempt: event, id, status, ms (default: the request log). */
  deliveryLog?: (line: string) => void;
  /** Told of every webhook delivery attempt as it ends: verify-client --webhook-url judges the receiver's confirmations by them. */
  onDeliveryAttempt?: (attempt: DeliveryAttempt) => void;
}

/** One webhook delivery attempt of the sandbox, as it ended. */
export interface DeliveryAttempt {
  url: string;
  event: WebhookEvent;
  /** 1 for the first attempt. */
  attempt: number;
  delivery: Delivery;
  result: AttemptResult;
  /** When the answer came (or the attempt failed), on the sandbox's clock. */
  at: number;
}

/** A request as the sandbox received it, unredacted: for recording mode and benchmarks only. */
export interface RecordedExchange {
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body: string;
  receivedAt: number;
  /** When the answer was ready to go out (later than receivedAt by any scenario's hang). */
  respondedAt: number;
  status: number;
  /** Response headers that matter to judging a client (Retry-After). */
  retryAfter?: string;
  /** The answer's body text. */
  responseBody: string;
  /** The scenario that shaped this answer (refused it, held it, or decided its outcome). */
  scenario?: ScenarioName;
  /** The connection it came on, from 1 (absent in-process); HTTP/1.1 without pipelining sends a request only
   * after the answer before it on that connection. */
  connection?: number;
  /** When that connection was accepted: a client that opens a connection writes its request at once. */
  connectedAt?: number;
  /** The longest recent stall of the sandbox's event loop when it read the request (ms): it may have arrived that much earlier. */
  stalledMs?: number;
}

/** The options with every default filled. */
export type ResolvedOptions = ReturnType<typeof resolveOptions>;

export function resolveOptions(options: SandboxOptions = {}) {
  const variant = { ...DEFAULT_VARIANT, ...options.variant };
  if (![200, 201].includes(variant.createStatus)) throw new RangeError('sandbox: variant.createStatus must be 200 or 201');
  if (!Number.isInteger(variant.toleranceSeconds) || variant.toleranceSeconds < 1) {
    throw new RangeError('sandbox: variant.toleranceSeconds must be a whole number of seconds, at least 1');
  }
  const { merchants, wallets } = tenantsWith(options.merchants ?? []);
  if (options.scenarioMerchant !== undefined && !merchants.some((m) => m.id === options.scenarioMerchant && m.environment === 'sandbox')) {
    throw new RangeError(`sandbox: scenarioMerchant ${JSON.stringify(options.scenarioMerchant)} is not a merchant of this sandbox`);
  }
  const scenarios = new ScenarioSwitches(options.scenarios ?? [], options.hangSeconds, options.scenarioMerchant);
  const clock = options.clock;
  return {
    variant,
    faults: new Set(options.faults ?? []) as ReadonlySet<FaultName>,
    clock: typeof clock === 'object' ? () => clock.now() : (clock ?? Date.now),
    /** The clock the sandbox's own timers wait on: the injected Clock, or real time. */
    timerClock: typeof clock === 'object' ? clock : systemClock,
    log: options.log ?? (() => {}),
    settleSeconds: options.settleSeconds ?? 2,
    raceWindowMs: options.raceWindowMs ?? 5,
    maxBodyBytes: options.maxBodyBytes ?? 64 * 1024,
    record: options.record,
    /** This instance's armed scenarios: each fires once, then the sandbox behaves normally. */
    scenarios,
    /** Every merchant this sandbox knows (the demo ones first), and their wallets as they open. */
    merchants,
    wallets,
    maxRecords: options.maxRecords ?? 10_000,
    webhookUrl: options.webhookUrl,
    allowRemoteWebhooks: options.allowRemoteWebhooks ?? false,
    webhookRetryDelaysSeconds: options.webhookRetryDelaysSeconds ?? SANDBOX_RETRY_DELAYS_SECONDS,
    deliveryLog: options.deliveryLog ?? options.log ?? (() => {}),
    onDeliveryAttempt: options.onDeliveryAttempt,
  };
}
