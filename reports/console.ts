import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { PROGRESS_ANNOTATION } from '../common/annotations.js';
import { catalog } from '../suites/catalog.js';
import { visible } from '../common/visible.js';
import type { Report } from './model.js';

type TestAnnotation = Parameters<NonNullable<Reporter['onTestCaseAnnotate']>>[1];

/** A MAY that does not hold is information: it does not make a section fail. */
function isMay(requirement: string | undefined): boolean {
  return catalog().find((r) => r.id === requirement)?.level === 'MAY';
}

/** Progress while the suites run: one line per interface section as it finishes. It only observes. */
export class ConsoleProgress implements Reporter {
  constructor(private readonly write: (line: string) => void) {}

  /** A check waiting a long time (a target's Retry-After) says so, so the run is not taken for hung. */
  onTestCaseAnnotate(_test: TestCase, annotation: TestAnnotation): void {
    if (annotation.type === PROGRESS_ANNOTATION) this.write(`  … ${visible(annotation.message)}`);
  }

  onTestModuleEnd(module: TestModule): void {
    let passed = 0;
    let failed = 0;
    let info = 0;
    let skipped = 0;
    let section = '';
    for (const test of module.children.allTests()) {
      section ||= test.parent.type === 'suite' ? test.parent.name : '';
      const state = test.result().state;
      if (state === 'passed') passed++;
      else if (state === 'failed' && isMay(test.meta().svc?.requirement)) info++;
      else if (state === 'failed') failed++;
      else skipped++;
    }
    if (passed + failed + info + skipped === 0) return;
    const seconds = ((module.diagnostic().duration ?? 0) / 1000).toFixed(1);
    const parts = [`${passed} passed`, ...(failed ? [`${failed} failed`] : []), ...(info ? [`${info} MAY not held`] : []), ...(skipped ? [`${skipped} skipped`] : [])];
    // A section whose checks were all skipped (no keys for them, or a run that stopped) passed nothing.
    const mark = failed ? '✗' : passed + info === 0 ? '–' : '✓';
    this.write(`  ${mark} ${section.padEnd(20)} ${String(passed + failed + info + skipped).padStart(3)} checks: ${parts.join(', ')}  (${seconds} s)`);
  }
}

/** What the verdict is about, in words that cannot be mistaken for a deployment when it is not one. */
export function judged(report: Report): string {
  if (report.client) return `client \`${report.client.command}\` (${report.client.requests} requests)`;
  if (report.target.embeddedSandbox) return `the kit's own embedded reference sandbox at ${report.target.baseUrl}, not a deployment`;
  return `${report.target.baseUrl} (${report.target.environment})`;
}

/** The short summary after a run: the verdict, the counts, and each failed requirement in one line. */
export function summaryLines(report: Report, files: readonly string[]): string[] {
  const { summary } = report;
  const lines = [
    '',
    `${report.verdict === 'conformant' ? '✓ CONFORMANT' : '✗ NOT CONFORMANT'}  ${judged(report)}`,
    ...(report.error !== undefined ? [`  ! ${report.error}`] : []),
    ...(report.hints ?? []).map((hint) => `  ! ${hint}`),
    `  requirements: ${summary.passed} passed, ${summary.failed} MUST failed, ${summary.warned} SHOULD warned, ${summary.skipped} skipped`,
  ];
  const broken = report.requirements.filter((r) => r.status === 'failed');
  for (const r of broken.slice(0, 20)) lines.push(`  ${r.level === 'MUST' ? '✗' : r.level === 'SHOULD' ? '!' : 'i'} ${r.id} (${r.level}) ${r.evidence[0]?.message ?? r.title}`);
  if (broken.length > 20) lines.push(`  …and ${broken.length - 20} more`);
  if (!report.client) lines.push(`  seed ${report.seed}: rerun the same requests with --seed ${report.seed}`);
  lines.push(files.length > 0 ? `  reports: ${files.join(', ')}` : '  reports: none written (see the error above)');
  // Messages quote what the target answered: no control or bidi character reaches the terminal.
  return lines.map((line) => visible(line));
}
