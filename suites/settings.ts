import type { Clock } from '../core/clock.js';
import type { Exchange } from '../core/exchange.js';
import type { TargetConfig } from './config.js';

/** What a run of the suites is given: the target, the seed and the limits. */
export interface RunSettings {
  config: TargetConfig;
  seed: number;
  /** Cases per property check. */
  runs: number;
  /** Whole seconds since 2024 at the start of the run: part of every generated id. */
  runNumber: number;
  /** The run's random part of every id (default: fresh); fixed only to compare two runs' requests. */
  salt?: string;
  allowProduction: boolean;
  /** Only requirements (or checks) whose id starts with one of these prefixes. */
  only?: readonly string[];
  /** Sees every exchange of the run, redacted, as it completes (run --har). */
  onExchange?: (exchange: Exchange) => void;
  /** Requirement or check id prefixes left out (run --skip), after --only has chosen. */
  skip?: readonly string[];
  /** fast-check's path of a shrunk counterexample (with --only and --seed): replays exactly that case. */
  replayPath?: string;
  /** Requests in flight at most (--concurrency); default the config's profile.concurrency, else 8. 1: one check at a time, in order. */
  concurrency?: number;
  /** Per-request timeout, ms. */
  timeoutMs: number;
  /** When the whole run must end, ms since the epoch on the run's clock (a faster clock: further ahead): nothing is sent after it. */
  deadlineAt?: number;
  /** The budget as given, e.g. "--max-time 900". */
  deadlineSource?: string;
  /** The run's clock (default the system's); tests share a virtual one with an in-process sandbox. */
  clock?: Clock;
  /**
   * Registers how to undo something the run holds at the target (its webhook registration) should
   * the run be interrupted (Ctrl-C, kill); returns the release for when the run undid it itself.
   */
  hold?: RunHold;
  /** Aborted when the command is interrupted: the run sends nothing more (its cleanup has a client of its own). */
  interrupted?: AbortSignal;
}

/** The shape of RunSettings.hold (the CLI's interrupts, cli/interrupt.ts, have one). */
export type RunHold = (what: { done: string; failed: string }, undo: () => Promise<unknown>) => () => void;
