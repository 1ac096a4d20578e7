// The target of a run: a config, or the kit's embedded reference sandbox started in its place on a
// clock faster than real time, whose every sleep ends when it closes.
import { setMaxListeners } from 'node:events';
import { scaledClock, type Clock } from '../core/clock.js';
import { startSandbox, type RunningSandbox, type StartOptions } from '../sandbox/index.js';
import { checkTargetEnv, envNamesTarget, loadConfig, type TargetConfig } from './config.js';
import type { RunHold } from './settings.js';

/** Scheduling delay is magnified as much as the clock: at 8, HOOK-RETRY's 60 s bound is 7.5 real s,
 *  and the proof's retries stay well inside it. */
export const EMBEDDED_CLOCK_FACTOR = 8;

interface EmbeddedOptions {
  /** How the sandbox is started (faults, variant, settleSeconds); its port is always a free loopback one. */
  sandbox?: Omit<StartOptions, 'port' | 'host' | 'clock'>;
  /** How much faster than real time the sandbox and the run share a clock (default EMBEDDED_CLOCK_FACTOR). */
  clockFactor?: number;
  /** Profile keys laid over the sandbox's own config (the proof's wider retry bound). */
  profile?: Partial<NonNullable<TargetConfig['profile']>>;
}

/** A loaded config; where to read one (file, SVC_* variables), the embedded sandbox when neither names a
 *  target; or the embedded sandbox outright. */
export type RunTarget =
  | { config: TargetConfig }
  | { configFile: string | undefined; env: Record<string, string | undefined>; cwd: string }
  | { embedded: EmbeddedOptions };

/** A target made ready: its config, the run's clock, and the embedded sandbox when one was started. */
export interface OpenedTarget {
  config: TargetConfig;
  clock: Clock | undefined;
  sandbox?: RunningSandbox;
  /** What the reports must say that is no verdict (the faster clock). */
  notes: string[];
  /** Closes the embedded sandbox, if any, once. */
  close(): Promise<void>;
}

/** Loads the config or starts the embedded sandbox (held with `hold`, so an interrupt closes it too).
 *  SVC_* credentials with no base URL are a ConfigError, never read as "no target". */
export async function openTarget(target: RunTarget, clock: Clock | undefined, hold: RunHold | undefined): Promise<OpenedTarget> {
  if ('config' in target) return { config: target.config, clock, notes: [], close: async () => {} };
  if ('embedded' in target) return startEmbedded(target.embedded, clock, hold);
  if (target.configFile !== undefined || envNamesTarget(target.env))
    return { config: await loadConfig(target.configFile, target.env, target.cwd), clock, notes: [], close: async () => {} };
  checkTargetEnv(target.env, undefined);
  return startEmbedded({}, clock, hold);
}

async function startEmbedded(embedded: EmbeddedOptions, given: Clock | undefined, hold: RunHold | undefined): Promise<OpenedTarget> {
  const factor = embedded.clockFactor ?? EMBEDDED_CLOCK_FACTOR;
  const clock = given ?? (factor === 1 ? undefined : ownedClock(factor));
  const ended = new AbortController();
  // Every sleep of the sandbox listens to it, and removes its listener when it wakes: no leak.
  setMaxListeners(0, ended.signal);
  const sandbox = await startSandbox({
    ...embedded.sandbox,
    port: 0,
    ...(clock !== undefined ? { clock: sleepsEndWith(clock, ended.signal) } : {}),
  });
  const release = hold?.({ done: 'closed the embedded sandbox', failed: 'could not close the embedded sandbox' }, () => sandbox.close());
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      release?.();
      try {
        await sandbox.close();
      } finally {
        ended.abort();
      }
    })());
  const config =
    embedded.profile === undefined ? sandbox.config : { ...sandbox.config, profile: { ...sandbox.config.profile, ...embedded.profile } };
  return { config, clock, sandbox, notes: factor !== 1 ? [clockNote(factor)] : [], close };
}

/** The run's and its sandbox's alone: the revisit moves it on instead of waiting (Clock.jump). */
function ownedClock(factor: number): Clock {
  const clock = scaledClock(factor);
  let ahead = 0;
  return {
    factor,
    now: () => clock.now() + ahead,
    sleep: (ms, signal) => clock.sleep(ms, signal),
    jump: (ms) => void (ahead += Math.max(0, ms)),
  };
}

/** Sleeps abandoned once `ended` aborts: the sandbox closes without waking its sleeps (a settlement, a
 *  retry), which on a real timer held the process after the run. */
function sleepsEndWith(clock: Clock, ended: AbortSignal): Clock {
  return {
    now: () => clock.now(),
    ...(clock.factor !== undefined ? { factor: clock.factor } : {}),
    sleep: (ms, signal) => clock.sleep(ms, signal === undefined ? ended : AbortSignal.any([signal, ended])),
  };
}

/** Said in every report of a run on a faster clock: its timings are the sandbox's, not real seconds. */
export function clockNote(factor: number): string {
  return `the embedded sandbox and the run shared a clock ${factor} times faster than real time (settlements and webhook retries took 1/${factor} of their seconds, and a revisit moves it on rather than waiting); every timing was judged on that clock`;
}

/** How the console (and the vitest entry's suite name) says a run's faster clock: nothing for a real one. */
export function fasterClockSaid(clock: Clock | undefined): string {
  return clock?.factor !== undefined && clock.factor !== 1 ? `, on a clock ${clock.factor} times faster than real time` : '';
}
