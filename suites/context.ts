import { CheckFailure, CheckSkipped, type Check, type CheckContext, type Need } from './check.js';
import { isProduction, operationOf, type OperationKey, type TargetConfig } from './config.js';
import { isPlainlySigned, TargetClient, type Exchange } from './http.js';
import { idSource } from './ids.js';
import { observe, type Finding } from './observers.js';
import type { RunSettings } from './settings.js';

/** What a check leaves for the reporters: its verdict, evidence and findings for other requirements. */
export interface CheckMeta {
  check: string;
  requirement: string;
  title: string;
  skipped?: string;
  failure?: { message: string; expected?: string; actual?: string; counterexample?: unknown; reproduce?: string };
  evidence: Exchange[];
  findings: Array<Finding & { exchange?: Exchange }>;
  /** Set when the run stopped sending during or before this check, and why. */
  stopped?: string;
  /** Requests of this check signed plainly with the merchant's keys that got an answer, and how many of those were 401. */
  plainlySigned?: { answered: number; refused401: number };
}

// A check's meta travels from the vitest worker to the reporters (task.meta is serialized).
declare module '@vitest/runner' {
  interface TaskMeta {
    svc?: CheckMeta;
  }
}

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
  let node: unknown = config;
  for (const part of need.split('.')) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string' ? node.length > 0 : node !== undefined && node !== null;
}

/**
 * Runs one check and fills its meta. Returns the outcome; never throws for the target's faults.
 * The vitest adapter and the kit's own tests both run checks through here.
 */
export async function executeCheck(check: Check, state: RunState, meta: CheckMeta): Promise<'passed' | 'failed' | 'skipped'> {
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
    if (error instanceof CheckSkipped) {
      meta.skipped = error.message;
      return 'skipped';
    }
    const failure = error instanceof CheckFailure ? error : new CheckFailure(`the check could not complete: ${(error as Error).message}`);
    const { exchange, ...details } = failure.details;
    meta.failure = { message: failure.message, ...details };
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
