// The one HTTP layer of the suites: signs (P-SIGN), sends with timeouts, resends what a replay of
// another run's request or a rate limit explains, and records each exchange as redacted evidence.
import { Readable } from 'node:stream';
import type { Agent } from 'undici';
import { systemClock, type Clock } from '../core/clock.js';
import type { Exchange, ExchangeRequest } from '../core/exchange.js';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';
import { toleranceOf, type TargetConfig } from './config.js';
import { dispatch } from './dispatch.js';
import { evidenceHeaders } from '../common/redact.js';
import { answerOf, describeTransportError, LIMITS, shortened, signingOf } from './evidence.js';
import { redactor, type Redactor } from './redact.js';
import { bodyOf, headersOf, isCorrectlySigned, queryOf, type Credentials, type SendOptions } from './send-options.js';
import { DEFAULT_TIMEOUT_MS } from './settings.js';
import { UsedSeconds } from './used-seconds.js';

export type { Credentials, SendOptions } from './send-options.js';

export type { Exchange } from '../core/exchange.js';

export interface ClientOptions {
  /** The deadline of each exchange, whole: connecting, then the answer's headers and all of its body (ms). */
  timeoutMs?: number | undefined;
  /** The client clock; injected to share a virtual clock with an in-process sandbox. Default: the system's. */
  clock?: Clock | undefined;
  /** Sees every exchange, redacted, as it completes. */
  onExchange?: ((exchange: Exchange) => void) | undefined;
  /** When the whole run must end (ms since the epoch, on the `now` clock): nothing is sent after it. */
  deadlineAt?: number | undefined;
  /** How the budget was given, for the message (e.g. "--max-time 900"). */
  deadlineSource?: string | undefined;
  /** Text every id of this run carries (its run tag): a body holding it cannot be another run's request. */
  ownMark?: string | undefined;
  /** Aborted when the command is interrupted (Ctrl-C, kill): nothing more is sent after it. */
  interrupted?: AbortSignal | undefined;
}

/** After this many answers in a row that came near the timeout, or not at all, the run stops. */
const MAX_SLOW_IN_A_ROW = 3;
/** An answer slower than this share of the timeout counts as near it. */
const SLOW_SHARE = 0.8;
/** 429s in a row to one request (it and its three retries) that stop the run. Per request: requests side
 *  by side may each meet the limit once and pass after their Retry-After, a limit that lifts. */
const MAX_RATE_LIMITED_IN_A_ROW = 4;
const MAX_RATE_LIMIT_RETRIES = MAX_RATE_LIMITED_IN_A_ROW - 1;
/** Resends of a correctly signed request refused 401: another run may have sent the same body in the same
 *  second (P-AUTH-4); each picks a random second, so twelve rarely all meet seconds other runs hold. */
export const MAX_REPLAY_RESENDS = 12;

/** The exchanges still refused 401 after every resend that another run's identical request may explain, and what was refused. */
const usedUp = new WeakMap<Exchange, string>();

/** What was refused, when a body other runs may send too, correctly signed with proven keys, is still
 *  refused after MAX_REPLAY_RESENDS: its replay window may be used up, so it judges nothing (P-CLI v1.3). */
export function replayWindowUsedUp(exchange: Exchange): string | undefined {
  return usedUp.get(exchange);
}
/** Refusals with no acceptance after which the keys are wrong: no more resends. Only requests with the
 *  run's own ids count: a shared body may be refused as another run's replay. */
const KEYS_REFUSED_AFTER = 3;
/** A wait at least this long is announced, so a run that waits is not mistaken for one that hangs. */
const ANNOUNCED_WAIT_MS = 2_000;
/** Retry-After in seconds (or an HTTP date), bounded to 10 s; 1 s when absent or unreadable. */
export function retryAfterMs(value: string | undefined): number {
  if (value === undefined) return 1000;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.min(10_000, Math.max(0, seconds * 1000)) : 1000;
}

export class TargetClient {
  readonly redact: Redactor;
  /** Made at the first request: undici is slow to load, and a command that sends none need not. */
  private agent: Promise<Agent> | undefined;
  private readonly timeoutMs: number;
  private readonly clock: Clock;
  private readonly baseUrl: string;
  /** The (timestamp, signature) pairs sent, shared with sibling clients: none is sent twice. */
  private used: UsedSeconds;
  /** Per API key: correctly signed requests answered other than 401, and answered 401. */
  private keyAnswers = new Map<string, { accepted: number; refused: number }>();
  private slowInARow = 0;
  private stopReason: string | undefined;
  /** Told of long waits (a Retry-After), to show as progress. */
  onWait: ((message: string) => void) | undefined;
  /** Requests sent and not yet answered (a quiet window waits for none), and who waits for that. */
  private out = 0;
  private readonly drained: Array<() => void> = [];
  /** Open while a quiet window is (see quietly): every other request waits for it. */
  private window: Promise<void> | undefined;

  constructor(
    readonly config: TargetConfig,
    private readonly options: ClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.clock = options.clock ?? systemClock;
    this.redact = redactor(config);
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.used = new UsedSeconds(this.nowSeconds());
  }

  /** A client with its own connections, not stopped or interrupted with this one, sharing its record of
   *  pairs sent and keys' answers: undoes what the run did at the target after it stopped. */
  sibling(options: Pick<ClientOptions, 'timeoutMs' | 'deadlineAt' | 'deadlineSource'>): TargetClient {
    const { clock, onExchange, ownMark } = this.options;
    const other = new TargetClient(this.config, { ...options, clock, onExchange, ownMark });
    other.used = this.used;
    other.keyAnswers = this.keyAnswers;
    return other;
  }

  nowSeconds(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  /** Why the run stopped sending (its budget, or a target that only throttles or stalls), if it has. */
  get stopped(): string | undefined {
    return this.stopReason;
  }

  /** Usually the first answer; a 401 that may be a replay, or a 429, sends again (see sendAgain). */
  async send(options: SendOptions): Promise<Exchange> {
    // A quiet window is open (see quietly): this request waits until it closes.
    while (this.window !== undefined) await this.window;
    this.out += 1;
    try {
      return await this.sendNow(options);
    } finally {
      this.out -= 1;
      if (this.out === 0) for (const drained of this.drained.splice(0)) drained();
    }
  }

  /** Runs `work` with no other request out, new ones held back until it ends: a balance seen to move
   *  then moved by no request of the run's (P-MONEY-1's other activity). */
  async quietly<T>(work: (send: (options: SendOptions) => Promise<Exchange>) => Promise<T>): Promise<T> {
    while (this.window !== undefined) await this.window;
    let close!: () => void;
    this.window = new Promise<void>((closed) => (close = closed));
    try {
      if (this.out > 0) await new Promise<void>((drained) => this.drained.push(drained));
      // Their senders note what they answered (a payout made) before the work reads what the run made.
      await new Promise((noted) => setImmediate(noted));
      return await work((options) => this.sendNow(options));
    } finally {
      this.window = undefined;
      close();
    }
  }

  private async sendNow(options: SendOptions): Promise<Exchange> {
    // A label is a check's own text (a team's may hold the secret it was handed): shown only redacted.
    const label = this.redact(options.label);
    const first = await this.sendOnce(options, label);
    this.tallyKeys(options, first);
    if (first.response?.status === 401 || first.response?.status === 429) return this.sendAgain(options, label, first);
    this.options.onExchange?.(first);
    return first;
  }

  /** After a 401 or a 429: the request sent again while that may help, and the last exchange. */
  private async sendAgain(options: SendOptions, label: string, first: Exchange): Promise<Exchange> {
    let exchange = first;
    // Refused 401 though correctly signed with keys the target has taken before: perhaps as a replay of
    // another run's identical request (P-CLI: runs are independent). Sent again, freshly timestamped.
    let again = 1;
    for (; again <= MAX_REPLAY_RESENDS && this.mayBeReplayed(options, exchange); again++) {
      exchange = await this.sendOnce(options, label, true);
      this.tallyKeys(options, exchange);
      exchange.label = `${label} (sent again with a fresh X-TIMESTAMP: refused 401 ${again === 1 ? 'once' : `${again} times`} though correctly signed, as a target refuses a replay of another run's identical request)`;
      exchange.resent = again;
    }
    if (again > MAX_REPLAY_RESENDS && this.mayBeReplayed(options, exchange))
      usedUp.set(
        exchange,
        `${label} was refused 401 ${MAX_REPLAY_RESENDS + 1} times, each time with a fresh X-TIMESTAMP, as a target that refuses replays (P-AUTH-4) refuses another run's identical request`,
      );
    // A rate limit is a legitimate answer (its values are the deployment's): wait as told, then
    // send the request again, freshly signed. The checks judge the answer that follows.
    for (let retry = 1; retry <= MAX_RATE_LIMIT_RETRIES && exchange.response?.status === 429 && this.stopReason === undefined; retry++) {
      const wait = retryAfterMs(exchange.response.headers['retry-after']);
      if (this.options.deadlineAt !== undefined && this.clock.now() + wait >= this.options.deadlineAt) {
        this.stopReason ??= `its time budget (${this.options.deadlineSource ?? 'max time'}) would run out waiting for the target's Retry-After`;
        break;
      }
      if (wait >= ANNOUNCED_WAIT_MS)
        this.onWait?.(
          `waiting ${Math.round(wait / 1000)} s: the target answered ${label} with 429 (rate limited) ${retry} time${retry > 1 ? 's' : ''} in a row`,
        );
      await this.clock.sleep(wait);
      exchange = await this.sendOnce(options, label);
      exchange.label = `${label} (sent again after ${retry} rate-limit answer${retry > 1 ? 's' : ''})`;
      if (retry === MAX_RATE_LIMIT_RETRIES && exchange.response?.status === 429) {
        this.stopReason ??= `the target answered 429 (rate limited) ${MAX_RATE_LIMITED_IN_A_ROW} times in a row; raise its rate limit for the kit's API key, or run again once it has lifted`;
      }
    }
    this.options.onExchange?.(exchange);
    return exchange;
  }

  /** A correct 401 with keys not shown wrong, on a body another run may have sent too: maybe that run's
   *  replay. A body with this run's own ids cannot be: its 401 stands. */
  private mayBeReplayed(options: SendOptions, exchange: Exchange): boolean {
    if (exchange.response?.status !== 401 || !isCorrectlySigned(options) || this.stopReason !== undefined) return false;
    if (!this.isShared(options)) return false;
    const as = options.as ?? this.config.merchant;
    const known = [this.config.merchant, this.config.otherMerchant].some(
      (m) => m !== undefined && m.apiKey === as.apiKey && m.secretKey === as.secretKey,
    );
    const answers = this.keyAnswers.get(as.apiKey);
    return known && !(answers !== undefined && answers.accepted === 0 && answers.refused >= KEYS_REFUSED_AFTER);
  }

  /** Whether another run may send this body too: it carries none of this run's ids (a run without them: any body). */
  private isShared(options: SendOptions): boolean {
    if (this.options.ownMark === undefined) return true;
    const body = options.raw ?? (options.payload === undefined ? '' : canonicalize(options.payload));
    return !body.includes(this.options.ownMark);
  }

  private tallyKeys(options: SendOptions, exchange: Exchange): void {
    if (!isCorrectlySigned(options) || exchange.response === undefined) return;
    const key = (options.as ?? this.config.merchant).apiKey;
    const answers = this.keyAnswers.get(key) ?? { accepted: 0, refused: 0 };
    if (exchange.response.status === 401) answers.refused += this.options.ownMark !== undefined && this.isShared(options) ? 0 : 1;
    else answers.accepted += 1;
    this.keyAnswers.set(key, answers);
  }

  private async sendOnce(options: SendOptions, label: string, resend = false): Promise<Exchange> {
    const as = options.as ?? this.config.merchant;
    const method = options.method ?? 'POST';
    // P-SIGN-4: a request without a body signs "" + timestamp; a GET carries its fields in the query.
    const form = options.form !== undefined ? new URLSearchParams(options.form).toString() : undefined;
    const body = bodyOf(options, method, form);
    // A form is a browser's: no key, no timestamp, no signature (and no timestamp to wait for).
    const timestamp =
      form !== undefined ? '' : options.timestamp === undefined ? await this.freshTimestamp(body, as, resend) : String(options.timestamp);
    const signedBody = options.signedBody ?? body;
    const signedTimestamp = options.signBodyOnly ? '' : (options.signedTimestamp ?? timestamp);
    const computed = hmacSha256Hex(as.secretKey, signedBody + signedTimestamp);
    const signature = typeof options.signature === 'function' ? options.signature(computed) : (options.signature ?? computed);
    if (!options.reuse && form === undefined) this.used.markUsed(timestamp, signature);
    const headers = headersOf(options, as, { method, timestamp, signature, form });
    const url = this.baseUrl + options.path + (method === 'GET' ? queryOf(options.payload) : '');
    const started = performance.now();
    const request = {
      method,
      url: this.redact(url),
      headers: evidenceHeaders(Object.entries({ ...headers, ...(options.chunked ? { 'transfer-encoding': 'chunked' } : {}) }), this.redact),
      body: shortened(this.redact(body)),
    };
    const signing =
      form === undefined
        ? signingOf(this.config, this.redact, options, { as, timestamp, computed, signature, sentAt: this.nowSeconds() })
        : undefined;
    const sent: ExchangeRequest = { label, request, ms: 0, ...(signing !== undefined ? { signing } : {}) };
    const stopped = this.stoppedBeforeSending();
    if (stopped !== undefined) return { ...sent, error: { code: 'stopped', message: `not sent: the run stopped: ${stopped}` } };
    let exchange: Exchange;
    try {
      const answer = await dispatch(await this.connections(), url, {
        method,
        headers,
        // A stream, whose length undici does not know: sent with Transfer-Encoding: chunked.
        body: method === 'GET' ? undefined : options.chunked ? Readable.from([Buffer.from(body)]) : body,
        timeoutMs: this.timeoutMs,
        limits: LIMITS,
      });
      // A server that echoes a signature back (in an error message, say) must not leak it into reports.
      exchange = { ...sent, response: answerOf(answer, this.redact.withSignatures([signature, computed])) };
    } catch (error) {
      exchange = { ...sent, error: describeTransportError(error, url, this.timeoutMs) };
    }
    exchange.ms = Math.round(performance.now() - started);
    this.tally(exchange);
    return exchange;
  }

  /** Why nothing more is sent (the time budget reached, the command interrupted, a stop before), if so. */
  private stoppedBeforeSending(): string | undefined {
    const { deadlineAt, deadlineSource, interrupted } = this.options;
    if (deadlineAt !== undefined && this.clock.now() >= deadlineAt)
      this.stopReason ??= `it reached its time budget (${deadlineSource ?? 'max time'})`;
    if (interrupted?.aborted === true) this.stopReason ??= `it was interrupted (${String(interrupted.reason)})`;
    return this.stopReason;
  }

  private connections(): Promise<Agent> {
    const connect = { timeout: this.timeoutMs };
    return (this.agent ??= import('undici').then(({ Agent }) => new Agent({ connections: 32, keepAliveTimeout: 10_000, connect })));
  }

  async close(): Promise<void> {
    await (await this.agent)?.close();
  }

  /** A streak of answers near the timeout or none means the run cannot finish in useful time; any other
   *  answer ends it. A rate limit that does not lift is judged per request, in send. */
  private tally(exchange: Exchange): void {
    const slow = exchange.error?.code === 'timeout' || exchange.ms >= this.timeoutMs * SLOW_SHARE;
    this.slowInARow = slow ? this.slowInARow + 1 : 0;
    if (this.slowInARow >= MAX_SLOW_IN_A_ROW) {
      this.stopReason ??= `the target did not answer, or took more than ${(this.timeoutMs * SLOW_SHARE) / 1000} s (of the ${this.timeoutMs / 1000} s --timeout), ${this.slowInARow} times in a row`;
    }
  }

  /** A free second for this body, taken at once (see UsedSeconds.take); while none is, the next second. */
  private async freshTimestamp(body: string, as: Credentials, resend: boolean): Promise<string> {
    for (;;) {
      const second = this.used.take(body, as.secretKey, this.nowSeconds(), toleranceOf(this.config), resend);
      if (second !== undefined) return second;
      await this.clock.sleep(1000 - (this.clock.now() % 1000) + 5);
    }
  }
}
