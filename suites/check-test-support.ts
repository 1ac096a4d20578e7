// Test support: run checks against a real reference sandbox on loopback, without vitest-in-vitest.
import { type Clock } from '../core/clock.js';
import { virtualClock } from '../core/clock-test-support.js';
import { startSandbox, type RunningSandbox, type StartOptions } from '../sandbox/index.js';
import type { Check } from './check.js';
import type { TargetConfig } from './config.js';
import type { CheckOutcome } from '../core/report.js';
import { executeCheck, newMeta, type CheckMeta } from './check-context.js';
import type { Exchange, SendOptions } from './http.js';
import { closeRunState, createRunState, type RunState } from './run-state.js';
import { fillSettings, runNumberAt } from './settings.js';

export interface CheckRun {
  outcome: CheckOutcome;
  meta: CheckMeta;
}

export interface SandboxTarget {
  sandbox: RunningSandbox;
  state: RunState;
  run(check: Check): Promise<CheckRun>;
  close(): Promise<void>;
}

let runCounter = 0;

function withoutWebhooks(config: TargetConfig): TargetConfig {
  delete config.webhooks;
  return config;
}

/** Runs one check at a time on a run state; each run of a check draws its ids from a scope of its own, as in a whole run. */
export function checkRunner(state: RunState): SandboxTarget['run'] {
  let scope = 0;
  return async (check) => {
    const meta = newMeta(check);
    const outcome = await executeCheck(check, state, meta, scope++);
    // Every failure, in every test that runs checks so, says what came back.
    if (outcome === 'failed' && meta.failure?.actual === undefined)
      throw new Error(`${check.id} failed without saying what came back: ${meta.failure?.message}`);
    return { outcome, meta };
  };
}

/**
 * Starts a sandbox (with faults or variants) and a run state pointed at it. `clock` is the run's; a
 * test that gives one also gives the sandbox its side of the same time (options.clock).
 */
export async function sandboxTarget(
  options: StartOptions = {},
  edit: (config: TargetConfig) => TargetConfig = (c) => c,
  runs = 10,
  clock: Clock = virtualClock(),
): Promise<SandboxTarget> {
  // One virtual clock for both sides by default: waits for the next second or a settlement take no real time.
  const sandbox = await startSandbox({ port: 0, clock: clock.now, ...options });
  // Without webhooks: their checks wait on deliveries, which a virtual clock cannot time (test/webhook-checks.test.ts has its own).
  const config = edit(withoutWebhooks(structuredClone(sandbox.config)));
  const given = { clock, seed: 42, runs, runNumber: runNumberAt(clock.now()) + runCounter++, timeoutMs: 5_000 };
  const state = createRunState(fillSettings(given, config, clock));
  return {
    sandbox,
    state,
    run: checkRunner(state),
    async close() {
      await closeRunState(state);
      await sandbox.close();
    },
  };
}

/** Opens a wallet of `balance` on the target's sandbox and names it in the config as fixtures.spareWallet; its id. */
export async function openSpareWallet(target: SandboxTarget, balance: string): Promise<string> {
  const opened = await target.state.client.send({ label: 'open a spare wallet', path: '/sandbox/wallets', payload: { balance } });
  if (opened.response?.status !== 201) throw new Error(`the sandbox opened no wallet: ${JSON.stringify(opened.response ?? opened.error)}`);
  const walletId = (opened.response.json as { data: { wallet_id: string } }).data.wallet_id;
  const { config } = target.state.settings;
  config.fixtures = { ...config.fixtures, spareWallet: walletId };
  return walletId;
}

/**
 * Runs `checks` one after another against a sandbox started so: what each did other than `wanted`
 * (default: pass), with why, and every observer's finding. Empty when the sandbox raised no false alarm.
 */
export async function surprisesAgainst(
  options: StartOptions,
  checks: readonly Check[],
  {
    edit,
    runs,
    wanted = () => 'passed',
  }: { edit?: (config: TargetConfig) => TargetConfig; runs?: number; wanted?: (check: Check) => CheckOutcome } = {},
): Promise<string[]> {
  const target = await sandboxTarget(options, edit, runs);
  try {
    const surprises: string[] = [];
    for (const check of checks) {
      const { outcome, meta } = await target.run(check);
      if (outcome !== wanted(check))
        surprises.push(`${check.id}: ${outcome} (${meta.failure?.message ?? meta.skipped ?? meta.error?.message})`);
      for (const finding of meta.findings) surprises.push(`${check.id}: finding ${finding.requirement}: ${finding.message}`);
    }
    return surprises;
  } finally {
    await target.close();
  }
}

/**
 * The check as judged through a target whose answers `rewrite` changes (by default the answer as it
 * came): a sandbox that breaks one condition of the check and keeps every other.
 */
export function withAnswers(check: Check, rewrite: (exchange: Exchange, options: SendOptions) => Exchange): Check {
  return { ...check, run: (ctx) => check.run({ ...ctx, send: async (options) => rewrite(await ctx.send(options), options) }) };
}

/** The exchange with its JSON body changed by `edit`, and its status by `status` when given. */
export function editedAnswer(exchange: Exchange, edit: (json: Record<string, unknown>) => void, status?: number): Exchange {
  if (exchange.response === undefined) return exchange;
  const json = structuredClone(exchange.response.json) as Record<string, unknown>;
  edit(json);
  return { ...exchange, response: { ...exchange.response, status: status ?? exchange.response.status, body: JSON.stringify(json), json } };
}

/**
 * One time for both sides that moves a second whenever the sandbox answers: its timers fire between
 * two requests, and the run's own sleeps move the time on as a virtual clock's do.
 */
export function requestClock(start = Date.now()): { sandbox: Clock; run: Clock; tick: () => void } {
  let now = start;
  const timers: { at: number; fire: () => void }[] = [];
  const moveTo = (at: number) => {
    now = Math.max(now, at);
    for (const timer of timers.filter((t) => t.at <= now)) {
      timers.splice(timers.indexOf(timer), 1);
      timer.fire();
    }
  };
  return {
    sandbox: { now: () => now, sleep: (ms) => new Promise<void>((fire) => timers.push({ at: now + Math.max(0, ms), fire })) },
    run: {
      now: () => now,
      async sleep(ms) {
        moveTo(now + Math.max(0, ms));
        await new Promise((resolve) => setImmediate(resolve));
      },
    },
    tick: () => moveTo(now + 1000),
  };
}
