import { describeErrors, isValid, validateSchema, type SchemaId, type SchemaTypes } from '../schemas/index.js';
import type { OperationKey, OperationLocation, TargetConfig } from './config.js';
import type { Exchange, SendOptions } from './http.js';
import type { Clock } from '../core/clock.js';
import type { AnsweredExchange } from '../core/exchange.js';
import type { CheckMeta, Requirement } from '../core/report.js';
import type { KitReceiver } from '../webhooks/receiver.js';

/** A run's webhook session (ctx.webhooks()): the kit's receiver and where the target delivers. */
export interface WebhookSession {
  /** The kit's receiver: every delivery it got, and what it answered. */
  receiver: KitReceiver;
  /** Where the target delivers (webhooks.url, or the receiver's own address once registered). */
  url: string;
  /** P-HOOK-3's bound on the first three retries, ms (profile.webhooks.retryWithinSeconds). */
  retryWithinMs: number;
  /** Set when the kit registered its receiver itself (the reference sandbox's control request): the
   *  URL registered now (null: none; undefined: the target did not say). */
  registered?: () => Promise<string | null | undefined>;
}

/** A config key a check needs; when absent the check is skipped and the report names the key. */
export type Need =
  | 'otherMerchant'
  | 'otherMerchant.walletId'
  | 'otherEnvironment.apiKey'
  | 'otherEnvironment.walletId'
  | `fixtures.payouts.${'SUCCESS' | 'FAILED' | 'PENDING' | 'PROCESSING' | 'REVERSED'}`
  | 'fixtures.otherMerchantPayoutOrderId'
  | 'fixtures.spareWallet'
  | 'webhooks'
  | `profile.operations.${OperationKey}`;

/** One check: a small named function over one or a few exchanges, proving part of a requirement. */
export interface Check {
  /** Stable id, e.g. "auth-missing-signature". */
  id: string;
  /** The catalog requirement it checks (suites/catalog.json). */
  requirement: string;
  title: string;
  needs?: readonly Need[];
  /** A check that creates records: refused against production without --allow-production (P-ENV-3). */
  creates?: boolean;
  /** Checks that share state on the target (the wallet's balance) name the same lane: they run one
   *  after another, in their listed order; the rest run side by side. Lanes start first. */
  lane?: string;
  /** With a lane: adds to its state (payouts), compares none of it; such checks run side by side, after the lane's others. */
  addsOnly?: boolean;
  /** Runs with no other request of the run in flight (a race that other traffic would dilute). */
  alone?: boolean;
  /** Runs once the other checks have ended: it revisits what they wrote (profile.revisitAfterSeconds). */
  last?: boolean;
  /** Keep every exchange of a failure, not only the last few: the proof is the whole set of answers
   *  (the concurrent-duplicate race: the one 201 and every other answer). */
  keepAllEvidence?: boolean;
  /** A team's check: its module's path from the working directory (./checks/foo.mjs), set when it is loaded; the kit's have none. */
  module?: string;
  run(ctx: CheckContext): Promise<void>;
}

export interface CheckContext {
  config: TargetConfig;
  /** Now on the target's clock as the run knows it, in whole seconds: what an X-TIMESTAMP carries. */
  nowSeconds: () => number;
  /** The text with the run's secrets (api key, secret key, in any encoding) hidden: for a message or evidence a check builds itself. */
  redact: (text: string) => string;
  /** The same object for every check of a run: the WeakMap key of what checks share, so two runs in one process never see each other's. */
  runKey: object;
  seed: number;
  /** Runs for property checks (--runs). */
  runs: number;
  /** How many requests the run keeps in flight at most (--concurrency; 1: one at a time). */
  concurrency: number;
  /** The run's clock: checks that wait (for a payout to settle) wait on it. */
  clock: Clock;
  /** The check being run (its id, for reproduce lines). */
  checkId: string;
  /** fast-check's path of one counterexample to replay (run --replay-path). */
  replayPath?: string;
  /** When the run's time budget (--max-time) ends, ms on its clock: a check that would wait past it does not start to. */
  deadlineAt?: number;
  /** Unique, seed-derived identifiers that also carry this run's tag. */
  ids: IdSource;
  operation(key: OperationKey): OperationLocation;
  /** Sends a request and keeps the exchange as evidence of this check. */
  send(options: SendOptions): Promise<Exchange>;
  /** Sends a request that is no evidence of this check (a control request of the reference sandbox that sets the run up). */
  sendSetup: (options: SendOptions) => Promise<Exchange>;
  /** Records a finding against another requirement (e.g. an error envelope seen while checking auth). */
  note(requirement: string, message: string, exchange?: Exchange): void;
  /** Says what the check saw that is no verdict (stray requests to the kit's webhook listener, ignored): report.notes, said once. */
  notice(text: string): void;
  /** Runs `task` for each case side by side (within the run's concurrency); results in the cases'
   *  order, and the first failure in that order is thrown, so the verdict does not hang on timing. */
  sweep<T, R>(cases: readonly T[], task: (item: T, index: number) => Promise<R>): Promise<R[]>;
  /** The run's webhook session (P-HOOK-5), started on first use where `webhooks.listen` says. Skips
   *  the check when the config has no `webhooks`, or the target cannot be told where to deliver. */
  webhooks(): Promise<WebhookSession>;
  /** Runs `work` holding a lane (e.g. initiating a payout without moving the balance under the wallet
   *  lane's feet), while the rest of this check runs beside that lane's checks. */
  exclusive<T>(lane: string, work: () => Promise<T>): Promise<T>;
  /** Runs `work` while the run has no other request out, so what it reads moved by no request of the
   *  run's. Its requests go through the context it is given. */
  quietly<T>(work: (quiet: CheckContext) => Promise<T>): Promise<T>;
}

export interface IdSource {
  orderId(hint?: string): string;
  payoutOrderId(hint?: string): string;
  /** A fresh order_id that is a JSON integer. */
  integerOrderId(): number;
  /** A unique short text, e.g. for order_note, so otherwise equal requests differ. */
  nonce(): string;
}

// Brands, not instanceof: a team's check module may load another copy of the kit (its own
// node_modules) than the runner does, and its failures must still be failures, not kit errors.
const FAILURE = Symbol.for('svc-conformance.CheckFailure');
const SKIPPED = Symbol.for('svc-conformance.CheckSkipped');
const INCONCLUSIVE = Symbol.for('svc-conformance.CheckInconclusive');

/** A check's verdict against its requirement: what was expected, what came back, how to see it again. */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
  readonly code = 'SVC_CHECK_FAILED';
  readonly [FAILURE] = true;
  /** The requirement not held: as given, else the failing check's (the run sets it when it catches the failure). */
  requirement: string | undefined;
  constructor(
    message: string,
    /** `webhookEvent`: one the target did not send as it should, reproduced by `trigger` of it. */
    readonly details: Omit<NonNullable<CheckMeta['failure']>, 'message'> & {
      exchange?: Exchange;
      /** The exchanges that are the whole evidence, in order (a model failure: its sequence's), instead of the check's last few. */
      exchanges?: readonly Exchange[];
    } = {},
    requirement?: string,
  ) {
    super(message);
    this.requirement = requirement;
  }
}

/** A check that cannot run here (a missing config key, production without permission), or whose rule
 *  does not apply (`notApplicable`: nothing to judge, so it counts as judged). */
export class CheckSkipped extends Error {
  override readonly name = 'CheckSkipped';
  readonly code = 'SVC_CHECK_SKIPPED';
  readonly [SKIPPED] = true;
  constructor(
    message: string,
    readonly options: { notApplicable?: boolean } = {},
  ) {
    super(message);
  }
}

/** A check configured to run that could not judge (the receiver could not listen, the target could not
 *  be told where to deliver): never a pass nor the target's failure; the run is inconclusive. */
export class CheckInconclusive extends Error {
  override readonly name = 'CheckInconclusive';
  readonly code = 'SVC_CHECK_INCONCLUSIVE';
  readonly [INCONCLUSIVE] = true;
}

const branded = (error: unknown, brand: symbol) =>
  typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[brand] === true;
export const isCheckInconclusive = (error: unknown): error is CheckInconclusive => branded(error, INCONCLUSIVE);
export const isCheckFailure = (error: unknown): error is CheckFailure => branded(error, FAILURE);
export const isCheckSkipped = (error: unknown): error is CheckSkipped => branded(error, SKIPPED);

/** Describes what came back in a few words: a status, or the transport failure. */
export function answered(exchange: Exchange): string {
  if (exchange.error) return exchange.error.message;
  const r = exchange.response;
  const type = r.headers['content-type'] ?? 'no content type';
  const body = r.json !== undefined ? JSON.stringify(r.json) : JSON.stringify(r.body.slice(0, 200));
  return `HTTP ${r.status} (${type}) ${body.length > 300 ? body.slice(0, 300) + '…' : body}`;
}

/** The answer must have one of these statuses. */
export function expectStatus(exchange: Exchange, statuses: readonly number[], why: string): asserts exchange is AnsweredExchange {
  const status = exchange.response?.status;
  if (status === undefined || !statuses.includes(status)) {
    throw new CheckFailure(`${why}: expected HTTP ${statuses.join(' or ')}, got ${exchange.error ? 'no answer' : status}`, {
      expected: `HTTP ${statuses.join(' or ')}`,
      actual: answered(exchange),
      exchange,
    });
  }
}

/** The answer's JSON body must satisfy a schema; returns the body, typed as that schema's values are. */
export function expectSchema<Id extends SchemaId>(exchange: Exchange, schema: Id, why: string): SchemaTypes[Id];
/** @deprecated The body's type follows the schema id; a type argument of your own is what 0.1 took. */
export function expectSchema<T>(exchange: Exchange, schema: SchemaId, why: string): T;
export function expectSchema(exchange: Exchange, schema: SchemaId, why: string): unknown {
  const json = exchange.response?.json;
  if (json === undefined) {
    throw new CheckFailure(`${why}: expected a JSON body (${schema}), got ${exchange.error ? 'no answer' : 'no JSON'}`, {
      expected: schema,
      actual: answered(exchange),
      exchange,
    });
  }
  expectValid(exchange, json, schema, why, 'body');
  return json;
}

/** `value` (the body, or a record in it) must satisfy the schema; else the failure names its first three errors. */
export function expectValid(exchange: Exchange, value: unknown, schema: SchemaId, why: string, what: string): void {
  if (isValid(schema, value)) return;
  const { errors } = validateSchema(schema, value);
  throw new CheckFailure(`${why}: the ${what} does not match ${schema}: ${describeErrors(errors.slice(0, 3)).replaceAll('\n', '; ')}`, {
    expected: `a ${what} matching schemas/${schema}.schema.json`,
    actual: answered(exchange),
    exchange,
  });
}

/** A plain condition of a check, with its evidence. */
export function expectThat(condition: boolean, message: string, details: CheckFailure['details'] = {}): asserts condition {
  if (!condition) throw new CheckFailure(message, details);
}

/** A kit check or a team's own: the same shape, checked when it is made. */
export function defineCheck(check: Check): Check {
  const problem = checkShapeProblem(check);
  if (problem !== undefined) throw new TypeError(`defineCheck: ${problem}`);
  return Object.freeze({ ...check });
}

function checkShapeProblem(check: Partial<Check> | null | undefined): string | undefined {
  if (check === null || typeof check !== 'object') return 'give an object { id, requirement, title, run }';
  if (typeof check.id !== 'string' || !/^[a-z0-9][a-z0-9._-]*$/i.test(check.id))
    return `id ${JSON.stringify(check.id)} must be a non-empty id of letters, digits, ".", "_" or "-"`;
  if (typeof check.requirement !== 'string' || check.requirement === '')
    return `check ${check.id}: requirement must name the requirement it checks`;
  if (typeof check.title !== 'string' || check.title === '') return `check ${check.id}: title must say what it checks`;
  if (typeof check.run !== 'function') return `check ${check.id}: run must be an async function (ctx) => { … }`;
  if (check.lane !== undefined && (typeof check.lane !== 'string' || check.lane === ''))
    return `check ${check.id}: lane must be a non-empty name shared by the checks that must run one after another`;
  if (check.alone !== undefined && typeof check.alone !== 'boolean') return `check ${check.id}: alone must be true or false`;
  return undefined;
}

/** A requirement of a team's own (its extension of the interface), checked when it is made. */
export function defineRequirement(
  requirement: Omit<Requirement, 'extension' | 'profile'> & Partial<Pick<Requirement, 'extension' | 'profile'>>,
): Requirement {
  const r = requirement as Partial<Requirement> | null;
  if (r === null || typeof r !== 'object') throw new TypeError('defineRequirement: give an object { id, title, level, section }');
  if (typeof r.id !== 'string' || !/^[A-Z0-9][A-Z0-9-]*$/.test(r.id))
    throw new TypeError(
      `defineRequirement: id ${JSON.stringify(r.id)} must be upper-case letters, digits and "-", e.g. ACME-REFUND-STATUS`,
    );
  if (typeof r.title !== 'string' || r.title === '') throw new TypeError(`defineRequirement: ${r.id}: title must state the requirement`);
  if (r.level !== 'MUST' && r.level !== 'SHOULD' && r.level !== 'MAY')
    throw new TypeError(`defineRequirement: ${r.id}: level must be "MUST", "SHOULD" or "MAY", not ${JSON.stringify(r.level)}`);
  if (typeof r.section !== 'string' || r.section === '')
    throw new TypeError(`defineRequirement: ${r.id}: section must name where it belongs, e.g. "Refunds"`);
  if (r.profile !== undefined && (!Array.isArray(r.profile) || r.profile.some((p) => typeof p !== 'string')))
    throw new TypeError(`defineRequirement: ${r.id}: profile must be a list of rule ids`);
  return Object.freeze({ ...r, profile: r.profile ?? [], extension: r.extension ?? true } as Requirement);
}
