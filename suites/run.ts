import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, startVitest, type TestSpecification } from 'vitest/node';
import { ResultCollector } from '../reports/collector.js';
import { ConsoleProgress } from '../reports/console.js';
import type { CheckResult } from '../reports/model.js';
import type { RunSettings } from './settings.js';

/** Every compiled module of the kit except the suite files and the vitest adapter. */
const KIT_MODULES = /[\\/]dist[\\/](?!suites[\\/](\d\d-[^\\/]*\.suite\.js|vitest-adapter\.js)$)/;

/** Suite files run in name order (10-authentication … 80-operations), one after another. */
class FileNameSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

export interface SuiteRun {
  results: CheckResult[];
  /** Errors vitest met outside any check (a suite file that failed to load). */
  errors: string[];
}

/**
 * Runs the conformance suites (suites/*.suite.*) with vitest, in one worker, sequentially: checks on
 * balances and duplicates must not race each other. Reporters only observe; the caller builds the
 * report from the collected results.
 */
export async function runSuites(settings: RunSettings, progress: (line: string) => void): Promise<SuiteRun> {
  const root = dirname(fileURLToPath(import.meta.url));
  const collector = new ResultCollector();
  const errors: string[] = [];
  const vitest = await startVitest(
    'test',
    [],
    {
      root,
      config: false,
      include: ['*.suite.js', '*.suite.ts'],
      watch: false,
      reporters: [collector, new ConsoleProgress(progress), { onTestRunEnd: (_m, unhandled) => void errors.push(...unhandled.map(describe)) }],
      provide: { svcRun: settings },
      pool: 'threads',
      maxWorkers: 1,
      isolate: false,
      fileParallelism: false,
      sequence: { sequencer: FileNameSequencer },
      // Every request has its own deadline, so a check ends; this only bounds a very slow target.
      testTimeout: 1_800_000,
      hookTimeout: 60_000,
      passWithNoTests: true,
      silent: true,
      // The kit's own compiled modules load natively: only the suite files and the adapter, which
      // call vitest's describe/test, need vitest's module runner. This halves the start-up time.
      server: { deps: { external: [KIT_MODULES] } },
    },
    { logLevel: 'silent' },
  );
  if (vitest === undefined) throw new Error('vitest did not start');
  await vitest.close();
  for (const module of vitest.state.getTestModules?.() ?? []) {
    for (const error of module.errors()) errors.push(`${module.moduleId}: ${error.message}`);
  }
  return { results: collector.results, errors };
}

function describe(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}
