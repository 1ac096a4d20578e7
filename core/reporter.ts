// The one stream of a run's results, as vitest's reporters hear theirs: each report form is a
// reporter over these hooks. Reporters only render; the verdict is buildReport's (core/verdict.ts).
import type { Exchange } from './exchange.js';
import type { CheckResult, Report } from './report.js';

/** How far a run is: checks ended of all selected, and requests in flight now. */
export interface Progress {
  done: number;
  total: number;
  inFlight: number;
}

/** The end of a run: its report (sealed), and the files the reporters before this one wrote. */
export interface RunEnd {
  readonly report: Report;
  /** A reporter that writes a file adds its path; one that lists the files reads them here. */
  files: string[];
}

export interface Reporter {
  /** A check waits long (a target's Retry-After): said as it starts, so the run is not taken for hung. */
  onWait?(message: string): void;
  /** An exchange of the run, redacted, as it completes. */
  onExchange?(exchange: Exchange): void;
  /** A check ended, and how far the run is. */
  onCheckEnd?(result: CheckResult, progress: Progress): void;
  /** A section's checks have all ended; sections are told in their listed order. */
  onSectionEnd?(section: string, results: readonly CheckResult[], durationMs: number): void;
  /** The verdict is decided: render it. Reporters are told in their registered order, each awaited. */
  onRunEnd?(end: RunEnd): void | Promise<void>;
}

/** Tells every reporter the run's end in order, nothing more once `stopped` aborts; returns the files written. */
export async function endRun(reporters: readonly Reporter[], report: Report, stopped?: AbortSignal): Promise<string[]> {
  const end: RunEnd = { report, files: [] };
  for (const reporter of reporters) {
    if (stopped?.aborted) break;
    await reporter.onRunEnd?.(end);
  }
  return end.files;
}
