import type { TargetConfig } from './config.js';

/** What `run` hands the suites (through vitest's provide/inject). */
export interface RunSettings {
  config: TargetConfig;
  seed: number;
  /** Cases per property check. */
  runs: number;
  /** Whole seconds since 2024 at the start of the run: part of every generated id. */
  runNumber: number;
  allowProduction: boolean;
  /** Only requirements whose id starts with this (or checks whose id does). */
  only?: string;
  /** Per-request timeout, ms. */
  timeoutMs: number;
  /** When the whole run must end (ms since the epoch): nothing is sent after it. */
  deadlineAt?: number;
  /** The budget as given, e.g. "--max-time 900". */
  deadlineSource?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    svcRun: RunSettings;
  }
}
