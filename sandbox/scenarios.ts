// Scenarios: the sandbox misbehaves once each as a conforming server may (5xx, 429, a slow answer, a failed
// payout), to judge a client's recovery (P-CLIENT). An authenticated request uses up one, in catalog order.
import { setTimeout as sleep } from 'node:timers/promises';
import { errorResponse, type SandboxResponse } from './envelope.js';
import { parseNames, type FaultName } from './faults.js';
import { OPERATION_PATHS } from './paths.js';

type ScenarioOperation = 'createOrder' | 'transactionInitiation';

export interface ScenarioSpec {
  /** The operation whose next authenticated request the scenario changes. */
  operation: ScenarioOperation;
  /** `refuse` answers an error instead (nothing created); `hold` runs it and holds the answer `hangSeconds`;
   * `outcome` changes the result the operation records. */
  effect: 'refuse' | 'hold' | 'outcome';
  /** The P-CLIENT rules a client's recovery is judged by, the main one first. */
  rules: readonly [string, ...string[]];
  /** The error answered by a `refuse` scenario (the general error envelope). */
  refusal?: { status: number; message: string; retryAfter?: string };
  description: string;
  /** What a conforming client does next. */
  recovery: string;
}

export const SCENARIOS = {
  'create-order-503-once': {
    operation: 'createOrder',
    effect: 'refuse',
    rules: ['P-CLIENT-6'],
    refusal: { status: 503, message: 'service temporarily unavailable (sandbox scenario create-order-503-once)' },
    description: 'the first Create Order is answered 503 (the error envelope) and no order is created',
    recovery: 'asks Order Status for that order_id before creating it again',
  },
  'create-order-429-once': {
    operation: 'createOrder',
    effect: 'refuse',
    rules: ['P-CLIENT-7', 'P-CLIENT-6'],
    refusal: {
      status: 429,
      message: 'rate limit exceeded; retry after 1 second (sandbox scenario create-order-429-once)',
      retryAfter: '1',
    },
    description: 'the first Create Order is answered 429 with Retry-After: 1 and no order is created',
    recovery: 'waits at least 1 second, then asks Order Status before creating the order again',
  },
  'create-order-hang-once': {
    operation: 'createOrder',
    effect: 'hold',
    rules: ['P-CLIENT-6'],
    description: "the first Create Order that creates an order has its answer held for hangSeconds (default 30), past a client's timeout",
    recovery: 'after its timeout, asks Order Status (which finds the order) instead of creating it again',
  },
  'payout-initiate-502-once': {
    operation: 'transactionInitiation',
    effect: 'refuse',
    rules: ['P-CLIENT-6'],
    refusal: { status: 502, message: 'banking upstream failure (sandbox scenario payout-initiate-502-once)' },
    description: 'the first Transaction Initiation is answered 502 (banking upstream failure) and no payout is created',
    recovery: 'asks Payout Status for that payout_order_id before initiating it again',
  },
  'payout-failed': {
    operation: 'transactionInitiation',
    effect: 'outcome',
    rules: ['P-CLIENT-6'],
    description: 'the next initiated payout is FAILED "Insufficient wallet balance" (nothing debited, utr NA), whatever its amount',
    recovery: 'treats the FAILED record as the outcome; a new attempt uses a fresh payout_order_id',
  },
} as const satisfies Record<string, ScenarioSpec>;

export type ScenarioName = keyof typeof SCENARIOS;
export const SCENARIO_NAMES = Object.keys(SCENARIOS) as ScenarioName[];

/** Seconds a `create-order-hang-once` answer is held unless told otherwise. */
export const DEFAULT_HANG_SECONDS = 30;
/** The longest hold: a day. Timers fire at once past 2^31-1 ms (~24.8 days), so a longer hold would not hold. */
export const MAX_HANG_SECONDS = 86_400;

export const parseScenarios = (names: Iterable<string>) => parseNames(SCENARIOS, 'scenario', names);

/** The armed scenarios of one sandbox instance; each fires once (`around` wraps every authenticated operation,
 * a handler asks `take` for an `outcome` one). */
export class ScenarioSwitches {
  private readonly armed: Set<ScenarioName>;
  /** The scenario that shaped each answer it shaped, for the recording. */
  readonly applied = new WeakMap<SandboxResponse, ScenarioName>();
  private readonly release = new AbortController();

  /** `onlyFor`: the one merchant the scenarios apply to; others' requests leave them armed (verify-client). */
  constructor(
    names: Iterable<ScenarioName>,
    readonly hangSeconds: number = DEFAULT_HANG_SECONDS,
    private readonly onlyFor?: string,
  ) {
    this.armed = parseScenarios(names);
    if (!(hangSeconds > 0 && hangSeconds <= MAX_HANG_SECONDS))
      throw new RangeError(`sandbox: hangSeconds must be a number of seconds above 0 and at most ${MAX_HANG_SECONDS}`);
  }

  /** True the first time it is asked about an armed scenario for a request of `merchantId`, then never again. */
  take(name: ScenarioName, merchantId: string): boolean {
    if (this.onlyFor !== undefined && merchantId !== this.onlyFor) return false;
    return this.armed.delete(name);
  }

  /** Notes that `response` was shaped by scenario `name`. */
  mark(response: SandboxResponse, name: ScenarioName): SandboxResponse {
    this.applied.set(response, name);
    return response;
  }

  /** Runs one authenticated operation under the armed scenarios: `refuse` answers the error envelope instead of
   * it (its `faults` applied), `hold` holds its successful answer. */
  async around(path: string, merchantId: string, run: () => Promise<SandboxResponse>, faults: ReadonlySet<FaultName>) {
    const refusing = this.armedFor(path, 'refuse');
    const refusal = refusing === undefined ? undefined : (SCENARIOS[refusing] as ScenarioSpec).refusal;
    if (refusing !== undefined && refusal !== undefined && this.take(refusing, merchantId)) {
      const response = errorResponse(refusal.status, refusal.message, faults);
      if (refusal.retryAfter !== undefined) response.headers.set('retry-after', refusal.retryAfter);
      return this.mark(response, refusing);
    }
    const response = await run();
    const holding = this.armedFor(path, 'hold');
    if (holding !== undefined && response.ok && this.take(holding, merchantId)) {
      // Other requests go on meanwhile; the timer does not keep the process alive, and close ends it.
      await sleep(this.hangSeconds * 1000, undefined, { ref: false, signal: this.release.signal }).catch(() => {});
      return this.mark(response, holding);
    }
    return response;
  }

  /** The first armed scenario, in catalog order, of this effect on the operation at `path`. */
  private armedFor(path: string, effect: ScenarioSpec['effect']): ScenarioName | undefined {
    return SCENARIO_NAMES.find(
      (name) => this.armed.has(name) && SCENARIOS[name].effect === effect && OPERATION_PATHS[SCENARIOS[name].operation] === path,
    );
  }

  /** Stops holding: a held answer goes out at once, and later ones are not held (sandbox close). */
  releaseHeld(): void {
    this.release.abort();
  }
}
