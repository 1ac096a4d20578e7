import { CheckSkipped, isCheckFailure, isCheckSkipped, type Check, type CheckContext, type Need } from './check.js';
import { isProduction, operationOf, type OperationKey, type TargetConfig } from './config.js';
import { isPlainlySigned, TargetClient, type Exchange } from './http.js';
import { idSource } from './ids.js';
import { systemClock } from '../core/clock.js';
import { getPath } from '../core/predicates.js';
import type { CheckMeta, CheckOutcome } from '../core/report.js';
import { observe } from './observers.js';
import type { RunSettings } from './settings.js';

export type { CheckMeta } from '../core/report.js';

const MAX_EVIDENCE = 6;

/** The client and id source of one run, shared by all its checks. */
export interface RunState {
  settings: RunSettings;
  client: TargetClient;
  ids: ReturnType<typeof idSource>;
}

export function createRunState(settings: RunSettings): RunState {
  const client = new TargetClient(settings.config, {
    timeoutMs: settings.timeoutMs,
    ...(settings.clock !== undefined ? { clock: settings.clock } : {}),
    ...(settings.deadlineAt !== undefined ? { deadlineAt: settings.deadlineAt, deadlineSource: settings.deadlineSource ?? 'max time' } : {}),
  });
  return { settings, client, ids: idSource(settings.seed, settings.runNumber) };
}

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
  if (need.startsWith('profile.operations.')) return operationOf(config, need.slice('profile.operations.'.length) as OperationKey) !== undefined;
  const node = getPath(config, need);
  return typeof node === 'string' ? node.length > 0 : node !== undefined && node !== null;
}

/**
 * Runs one check and fills its meta. Returns the outcome; never throws. A CheckFailure is a verdict
 * about the target; any other exception is the kit's own fault ('error'), never blamed on the target.
 */
export async function executeCheck(check: Check, state: RunState, meta: CheckMeta): Promise<CheckOutcome> {
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
  try {
    await check.run(checkContext(state, meta, exchanges));
    return 'passed';
  } catch (error) {
    if (state.client.stopped !== undefined) meta.stopped = state.client.stopped;
    if (isCheckSkipped(error)) {
      meta.skipped = error.message;
      return 'skipped';
    }
    if (!isCheckFailure(error)) {
      const e = error instanceof Error ? error : new Error(String(error));
      meta.error = { message: `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}`, ...(e.stack !== undefined ? { stack: e.stack } : {}) };
      meta.evidence = exchanges.slice(-MAX_EVIDENCE);
      return 'error';
    }
    const { exchange, ...details } = error.details;
    meta.failure = { message: error.message, ...details };
    meta.evidence = [...(exchange ? [exchange] : []), ...exchanges.filter((x) => x !== exchange).slice(-(MAX_EVIDENCE - 1))];
    return 'failed';
  }
}

export function newMeta(check: Check): CheckMeta {
  return { check: check.id, requirement: check.requirement, title: check.title, evidence: [], findings: [] };
}

function checkContext(state: RunState, meta: CheckMeta, exchanges: Exchange[]): CheckContext {
  const { settings, client, ids } = state;
  return {
    config: settings.config,
    client,
    seed: settings.seed,
    runs: settings.runs,
    checkId: meta.check,
    clock: settings.clock ?? systemClock,
    ...(settings.replayPath !== undefined ? { replayPath: settings.replayPath } : {}),
    ids,
    operation(key) {
      const location = operationOf(settings.config, key);
      if (location === undefined) throw new CheckSkipped(`needs profile.operations.${key} in the config`);
      return location;
    },
    async send(options) {
      const exchange = await client.send(options);
      exchanges.push(exchange);
      if (exchange.response !== undefined && isPlainlySigned(options, settings.config.merchant)) {
        const tally = (meta.plainlySigned ??= { answered: 0, refused401: 0 });
        tally.answered += 1;
        if (exchange.response.status === 401) tally.refused401 += 1;
      }
      for (const finding of observe(exchange)) meta.findings.push({ ...finding, exchange });
      return exchange;
    },
    note(requirement, message, exchange) {
      meta.findings.push({ requirement, message, ...(exchange ? { exchange } : {}) });
    },
  };
}
