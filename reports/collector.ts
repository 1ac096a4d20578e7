import type { Reporter, TestCase } from 'vitest/node';
import type { CheckResult } from './model.js';

/** Collects each check's verdict and evidence as vitest reports it. It only observes. */
export class ResultCollector implements Reporter {
  readonly results: CheckResult[] = [];

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta().svc;
    if (meta === undefined) return;
    const state = testCase.result().state;
    this.results.push({
      meta,
      state: state === 'passed' || state === 'failed' ? state : 'skipped',
      durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    });
  }
}
