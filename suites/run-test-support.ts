// A whole run of chosen sections on a config, opened and closed: the run tests' shorthand.
import type { CheckResult } from '../core/report.js';
import type { Reporter } from '../core/reporter.js';
import type { TargetConfig } from './config.js';
import { ConformanceRun, type RunOptions } from './run.js';
import type { Section } from './sections.js';

/** Runs the given sections' checks on a config and closes the run: a test's whole run. */
export async function runChecks(
  settings: Omit<RunOptions, 'target' | 'sections'> & { config: TargetConfig },
  sections: readonly Section[],
  reporter: Reporter = {},
): Promise<CheckResult[]> {
  const { config, ...given } = settings;
  const run = await ConformanceRun.open({ ...given, target: { config }, sections });
  try {
    return await run.run([reporter]);
  } finally {
    await run.close();
  }
}
