// Progress while the checks run: one line per interface section as it finishes, a line while a check
// waits long, and every few seconds of a long run how far it is. It only renders.
import { plural } from '../common/plural.js';
import { visible } from '../common/visible.js';
import type { Progress, Reporter } from '../core/reporter.js';
import type { CheckResult, Level } from '../core/report.js';
import { tallySection } from '../core/verdict.js';

/** A progress line at most this often (ms of wall clock), when nothing else was said meanwhile. */
const PROGRESS_EVERY_MS = 3_000;

export class ProgressReporter implements Reporter {
  private lastLineAt = performance.now();

  constructor(
    private readonly write: (line: string) => void,
    private readonly levelOf: (requirement: string) => Level | undefined,
  ) {}

  /** How far a long run is and how many requests are out, so a slow remote target is seen working; a quick run says none. */
  onCheckEnd(_result: CheckResult, { done, total, inFlight }: Progress): void {
    if (performance.now() - this.lastLineAt < PROGRESS_EVERY_MS || done === total) return;
    this.say(`  … ${done} of ${total} checks done, ${plural(inFlight, 'request')} in flight`);
  }

  /** A check waiting a long time (a target's Retry-After) says so, so the run is not taken for hung. */
  onWait(message: string): void {
    this.say(`  … ${visible(message)}`);
  }

  onSectionEnd(section: string, results: readonly CheckResult[], durationMs: number): void {
    const t = tallySection(results, this.levelOf);
    // A team module's exception is its own, not the kit's: the tally names whose code threw.
    const whose = results.some((r) => r.state === 'error' && r.meta.error?.module === undefined) ? 'kit' : 'team check';
    const parts = [
      `${t.passed} passed`,
      ...(t.failed ? [`${t.failed} failed`] : []),
      ...(t.mayNotHeld ? [`${t.mayNotHeld} MAY not held`] : []),
      ...(t.errors ? [`${t.errors} ${whose} error${t.errors > 1 ? 's' : ''}`] : []),
      ...(t.skipped ? [`${t.skipped} skipped`] : []),
    ];
    this.say(
      `  ${t.mark} ${visible(section).padEnd(20)} ${String(results.length).padStart(3)} check${results.length === 1 ? ' ' : 's'}: ${parts.join(', ')}  (${(durationMs / 1000).toFixed(1)} s)`,
    );
  }

  private say(line: string): void {
    this.lastLineAt = performance.now();
    this.write(line);
  }
}
