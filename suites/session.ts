// One run session: the target's config (or the embedded sandbox started in its place), the team's
// checks, the run's settings and state, and the one close that ends everything the session opened.
// `run`, the vitest entry and the conformance proof all open one, so the order of these steps and
// what is closed at the end are written once (the vitest entry's own copy once closed only the HTTP
// client, leaving the webhook receiver listening and the target's registration on it).
import { randomInt } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { scaledClock, type Clock } from '../core/clock.js';
import type { CheckResult, Requirement } from '../core/report.js';
import { startSandbox, type RunningSandbox, type StartOptions } from '../sandbox/index.js';
import { catalog } from './catalog.js';
import { checkTargetEnv, envNamesTarget, loadConfig, type TargetConfig } from './config.js';
import { closeRunState, createRunState, type RunState } from './context.js';
import { runNumberAt } from './ids.js';
import { runChecksIn, type RunListener } from './runner.js';
import { SECTIONS, type Section } from './sections.js';
import type { RunSettings } from './settings.js';
import { loadTeamChecks, type LoadTeamChecksOptions } from './team-checks.js';

/**
 * How much faster than real time the embedded sandbox and the run against it share a clock: its
 * settlements (2 s) and the webhook retries (1 + 2 + 4 s) take an eighth of their real time, which
 * were most of an embedded run's time. Every timing is judged on that shared
 * clock, so only real scheduling delay is magnified: 8 keeps HOOK-RETRY's 60 s bound at 7.5 real
 * seconds for retries due within 0.9, where the proof (factor 30, six runs at once on a loaded
 * machine) saw them come at most 3.7 real seconds after the first attempt. Faster is not worth it.
 */
export const EMBEDDED_CLOCK_FACTOR = 8;

/** The embedded sandbox a session starts in place of a target. */
export interface EmbeddedOptions {
  /** How the sandbox is started (faults, variant, settleSeconds); its port is always a free loopback one. */
  sandbox?: Omit<StartOptions, 'port' | 'host' | 'clock'>;
  /** How much faster than real time the sandbox and the run share a clock (default EMBEDDED_CLOCK_FACTOR). */
  clockFactor?: number;
  /** Profile keys laid over the sandbox's own config (the proof's wider retry bound). */
  profile?: Partial<NonNullable<TargetConfig['profile']>>;
}

/**
 * The target: a config already loaded; where to read one (a config file, SVC_* variables over it),
 * which, when neither names a target, is the embedded sandbox; or the embedded sandbox outright.
 */
export type SessionTarget =
  | { config: TargetConfig }
  | { configFile: string | undefined; env: Record<string, string | undefined>; cwd: string }
  | { embedded: EmbeddedOptions };

/** What a session is opened with: the target, how team checks load, and the run's settings (defaults filled). */
export interface SessionOptions extends Omit<Partial<RunSettings>, 'config'> {
  target: SessionTarget;
  teamChecks?: LoadTeamChecksOptions;
}

export interface RunSession {
  config: TargetConfig;
  /** The embedded sandbox, when the session started one; it closes with the session. */
  sandbox?: RunningSandbox;
  /** The kit's sections, then the team's. */
  sections: Section[];
  /** The kit's catalog, then the team's requirements. */
  requirements: Requirement[];
  /** How many team checks the config's modules brought. */
  teamCheckCount: number;
  settings: RunSettings;
  state: RunState;
  /** What the reports must say of the session that is no verdict (the embedded sandbox's faster clock). */
  notes: string[];
  /**
   * Runs every selected check (suites/runner.ts) and ends what the checks opened (the webhook session,
   * its registration put back; the HTTP client) before returning, so what that said is in the results.
   */
  run(listener?: RunListener): Promise<CheckResult[]>;
  /** Closes everything the session opened, once: the run state (if run() has not), then the embedded sandbox. */
  close(): Promise<void>;
}

/**
 * Opens a session. A config or team-check error is a ConfigError (nothing is left open); the embedded
 * sandbox, once started, is held with settings.hold so that an interrupt closes it too.
 */
export async function openSession(options: SessionOptions): Promise<RunSession> {
  const { target, teamChecks, ...given } = options;
  let sandbox: RunningSandbox | undefined;
  let release: (() => void) | undefined;
  let clock = given.clock;
  const notes: string[] = [];
  const sandboxClosed = new AbortController();
  // Every sleep of the sandbox listens to it (a run has dozens of payouts settling at once), and each
  // removes its listener when it wakes: many listeners here are the design, not a leak for node to warn of.
  setMaxListeners(0, sandboxClosed.signal);
  const closeSandbox = async () => {
    release?.();
    try {
      await sandbox?.close();
    } finally {
      sandboxClosed.abort();
    }
  };
  try {
    let config: TargetConfig;
    const chosen = await chooseTarget(target);
    if ('config' in chosen) config = chosen.config;
    else {
      const embedded = chosen.embedded;
      const factor = embedded.clockFactor ?? EMBEDDED_CLOCK_FACTOR;
      clock ??= factor === 1 ? undefined : scaledClock(factor);
      const started = await startSandbox({
        ...embedded.sandbox,
        port: 0,
        ...(clock !== undefined ? { clock: sleepsEndWith(clock, sandboxClosed.signal) } : {}),
      });
      sandbox = started;
      if (given.hold !== undefined)
        release = given.hold({ done: 'closed the embedded sandbox', failed: 'could not close the embedded sandbox' }, () =>
          started.close(),
        );
      config =
        embedded.profile === undefined
          ? started.config
          : { ...started.config, profile: { ...started.config.profile, ...embedded.profile } };
      if (factor !== 1) notes.push(clockNote(factor));
    }
    const team = await loadTeamChecks(config, teamChecks);
    const settings: RunSettings = {
      ...given,
      // A deadline is real time (--max-time's seconds) given as an epoch ms; the run reads it on its
      // own clock, so on a faster clock it lies that much further ahead (or the budget would shrink).
      ...(given.deadlineAt !== undefined && clock?.factor !== undefined && given.clock === undefined
        ? { deadlineAt: clock.now() + (given.deadlineAt - Date.now()) * clock.factor }
        : {}),
      config,
      seed: given.seed ?? randomInt(0, 2 ** 31 - 1),
      runs: given.runs ?? 20,
      runNumber: given.runNumber ?? runNumberAt(Date.now()),
      allowProduction: given.allowProduction ?? false,
      timeoutMs: given.timeoutMs ?? 10_000,
      ...(clock !== undefined ? { clock } : {}),
    };
    const state = createRunState(settings);
    let stateClosed: Promise<void> | undefined;
    const closeState = () => (stateClosed ??= closeRunState(state));
    let closed: Promise<void> | undefined;
    const sections = [...SECTIONS, ...team.sections];
    return {
      config,
      ...(sandbox !== undefined ? { sandbox } : {}),
      sections,
      requirements: [...catalog(), ...team.requirements],
      teamCheckCount: team.sections.reduce((n, s) => n + s.checks.length, 0),
      settings,
      state,
      notes,
      async run(listener) {
        try {
          return await runChecksIn(state, sections, listener);
        } finally {
          await closeState();
        }
      },
      close: () =>
        (closed ??= (async () => {
          try {
            await closeState();
          } finally {
            await closeSandbox();
          }
        })()),
    };
  } catch (error) {
    await closeSandbox();
    throw error;
  }
}

/**
 * The clock, with every sleep on it abandoned once `ended` aborts. The sandbox sleeps on it (a payout
 * settling, a webhook retry) and closes without waking those sleeps: on a real timer each held the
 * process after the run, up to a settlement's 2 s (a quarter second on the embedded clock, every run).
 */
function sleepsEndWith(clock: Clock, ended: AbortSignal): Clock {
  return {
    now: () => clock.now(),
    ...(clock.factor !== undefined ? { factor: clock.factor } : {}),
    sleep: (ms, signal) => clock.sleep(ms, signal === undefined ? ended : AbortSignal.any([signal, ended])),
  };
}

/**
 * The config a config file and the SVC_* variables give, or, when neither names a target, the
 * embedded sandbox; but SVC_* credentials with no base URL, or a variable set but empty, are a
 * ConfigError first: never read as "no target" (suites/config.ts checkTargetEnv).
 */
async function chooseTarget(target: SessionTarget): Promise<{ config: TargetConfig } | { embedded: EmbeddedOptions }> {
  if (!('configFile' in target)) return target;
  if (target.configFile !== undefined || envNamesTarget(target.env))
    return { config: await loadConfig(target.configFile, target.env, target.cwd) };
  checkTargetEnv(target.env, undefined);
  return { embedded: {} };
}

/** Said in every report of a session on a faster clock: its timings are the sandbox's, not real seconds. */
export function clockNote(factor: number): string {
  return `the embedded sandbox and the run shared a clock ${factor} times faster than real time (settlements and webhook retries took 1/${factor} of their seconds); every timing was judged on that clock`;
}

/** How the console (and the vitest entry's suite name) says a session's faster clock: nothing for a real one. */
export function fasterClockSaid(clock: Clock | undefined): string {
  return clock?.factor !== undefined && clock.factor !== 1 ? `, on a clock ${clock.factor} times faster than real time` : '';
}
