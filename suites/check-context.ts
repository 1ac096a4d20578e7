// What a check sees of its run (ctx), and how one check is run and its outcome kept (executeCheck).
import { CheckSkipped, isCheckFailure, isCheckInconclusive, isCheckSkipped, type Check, type CheckContext, type Need } from './check.js';
import { isProduction, operationOf, type OperationKey, type TargetConfig } from './config.js';
import { replayWindowUsedUp, type Exchange } from './http.js';
import { isMisSigned, isPlainlySigned, type SendOptions } from './send-options.js';
import { idSource } from './ids.js';
import { settleInOrder } from './limiter.js';
import { systemClock } from '../core/clock.js';
import { OPERATION_NAMES, OPERATIONS } from '../core/operations.js';
import { getPath } from '../core/predicates.js';
import type { HttpAnswer } from '../core/exchange.js';
import type { CheckMeta, CheckOutcome } from '../core/report.js';
import { observe } from './observers.js';
import { notePayouts } from './own-payouts.js';
import { noteWritten } from './written.js';
import type { Redact } from './redact.js';
import { laneLock, type RunState } from './run-state.js';
import type { RunSettings } from './settings.js';
import { openWebhookSession } from './webhook-session.js';

export type { CheckMeta } from '../core/report.js';

const MAX_EVIDENCE = 6;

/** Why a check cannot run against this target, or undefined when it can. */
export function whyNotRun(check: Check, settings: RunSettings): string | undefined {
  const missing = (check.needs ?? []).find((need) => !hasNeed(settings.config, need));
  if (missing !== undefined) return `needs ${missing} in the config`;
  if (check.creates && isProduction(settings.config) && !settings.allowProduction) {
    return 'creates records: refused against production without --allow-production (P-ENV-3)';
  }
  return undefined;
}

function hasNeed(config: TargetConfig, need: Need): boolean {
  if (need.startsWith('profile.operations.'))
    return operationOf(config, need.slice('profile.operations.'.length) as OperationKey) !== undefined;
  const node = getPath(config, need);
  return typeof node === 'string' ? node.length > 0 : node !== undefined && node !== null;
}

/** Runs one check and fills its meta; never throws. A CheckFailure judges the target; any other
 *  exception is the kit's own fault ('error'), never blamed on the target. */
export async function executeCheck(check: Check, state: RunState, meta: CheckMeta, scope = 0): Promise<CheckOutcome> {
  if (state.client.stopped !== undefined) {
    // Nothing more is sent once the run has stopped: the check is not run, not failed.
    meta.stopped = state.client.stopped;
    meta.skipped = `not run: the run stopped: ${state.client.stopped}`;
    return 'skipped';
  }
  const refusal = whyNotRun(check, state.settings);
  if (refusal !== undefined) {
    meta.skipped = refusal;
    return 'skipped';
  }
  const exchanges: Exchange[] = [];
  // A check that failed while some of its requests were still out leaves holes: only what came back counts.
  const sent = () => exchanges.filter((x): x is Exchange => x !== undefined);
  try {
    await check.run(checkContext(check, state, meta, exchanges, scope));
    return 'passed';
  } catch (error) {
    if (state.client.stopped !== undefined) meta.stopped = state.client.stopped;
    // What a check throws is text its own code wrote (a team's module, or the kit's), which may hold a
    // secret it was handed: every message, stack and detail is kept only as the run's redactor leaves it.
    const redact = state.client.redact;
    if (isCheckSkipped(error)) {
      meta.skipped = redact(error.message);
      if (error.options?.notApplicable === true) meta.notApplicable = true;
      return 'skipped';
    }
    if (isCheckInconclusive(error)) {
      meta.inconclusive = redact(error.message);
      meta.skipped = `not judged: ${meta.inconclusive}`;
      meta.evidence = sent().slice(-MAX_EVIDENCE);
      return 'skipped';
    }
    if (!isCheckFailure(error)) {
      const e = error instanceof Error ? error : new Error(String(error));
      // A team's check names its module: the team fixes it, not the kit (core/check-error.ts).
      meta.error = {
        message: redact(`${e.name === 'Error' ? '' : `${e.name}: `}${e.message}`),
        ...(e.stack !== undefined ? { stack: redact(e.stack) } : {}),
        ...(check.module !== undefined ? { module: check.module } : {}),
      };
      meta.evidence = sent().slice(-MAX_EVIDENCE);
      return 'error';
    }
    error.requirement ??= check.requirement;
    const { exchange, exchanges: own, ...details } = error.details;
    // A body other runs send too, still refused after its resends, judges nothing (profile v1.3 P-CLI): not judged, never failed.
    const usedUp = exchange === undefined ? undefined : replayWindowUsedUp(exchange);
    if (exchange !== undefined && usedUp !== undefined) {
      meta.skipped = redact(`not judged: replay window used up by other runs: ${usedUp}`);
      meta.evidence = [exchange];
      return 'skipped';
    }
    meta.failure = redactedFailure({ message: error.message, ...details }, redact);
    const others = sent().filter((x) => x !== exchange);
    // A failure that names its exchanges (a model sequence, run again cleanly) is shown by those alone.
    const chosen = own === undefined ? undefined : others.filter((x) => own.includes(x));
    const kept = chosen ?? (check.keepAllEvidence ? others : others.slice(-(MAX_EVIDENCE - 1)));
    meta.evidence = [...(exchange ? [exchange] : []), ...kept];
    // Said, not silent: how many exchanges of this check the evidence does not show.
    if (others.length > kept.length) meta.evidenceLeftOut = others.length - kept.length;
    return 'failed';
  } finally {
    // Findings in the order their requests were sent, whatever order the answers came in.
    const order = new Map(exchanges.map((x, i) => [x, i]));
    const place = (f: CheckMeta['findings'][number]) =>
      f.exchange !== undefined ? (order.get(f.exchange) ?? exchanges.length) : exchanges.length;
    meta.findings.sort((a, b) => place(a) - place(b));
  }
}

/** A failure as kept, its texts redacted. An object given where a text belongs (`expected: { k: 1 }`)
 *  is kept as its JSON text, so the run goes on and the reports show it. */
function redactedFailure(failure: NonNullable<CheckMeta['failure']>, redact: Redact): NonNullable<CheckMeta['failure']> {
  const { message, expected, actual, steps, reproduce, counterexample } = failure;
  const text = (value: unknown) => redact(textOf(value));
  return {
    ...failure,
    message: text(message),
    ...(expected !== undefined ? { expected: text(expected) } : {}),
    ...(actual !== undefined ? { actual: text(actual) } : {}),
    ...(steps !== undefined ? { steps: (Array.isArray(steps) ? (steps as unknown[]) : [steps]).map(text) } : {}),
    ...(reproduce !== undefined ? { reproduce: text(reproduce) } : {}),
    ...(counterexample !== undefined ? { counterexample: redactedJson(counterexample, redact) } : {}),
  };
}

/** A value given where a text belongs, as text: a string as it is, anything else as its JSON (or, failing that, String()). */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // A cycle or a BigInt: JSON cannot hold it.
    return String(value);
  }
}

/** A JSON value with every string in it redacted (keys too); anything JSON cannot hold is left as it is. */
function redactedJson(value: unknown, redact: Redact): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactedJson(item, redact));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactedJson(item, redact)]));
  }
  return value;
}

const isSuccessStatus = (status: number) => status >= 200 && status < 300;

/** Another method on purpose (HTTP-OTHER-METHODS) says nothing of whether the keys and paths are right. */
function ownMethod(config: TargetConfig, options: SendOptions): boolean {
  const location = OPERATION_NAMES.map((key) =>
    key === 'createOrder' || key === 'payoutStatus' ? OPERATIONS[key] : operationOf(config, key),
  ).find((found) => found?.path === options.path);
  return location === undefined || location.method === (options.method ?? 'POST');
}

/** Counts a plainly signed request's answer: past authentication (2xx, or 400, 409 and 422, which
 *  come only after it, P-AUTH-6), refused 401, 404, or not the interface's JSON at all. */
function tallySigned(meta: CheckMeta, response: HttpAnswer): void {
  const { status } = response;
  // A rate limit says nothing of the keys or the paths.
  if (status === 429) return;
  const tally = (meta.plainlySigned ??= { answered: 0, refused401: 0, accepted: 0, notFound: 0, notJson: 0 });
  tally.answered += 1;
  if (status === 401) tally.refused401 += 1;
  if (isSuccessStatus(status) || status === 400 || status === 409 || status === 422) tally.accepted += 1;
  if (status === 404) tally.notFound += 1;
  if (response.json === undefined) tally.notJson += 1;
}

export function newMeta(check: Check): CheckMeta {
  return { check: check.id, requirement: check.requirement, title: check.title, evidence: [], findings: [] };
}

/** Every context's prototype: a team check written for 0.1 that reads ctx.client is told what replaced
 *  it. On the prototype, as a getter added to each context would make it a slow dictionary. */
const REMOVED: object = Object.defineProperty({}, 'client', {
  get() {
    throw new Error(
      'ctx.client was removed from the check context: use ctx.nowSeconds() for the clock, ctx.redact(text) to hide the keys, ctx.send(…) to send',
    );
  },
});

/** An exchange of a check: its run's own payouts noted, its answer tallied and looked over by the observers. */
function tally(state: RunState, meta: CheckMeta, options: SendOptions, exchange: Exchange): void {
  const { config } = state.settings;
  notePayouts(state, config, options, exchange);
  noteWritten(state, config, options, exchange, (state.settings.clock ?? systemClock).now());
  const status = exchange.response?.status;
  if (exchange.response !== undefined && isPlainlySigned(options, config.merchant) && ownMethod(config, options))
    tallySigned(meta, exchange.response);
  if (status !== undefined && status >= 500) meta.serverErrors = (meta.serverErrors ?? 0) + 1;
  if (exchange.resent !== undefined) {
    const resent = (meta.resent ??= { sent: 0, accepted: 0 });
    resent.sent += 1;
    if (exchange.response !== undefined && exchange.response.status !== 401) resent.accepted += 1;
  }
  // Signed wrong (or not at all) on purpose, and taken past authentication: the target's own doing,
  // whatever the keys. Not a 404: a wrong base URL answers that to everything.
  if (status !== undefined && isMisSigned(options) && (isSuccessStatus(status) || status === 409 || status === 422)) {
    meta.wronglySignedAccepted = (meta.wronglySignedAccepted ?? 0) + 1;
  }
  if (status === 404 && isMisSigned(options)) meta.wronglySignedNotFound = (meta.wronglySignedNotFound ?? 0) + 1;
  // A form's answer is a page (the sandbox's hosted checkout), not an operation's: no envelope rule applies.
  if (options.form === undefined) for (const finding of observe(exchange)) meta.findings.push({ ...finding, exchange });
}

/** Exchanges are kept in the order sent, not answered, so a check's evidence and findings are the
 *  same for a seed whatever the interleaving. */
function checkContext(check: Check, state: RunState, meta: CheckMeta, exchanges: Exchange[], scope: number): CheckContext {
  const { settings, client } = state;
  const concurrency = state.requests.max;
  // A check that runs alone keeps its requests in flight together (a race needs them all at once);
  // others wait for a slot, a lane's first: a lane is the run's longest chain of requests.
  const ahead = check.lane !== undefined;
  const sendLimited = (options: SendOptions) =>
    check.alone ? client.send(options) : state.requests.run(() => client.send(options), { ahead });
  const sendVia =
    (through: (options: SendOptions) => Promise<Exchange>): CheckContext['send'] =>
    async (options) => {
      const place = exchanges.length;
      exchanges.length += 1;
      const exchange = (exchanges[place] = await through(options));
      tally(state, meta, options, exchange);
      return exchange;
    };
  const send = sendVia(sendLimited);
  const ctx: CheckContext & { __proto__: object } = {
    // A prototype shared by every context (see REMOVED): each stays a plain object, fast to read.
    __proto__: REMOVED,
    config: settings.config,
    nowSeconds: () => client.nowSeconds(),
    redact: (text) => client.redact(text),
    runKey: state,
    seed: settings.seed,
    runs: settings.runs,
    concurrency,
    checkId: meta.check,
    clock: settings.clock ?? systemClock,
    ...(settings.replayPath !== undefined ? { replayPath: settings.replayPath } : {}),
    ...(settings.deadlineAt !== undefined ? { deadlineAt: settings.deadlineAt } : {}),
    ids: idSource(settings.seed, settings.runNumber, state.salt, scope),
    operation(key) {
      const location = operationOf(settings.config, key);
      if (location === undefined) throw new CheckSkipped(`needs profile.operations.${key} in the config`);
      return location;
    },
    send,
    sendSetup: (options) => client.send(options),
    sweep: (cases, task) => settleInOrder(cases, concurrency, task),
    exclusive(lane, work) {
      // A lane's own check already holds its lane.
      return check.lane === lane ? work() : laneLock(state, lane).run(work);
    },
    async webhooks() {
      // The first check to ask opens the session (its registration request is that check's evidence).
      if (state.webhooks === undefined) {
        state.webhooksOpenedBy = meta;
        state.webhooks = openWebhookSession(settings.config, settings.clock ?? systemClock, send, client, settings.hold);
      }
      return (await state.webhooks).session;
    },
    quietly: (work) => client.quietly((direct) => work({ ...ctx, send: sendVia(direct), sendSetup: direct })),
    note(requirement, message, exchange) {
      meta.findings.push({ requirement, message: client.redact(message), ...(exchange ? { exchange } : {}) });
    },
    notice(said) {
      const text = client.redact(said);
      meta.notes ??= [];
      if (!meta.notes.includes(text)) meta.notes.push(text);
    },
  };
  return ctx;
}
