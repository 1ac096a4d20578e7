import { Agent } from 'undici';
import { systemClock, type Clock } from '../core/clock.js';
import type { Exchange, ExchangeRequest, HttpAnswer, Signing, TransportErrorCode } from '../core/exchange.js';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';
import { toleranceOf, type TargetConfig } from './config.js';
import type { BoundedBody } from '../common/bounded-body.js';
import { dispatch } from './dispatch.js';
import { transportFailureOf } from '../common/net-errors.js';
import { evidenceHeaders } from '../common/redact.js';
import { redactor, type Redactor } from './redact.js';

export interface Credentials {
  apiKey: string;
  secretKey: string;
}

export type AuthHeader = 'X-API-KEY' | 'X-SIGNATURE' | 'X-TIMESTAMP' | 'Content-Type' | 'Accept';

export interface SendOptions {
  /** What the exchange is for, shown with its evidence. */
  label: string;
  path: string;
  /** POST by default; PUT, PATCH and DELETE only to see how a path answers another method (P-HTTP-1). */
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Content-Type as sent, in place of `application/json` (P-HTTP-2: a charset parameter, another letter case). */
  contentType?: string;
  /** A JSON payload, sent as its canonical text (P-SIGN-3)… */
  payload?: unknown;
  /** …or a body text sent and signed exactly as given (malformed bodies, P-ERR-4). */
  raw?: string;
  /** Whose keys sign and identify the request; default the configured merchant. */
  as?: Credentials;
  /** X-TIMESTAMP as sent; default the client clock's whole seconds. */
  timestamp?: string | number;
  /** Sign with this timestamp text instead of the one sent (a timestamp changed after signing). */
  signedTimestamp?: string;
  /** Sign this text instead of the body sent (a body changed after signing), or null to leave the timestamp out. */
  signedBody?: string;
  /** Leave the timestamp out of the signed message (a client that signs the body alone). */
  signBodyOnly?: boolean;
  /** Replace the signature, e.g. to truncate or alter it. */
  signature?: string | ((signature: string) => string);
  omit?: readonly AuthHeader[];
  /** Header names as written: the interface's capitals, or all lower case (P-AUTH-1). */
  headerCase?: 'interface' | 'lower';
  /** Allow the same (timestamp, signature) as an earlier request: only the replay check wants it. */
  reuse?: boolean;
  /**
   * A form a person's browser submits (the reference sandbox's hosted checkout): sent unsigned as
   * application/x-www-form-urlencoded, as a browser sends it; its answer is a page, not an operation's.
   */
  form?: Record<string, string>;
}

/** Whether a request is signed the profile's way over the bytes it sends, with a timestamp the client chose: nothing altered, omitted or reused. */
function isCorrectlySigned(options: SendOptions): boolean {
  return (
    options.timestamp === undefined &&
    options.signedTimestamp === undefined &&
    options.signedBody === undefined &&
    !options.signBodyOnly &&
    options.signature === undefined &&
    (options.omit === undefined || options.omit.length === 0) &&
    !options.reuse &&
    options.form === undefined
  );
}

/**
 * Whether a request is deliberately signed wrong or not at all (a header left out, the signature
 * replaced or altered, the body or the timestamp changed after signing, the body signed alone).
 */
export function isMisSigned(options: SendOptions): boolean {
  return (
    options.signature !== undefined ||
    options.signedBody !== undefined ||
    options.signedTimestamp !== undefined ||
    options.signBodyOnly === true ||
    (options.omit ?? []).some((header) => header === 'X-API-KEY' || header === 'X-SIGNATURE' || header === 'X-TIMESTAMP')
  );
}

/**
 * Whether a request is signed the profile's way with the configured merchant's own keys: a fresh
 * timestamp, the canonical body, nothing altered, omitted or reused. A server given the right keys
 * never answers such a request 401, so when every one of them is, the keys are what is wrong.
 */
export function isPlainlySigned(options: SendOptions, merchant: Credentials): boolean {
  const as = options.as ?? merchant;
  return as.apiKey === merchant.apiKey && as.secretKey === merchant.secretKey && options.raw === undefined && isCorrectlySigned(options);
}

export type { Exchange, TransportErrorCode } from '../core/exchange.js';

export interface ClientOptions {
  /** The deadline of each exchange, whole: connecting, then the answer's headers and all of its body (ms). */
  timeoutMs?: number;
  /** The client clock; injected to share a virtual clock with an in-process sandbox. Default: the system's. */
  clock?: Clock;
  /** Sees every exchange, redacted, as it completes. */
  onExchange?: (exchange: Exchange) => void;
  /** When the whole run must end (ms since the epoch, on the `now` clock): nothing is sent after it. */
  deadlineAt?: number;
  /** How the budget was given, for the message (e.g. "--max-time 900"). */
  deadlineSource?: string;
  /** Text every id of this run carries (its run tag): a body holding it cannot be another run's request. */
  ownMark?: string;
  /** Aborted when the command is interrupted (Ctrl-C, kill): nothing more is sent after it. */
  interrupted?: AbortSignal;
}

const MAX_EVIDENCE_BODY = 8 * 1024;
/** Of an answer's body, this much is kept (to judge and show); the rest is read, counted and dropped. */
export const MAX_KEPT_BODY = 1024 * 1024;
/** Past this much, reading stops and the connection is dropped: the target is flooding. */
export const MAX_READ_BODY = 64 * 1024 * 1024;
const LIMITS = { keep: MAX_KEPT_BODY, stopAfter: MAX_READ_BODY };

/** What the evidence says about a body that was not kept whole. */
export function cutNote(body: BoundedBody): string {
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MiB`;
  return body.stopped
    ? `[the target sent more than ${mib(body.receivedBytes)} and kept sending; the kit kept the first ${mib(MAX_KEPT_BODY)}, stopped reading and closed the connection]`
    : `[the target sent ${body.receivedBytes} bytes; the kit kept the first ${MAX_KEPT_BODY} and discarded the rest]`;
}
/** After this many answers in a row that came near the timeout, or not at all, the run stops. */
export const MAX_SLOW_IN_A_ROW = 3;
/** An answer slower than this share of the timeout counts as near it. */
const SLOW_SHARE = 0.8;
/**
 * After this many 429 answers in a row to one request (it and its three retries), the run stops.
 * Counted per request, not across the run: requests sent side by side may each meet the limit once
 * and go through after their Retry-After, which is a limit that lifts.
 */
export const MAX_RATE_LIMITED_IN_A_ROW = 4;
const MAX_RATE_LIMIT_RETRIES = MAX_RATE_LIMITED_IN_A_ROW - 1;
/**
 * How many times a correctly signed request refused 401 is sent again with a fresh timestamp. Another
 * run against the same target may have sent the very same request (a fixture read, a Balance Inquiry:
 * bodies that allow no variation) in the same second; a target that refuses replays (P-AUTH-4) then
 * refuses ours. Each resend picks a second at random, so it meets the other run's again only by chance.
 * Twelve: after a burst of runs (each reads the balance two dozen times) others held 80% of the seconds
 * a resend draws from; thirteen tries all meet held ones 1 time in 18, where six did 1 in 4.
 */
export const MAX_REPLAY_RESENDS = 12;

/** The exchanges still refused 401 after every resend that another run's identical request may explain, and what was refused. */
const usedUp = new WeakMap<Exchange, string>();

/**
 * What was refused, when this exchange is a request whose body other runs may send too (no id of this
 * run in it), correctly signed with keys the target has taken, and still refused 401 after
 * MAX_REPLAY_RESENDS fresh timestamps: that body's replay window may be used up by other runs
 * (P-AUTH-4), so the refusal judges nothing (profile v1.3, P-CLI "Verdicts (v1.3)").
 */
export function replayWindowUsedUp(exchange: Exchange): string | undefined {
  return usedUp.get(exchange);
}
/**
 * This many requests refused, with no correctly signed request of those keys ever accepted, the keys
 * are wrong: no more resends. Only requests with this run's own ids count (when it has them): a body
 * other runs send too may be refused as their replay, its window used up, which says nothing of the keys.
 */
const KEYS_REFUSED_AFTER = 3;
/** A wait at least this long is announced, so a run that waits is not mistaken for one that hangs. */
const ANNOUNCED_WAIT_MS = 2_000;
/** Seconds drawn at random before the free ones of a range are listed (see freeAtRandom). */
const RANDOM_TRIES = 4;

/**
 * A second of from..to for which `isFree` holds, each such second as likely as any other; undefined
 * when none is. A few are drawn at random first: the first free one drawn is as uniform a pick among
 * the free ones as a draw from their list, which is built only when none of those was free.
 */
export function freeAtRandom(from: number, to: number, isFree: (second: number) => boolean): number | undefined {
  if (from > to) return undefined;
  for (let tries = 0; tries < RANDOM_TRIES; tries++) {
    const second = from + Math.floor(Math.random() * (to - from + 1));
    if (isFree(second)) return second;
  }
  const free: number[] = [];
  for (let second = from; second <= to; second++) if (isFree(second)) free.push(second);
  return free.length === 0 ? undefined : free[Math.floor(Math.random() * free.length)];
}

/** Decodes each answer (a whole body at a time, so one decoder serves every request). */
const UTF8 = new TextDecoder('utf-8');

/** Retry-After in seconds (or an HTTP date), bounded to 10 s; 1 s when absent or unreadable. */
export function retryAfterMs(value: string | undefined): number {
  if (value === undefined) return 1000;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.min(10_000, Math.max(0, seconds * 1000)) : 1000;
}

/** A GET's fields as a query string (scalars only; the interface shows no GET payloads). */
function queryOf(payload: unknown): string {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(payload)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The one HTTP layer of the suites: signs (P-SIGN), sends with timeouts, records each exchange as
 * evidence with secrets and signatures redacted. Nothing else in the kit builds requests by hand.
 */
export class TargetClient {
  readonly redact: Redactor;
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly clock: Clock;
  private readonly now: () => number;
  /** The configured base URL without a trailing slash: each path is appended to it. */
  private readonly baseUrl: string;
  /**
   * The (timestamp, signature) pairs sent, in two places. Those signed as computed are kept by what
   * was signed, equal exactly when the signatures are: per secret, per body, the timestamps the body
   * was signed with (the text signed being body + timestamp). Keyed by the body text itself, not a
   * key joined from it, so a body's look-ups hash it once. So whether a body's pair at a second is
   * taken is a look-up, not an HMAC: a repeated read looks at up to 150 seconds. A signed text that
   * does not end with its timestamp is no body + second, so no body's pair can equal it.
   */
  private usedSigned = new Map<string, Map<string, Set<string>>>();
  /** The other: pairs whose signature a check gave or altered, by the signature itself. */
  private usedGiven = new Set<string>();
  /** The seconds of `usedGiven`: only at these is a body's signature computed to compare. */
  private givenSeconds = new Set<string>();
  /** The X-TIMESTAMPs of both: a second no request carried is free without more. */
  private usedSeconds = new Set<string>();
  /** Whole seconds when the run began: a timestamp from then on was never used by an earlier run. */
  private startSecond: number;
  /** Per API key: correctly signed requests answered other than 401, and answered 401. */
  private keyAnswers = new Map<string, { accepted: number; refused: number }>();
  private slowInARow = 0;
  /** Why the run stopped sending, once it has. */
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
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.clock = options.clock ?? systemClock;
    this.now = () => this.clock.now();
    this.agent = new Agent({ connections: 32, keepAliveTimeout: 10_000, connect: { timeout: this.timeoutMs } });
    this.redact = redactor(config);
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.startSecond = this.nowSeconds();
  }

  /**
   * A client with connections of its own, neither stopped nor interrupted with this one, that shares
   * this one's record of the pairs sent (neither repeats a pair of the other's) and of the keys'
   * answers: to undo what the run did at the target after the run stopped or was interrupted.
   */
  sibling(options: Pick<ClientOptions, 'timeoutMs' | 'deadlineAt' | 'deadlineSource'>): TargetClient {
    const { clock, onExchange, ownMark } = this.options;
    const other = new TargetClient(this.config, {
      ...options,
      ...(clock !== undefined ? { clock } : {}),
      ...(onExchange !== undefined ? { onExchange } : {}),
      ...(ownMark !== undefined ? { ownMark } : {}),
    });
    other.usedSigned = this.usedSigned;
    other.usedGiven = this.usedGiven;
    other.givenSeconds = this.givenSeconds;
    other.usedSeconds = this.usedSeconds;
    other.keyAnswers = this.keyAnswers;
    other.startSecond = this.startSecond;
    return other;
  }

  /** The profile's signature of a text at a timestamp (P-SIGN-2), for checks that build their own headers. */
  signatureOf(text: string, timestamp: string, as: Credentials = this.config.merchant): string {
    return hmacSha256Hex(as.secretKey, text + timestamp);
  }

  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  /** Why the run stopped sending (its budget, or a target that only throttles or stalls), if it has. */
  get stopped(): string | undefined {
    return this.stopReason;
  }

  /**
   * Sends a request and returns its exchange: usually the first answer; a 401 that may be a replay of
   * another run's request, or a 429, sends it again (see sendAgain). Not an async function: the usual
   * request costs one promise here, not two (every request of a run passes through this).
   */
  send(options: SendOptions): Promise<Exchange> {
    // A quiet window is open (see quietly): this request waits until it closes.
    if (this.window !== undefined) return this.window.then(() => this.send(options));
    this.out += 1;
    return this.sendNow(options).finally(() => {
      this.out -= 1;
      if (this.out === 0) for (const drained of this.drained.splice(0)) drained();
    });
  }

  /**
   * Runs `work` while the run has no other request out: it waits for those out to be answered, holds
   * back every new one until `work` ends, and gives `work` the only way to send meanwhile. A balance
   * seen to move in such a window moved by no request of the run's (P-MONEY-1's other activity).
   */
  async quietly<T>(work: (send: (options: SendOptions) => Promise<Exchange>) => Promise<T>): Promise<T> {
    while (this.window !== undefined) await this.window;
    let close!: () => void;
    this.window = new Promise<void>((closed) => (close = closed));
    try {
      if (this.out > 0) await new Promise<void>((drained) => this.drained.push(drained));
      return await work((options) => this.sendNow(options));
    } finally {
      this.window = undefined;
      close();
    }
  }

  private sendNow(options: SendOptions): Promise<Exchange> {
    let label: string;
    try {
      // A label is a check's own text (a team's may hold the secret it was handed): shown only redacted.
      label = this.redact(options.label);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
    return this.sendOnce(options, label).then((first) => {
      this.tallyKeys(options, first);
      if (first.response?.status === 401 || first.response?.status === 429) return this.sendAgain(options, label, first);
      this.options.onExchange?.(first);
      return first;
    });
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
      if (this.options.deadlineAt !== undefined && this.now() + wait >= this.options.deadlineAt) {
        this.stop(`its time budget (${this.options.deadlineSource ?? 'max time'}) would run out waiting for the target's Retry-After`);
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
        this.stop(
          `the target answered 429 (rate limited) ${MAX_RATE_LIMITED_IN_A_ROW} times in a row; raise its rate limit for the kit's API key, or run again once it has lifted`,
        );
      }
    }
    this.options.onExchange?.(exchange);
    return exchange;
  }

  /**
   * A 401 to a request signed correctly, with keys of the configuration that have not been shown wrong
   * (a few refusals and never an acceptance), whose body another run may have sent too: the refusal
   * may be a replay of that run's request. A body with this run's own ids cannot be: its 401 stands.
   */
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

  /** One request, as `label` (the check's label, redacted) says. */
  private async sendOnce(options: SendOptions, label: string, resend = false): Promise<Exchange> {
    const as = options.as ?? this.config.merchant;
    const method = options.method ?? 'POST';
    // P-SIGN-4: a request without a body signs "" + timestamp; a GET carries its fields in the query.
    const form = options.form !== undefined ? new URLSearchParams(options.form).toString() : undefined;
    const body = method === 'GET' ? '' : (form ?? options.raw ?? (options.payload === undefined ? '' : canonicalize(options.payload)));
    const query = method === 'GET' ? queryOf(options.payload) : '';
    // A form is a browser's: no key, no timestamp, no signature (and no timestamp to wait for).
    const timestamp =
      form !== undefined
        ? ''
        : options.timestamp === undefined
          ? (this.takeFreeSecond(body, as, resend) ?? (await this.freshTimestamp(body, as, resend)))
          : String(options.timestamp);
    const signedBody = options.signedBody ?? body;
    const signedTimestamp = options.signBodyOnly ? '' : (options.signedTimestamp ?? timestamp);
    const computed = hmacSha256Hex(as.secretKey, signedBody + signedTimestamp);
    let signature = computed;
    if (typeof options.signature === 'string') signature = options.signature;
    else if (options.signature) signature = options.signature(signature);
    if (!options.reuse && form === undefined)
      this.markUsed(timestamp, signature === computed ? { secretKey: as.secretKey, signedBody, signedTimestamp } : { signature });

    const lower = options.headerCase === 'lower';
    const headers: Record<string, string> = {};
    const put = (name: AuthHeader, value: string) => {
      if (!options.omit?.includes(name)) headers[lower ? name.toLowerCase() : name] = value;
    };
    if (form !== undefined) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      headers.Accept = 'text/html';
    } else {
      if (method !== 'GET') put('Content-Type', options.contentType ?? 'application/json');
      put('Accept', 'application/json');
      put('X-API-KEY', as.apiKey);
      put('X-TIMESTAMP', timestamp);
      put('X-SIGNATURE', signature);
    }

    const url = this.baseUrl + options.path + query;
    // A server that echoes a signature back (in an error message, say) must not leak it into reports.
    const hide = this.redact.withSignatures([signature, computed]);
    const started = performance.now();
    const request = { method, url: this.redact(url), headers: this.redactHeaders(headers), body: this.evidenceText(body) };
    const signing = form === undefined ? this.signingOf(options, as, timestamp, computed, signature) : undefined;
    // Built whole, the same keys in the same order each time (no spread of a varying shape): an
    // exchange is made for every request, answered or not.
    const sent: ExchangeRequest = signing === undefined ? { label, request, ms: 0 } : { label, request, ms: 0, signing };
    if (this.stopReason === undefined && this.options.deadlineAt !== undefined && this.now() >= this.options.deadlineAt) {
      this.stop(`it reached its time budget (${this.options.deadlineSource ?? 'max time'})`);
    }
    if (this.stopReason === undefined && this.options.interrupted?.aborted === true) {
      this.stop(`it was interrupted (${String(this.options.interrupted.reason)})`);
    }
    if (this.stopReason !== undefined) {
      return { ...sent, error: { code: 'stopped', message: `not sent: the run stopped: ${this.stopReason}` } };
    }
    let exchange: Exchange;
    try {
      const response = await dispatch(this.agent, url, {
        method,
        headers,
        body: method === 'GET' ? undefined : body,
        timeoutMs: this.timeoutMs,
        limits: LIMITS,
      });
      const bounded = response.body;
      // A character cut at the end of what was kept decodes as U+FFFD, not as an error.
      const text = UTF8.decode(bounded.kept);
      const responseHeaders = response.headers;
      // One look over all the values first: usually there is nothing to hide in any of them.
      let allValues = '';
      for (const name in responseHeaders) allValues += `${responseHeaders[name]}\n`;
      if (hide(allValues) !== allValues)
        for (const name of Object.keys(responseHeaders)) responseHeaders[name] = hide(responseHeaders[name]!);
      const hidden = hide(text);
      const answer: HttpAnswer = {
        status: response.status,
        headers: responseHeaders,
        body: shortened(hidden) + (bounded.cut ? `\n… ${cutNote(bounded)}` : ''),
      };
      // Half a JSON document is not the answer: a cut body is judged as text only.
      const json = bounded.cut ? undefined : parseJson(text);
      // Nothing to hide (the usual case): the parsed body as it is; else parsed again with it hidden.
      // (A text with escapes may spell a secret as \u0073k_…: that one is always serialized again.)
      if (json !== undefined) answer.json = hidden === text && !text.includes('\\') ? json : JSON.parse(hide(JSON.stringify(json)));
      exchange = signing === undefined ? { label, request, ms: 0, response: answer } : { label, request, ms: 0, signing, response: answer };
    } catch (error) {
      exchange = { ...sent, error: describeTransportError(error, url, this.timeoutMs) };
    }
    exchange.ms = Math.round(performance.now() - started);
    this.tally(exchange);
    return exchange;
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private stop(reason: string): void {
    this.stopReason ??= reason;
  }

  /**
   * A streak that means the run cannot finish in useful time: answers that come near the timeout or
   * not at all. Any other answer ends it. (A rate limit that does not lift is judged per request, in send.)
   */
  private tally(exchange: Exchange): void {
    const slow = exchange.error?.code === 'timeout' || exchange.ms >= this.timeoutMs * SLOW_SHARE;
    this.slowInARow = slow ? this.slowInARow + 1 : 0;
    if (this.slowInARow >= MAX_SLOW_IN_A_ROW) {
      this.stop(
        `the target did not answer, or took more than ${(this.timeoutMs * SLOW_SHARE) / 1000} s (of the ${this.timeoutMs / 1000} s --timeout), ${this.slowInARow} times in a row`,
      );
    }
  }

  /**
   * Whole seconds for a request. A (timestamp, signature) pair is never reused (P-CLIENT-3), so a server
   * that refuses replays (P-AUTH-4) is not tripped by two identical reads: the first takes the current
   * second; a repeat takes a second at random among the free ones of the last half window (at most
   * 150 s: well inside it, with room for a clock that runs behind), those since this run began first,
   * since no earlier run used them. A resend after a 401 draws from all of the window but its last
   * minute (240 s of the default 300): runs just before this one, or beside it, sending the same read
   * again and again (a Balance Inquiry of the merchant's wallet) may have taken many of the last 150
   * seconds, and a wider pool meets them less often. Drawn at random, so another run sending the same
   * body meets the same second only by chance. With none free it waits.
   */
  private markUsed(
    timestamp: string,
    pair: { secretKey: string; signedBody: string; signedTimestamp: string } | { signature: string },
  ): void {
    if ('signature' in pair) {
      this.usedGiven.add(`${timestamp}\u0000${pair.signature}`);
      this.givenSeconds.add(timestamp);
    } else {
      // The signed text as body + the timestamp sent, when it ends with that timestamp (whatever a
      // check made of its parts: a body signed alone may end with the second it is sent at).
      const signedText = pair.signedTimestamp === timestamp ? undefined : pair.signedBody + pair.signedTimestamp;
      const body =
        signedText === undefined
          ? pair.signedBody
          : signedText.endsWith(timestamp)
            ? signedText.slice(0, signedText.length - timestamp.length)
            : undefined;
      if (body !== undefined) {
        let bodies = this.usedSigned.get(pair.secretKey);
        if (bodies === undefined) this.usedSigned.set(pair.secretKey, (bodies = new Map<string, Set<string>>()));
        const seconds = bodies.get(body);
        if (seconds === undefined) bodies.set(body, new Set([timestamp]));
        else seconds.add(timestamp);
      }
    }
    this.usedSeconds.add(timestamp);
  }

  /** A free second for this body, waiting for one when none is (see takeFreeSecond). */
  private async freshTimestamp(body: string, as: Credentials, resend: boolean): Promise<string> {
    for (;;) {
      const second = this.takeFreeSecond(body, as, resend);
      if (second !== undefined) return second;
      await this.clock.sleep(1000 - (this.now() % 1000) + 5);
    }
  }

  /** A free second for this body, taken at once; undefined when none is free now. */
  private takeFreeSecond(body: string, as: Credentials, resend: boolean): string | undefined {
    const tolerance = toleranceOf(this.config);
    const maxStepBack = resend
      ? Math.max(Math.min(150, Math.floor(tolerance / 2)), tolerance - 60)
      : Math.min(150, Math.floor(tolerance / 2));
    // A second free for this body: no request carried it, or none with this body's signature.
    const signedAt = this.usedSigned.get(as.secretKey)?.get(body);
    const isFree = (seconds: number) => {
      const second = String(seconds);
      if (!this.usedSeconds.has(second)) return true;
      if (signedAt?.has(second)) return false;
      return !this.givenSeconds.has(second) || !this.usedGiven.has(`${second}\u0000${hmacSha256Hex(as.secretKey, body + second)}`);
    };
    const now = this.nowSeconds();
    let second: string;
    // The usual case: the current second, free for this body.
    if (!resend && isFree(now)) second = String(now);
    else {
      // This run's own seconds first (no earlier run used them), then any of the range.
      const drawn =
        (resend ? undefined : freeAtRandom(Math.max(now - maxStepBack, this.startSecond), now, isFree)) ??
        freeAtRandom(now - maxStepBack, now, isFree);
      if (drawn === undefined) return undefined;
      second = String(drawn);
    }
    // Taken at once: a request sent beside this one must not pick the same pair.
    this.markUsed(second, { secretKey: as.secretKey, signedBody: body, signedTimestamp: second });
    return second;
  }

  /**
   * How this request was signed, for a reproduce line: nothing secret, only whose secret (by its config
   * key; a made-up one is no secret and is kept), the texts signed, and what was done to the signature.
   */
  private signingOf(options: SendOptions, as: Credentials, timestamp: string, computed: string, signature: string): Signing {
    const configured = (['merchant', 'otherMerchant', 'otherEnvironment'] as const).find((key) => {
      const keys = this.config[key];
      return keys !== undefined && keys.apiKey === as.apiKey && keys.secretKey === as.secretKey;
    });
    const secretOwner = (['merchant', 'otherMerchant', 'otherEnvironment'] as const).find(
      (key) => this.config[key]?.secretKey === as.secretKey,
    );
    // A secret of the config under another key, or anything the redactor would hide, is never written down.
    const secret = secretOwner ?? (this.redact(as.secretKey) === as.secretKey ? { madeUp: as.secretKey } : 'unshown');
    let edit: Signing['edit'];
    if (signature !== computed) {
      if (typeof options.signature === 'function' && signature.length < computed.length && computed.startsWith(signature))
        edit = { truncatedTo: signature.length };
      else if (
        typeof options.signature === 'function' &&
        signature.length === computed.length &&
        signature.slice(0, -1) === computed.slice(0, -1)
      )
        edit = 'last-character-changed';
      else edit = 'replaced';
    }
    // Timestamps are texts a check chose (a team's may pass its secret as one): kept only redacted,
    // so the reproduce lines built from them are clean too. A made-up secret is kept only if nothing in it is hidden (above).
    return {
      sentAt: this.nowSeconds(),
      timestamp: this.redact(timestamp),
      secret,
      // A key and secret not of a merchant replay can sign as, or a chosen timestamp, is part of what the check judges.
      deliberate: isMisSigned(options) || (configured !== 'merchant' && configured !== 'otherMerchant') || options.timestamp !== undefined,
      ...(options.signedBody !== undefined ? { signedBody: this.evidenceText(options.signedBody) } : {}),
      ...(options.signBodyOnly
        ? { signedTimestamp: '' }
        : options.signedTimestamp !== undefined
          ? { signedTimestamp: this.redact(options.signedTimestamp) }
          : {}),
      ...(edit !== undefined ? { edit } : {}),
    };
  }

  private redactHeaders(headers: Record<string, string>): Record<string, string> {
    return evidenceHeaders(Object.entries(headers), this.redact);
  }

  private evidenceText(text: string): string {
    return shortened(this.redact(text));
  }
}

/** A text as evidence keeps it: at most MAX_EVIDENCE_BODY characters, saying how many more there were. */
function shortened(text: string): string {
  return text.length > MAX_EVIDENCE_BODY
    ? `${text.slice(0, MAX_EVIDENCE_BODY)}… [${text.length - MAX_EVIDENCE_BODY} more characters]`
    : text;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A transport failure as one sentence that names the problem and the fix. */
export function describeTransportError(error: unknown, url: string, timeoutMs: number): { code: TransportErrorCode; message: string } {
  const origin = new URL(url).host;
  const failure = transportFailureOf(error);
  switch (failure.kind) {
    case 'refused':
      return { code: 'refused', message: `connection refused by ${origin}: is the server running, and is baseUrl right?` };
    case 'unresolved':
      return { code: 'unresolved', message: `cannot resolve ${origin}: check the host name in baseUrl` };
    case 'timeout':
      return { code: 'timeout', message: timeoutMessage(origin, failure.wait, timeoutMs / 1000) };
    case 'reset':
      return { code: 'reset', message: `${origin} closed the connection without a complete HTTP answer` };
    case 'tls':
      if (failure.problem === 'not-tls')
        return { code: 'other', message: `the server at https://${origin} does not speak TLS: did you mean http://${origin}?` };
      break;
    case 'other':
      break;
  }
  return { code: 'other', message: `request to ${origin} failed: ${(error as Error).message}` };
}

function timeoutMessage(origin: string, wait: 'whole' | 'connect' | 'headers' | 'body', seconds: number): string {
  if (wait === 'whole') return `no complete answer from ${origin} within ${seconds} s: the server hangs or answers too slowly`;
  if (wait === 'body') return `${origin} started answering but its body did not arrive within ${seconds} s`;
  return `no answer from ${origin} within ${seconds} s: the server hangs or is unreachable`;
}
