import { randomInt } from 'node:crypto';
import { systemClock, type Clock } from '../core/clock.js';
import type { TargetConfig } from './config.js';

/** Each number's bounds and default, read by `run`'s options and help, the vitest entry and the tests
 *  (the seed's default is drawn at random within its bounds). */
export const RUN_NUMBERS = {
  seed: { min: 0, max: 2 ** 31 - 1 },
  /** Cases per property check. */
  runs: { min: 1, max: 10_000, default: 20 },
  /** Per-request timeout, seconds. */
  timeoutSeconds: { min: 1, max: 600, default: 10 },
  /** The whole run's time budget, seconds: well over a healthy target's minute, room for a slow one. */
  maxTimeSeconds: { min: 1, max: 86_400, default: 900 },
  /** Requests in flight at most, unless the config's profile.concurrency says otherwise. */
  concurrency: { min: 1, max: 64, default: 8 },
} as const;

/** The per-request timeout when none is given, ms. */
export const DEFAULT_TIMEOUT_MS = RUN_NUMBERS.timeoutSeconds.default * 1000;

/** What a run of the suites is given: the target, the seed and the limits. */
export interface RunSettings {
  config: TargetConfig;
  seed: number;
  runs: number;
  /** Whole seconds since 2024 at the start of the run: part of every generated id. */
  runNumber: number;
  /** The run's random part of every id (default: fresh); fixed only to compare two runs' requests. */
  salt?: string;
  allowProduction: boolean;
  /** Only requirements (or checks) whose id starts with one of these prefixes. */
  only?: readonly string[];
  /** Requirement or check id prefixes left out (run --skip), after --only has chosen. */
  skip?: readonly string[];
  /** fast-check's path of a shrunk counterexample (with --only and --seed): replays exactly that case. */
  replayPath?: string;
  /** Requests in flight at most; 1: one check at a time, in order. */
  concurrency: number;
  /** Per-request timeout, ms. */
  timeoutMs: number;
  /** The whole run's budget in real seconds (default RUN_NUMBERS.maxTimeSeconds on real time; none on a test's own clock). */
  maxTimeSeconds?: number;
  /** When the whole run must end, ms since the epoch on the run's clock (a faster clock: further ahead). */
  deadlineAt?: number;
  /** The budget as said when it ends the run, e.g. "--max-time 900". */
  deadlineSource?: string;
  /** The run's clock (default the system's); tests share a virtual one with an in-process sandbox. */
  clock?: Clock;
  /** Registers how to undo what the run holds at the target (its webhook registration) should it be interrupted. */
  hold?: RunHold;
  /** Aborted when the command is interrupted: the run sends nothing more (its cleanup has a client of its own). */
  interrupted?: AbortSignal;
}

/** The shape of RunSettings.hold (the CLI's interrupts, cli/interrupt.ts, have one). */
export type RunHold = (what: { done: string; failed: string }, undo: () => Promise<unknown>) => () => void;

/** What a caller gives of a run's settings; fillSettings fills the rest from RUN_NUMBERS. */
export interface RunInput extends Partial<Omit<RunSettings, 'config' | 'deadlineAt' | 'deadlineSource'>> {
  /** When the run began, epoch ms of real time: the budget counts from it (default now). */
  startedAt?: number;
  /** How the budget is named where it ends the run (default "max time"; `run` says "--max-time"). */
  maxTimeName?: string;
}

/** Every default filled. A budget is real time, so on a faster clock it lies that much further ahead;
 *  a test with its own clock has none unless it asks. */
export function fillSettings(given: RunInput, config: TargetConfig, clock: Clock | undefined): RunSettings {
  const { maxTimeSeconds, startedAt = Date.now(), maxTimeName = 'max time', ...rest } = given;
  const seconds = maxTimeSeconds ?? (given.clock === undefined ? RUN_NUMBERS.maxTimeSeconds.default : undefined);
  const runClock = clock ?? systemClock;
  return {
    ...rest,
    config,
    seed: given.seed ?? randomInt(RUN_NUMBERS.seed.min, RUN_NUMBERS.seed.max),
    runs: given.runs ?? RUN_NUMBERS.runs.default,
    runNumber: given.runNumber ?? runNumberAt(startedAt),
    allowProduction: given.allowProduction ?? false,
    timeoutMs: given.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    concurrency: given.concurrency ?? concurrencyOf(config),
    ...(clock !== undefined ? { clock } : {}),
    ...(seconds !== undefined
      ? {
          maxTimeSeconds: seconds,
          deadlineAt: runClock.now() + (startedAt + seconds * 1000 - Date.now()) * (runClock.factor ?? 1),
          deadlineSource: `${maxTimeName} ${seconds}`,
        }
      : {}),
  };
}

/** A run's number: whole seconds since 2024 at its start, part of every id it generates. */
export function runNumberAt(nowMs: number): number {
  return Math.floor((nowMs - Date.UTC(2024, 0, 1)) / 1000);
}

/** The profile's concurrency (profile.concurrency), else the default: what the checks that race size their races by. */
export function concurrencyOf(config: TargetConfig): number {
  return config.profile?.concurrency ?? RUN_NUMBERS.concurrency.default;
}
