// The suites' proof: against the reference sandbox they pass in every combination of its legitimate
// variants, and they detect every fault switch, naming the requirement the fault breaks. Each row is
// a whole run of every check, in-process (the runner and the verdict `run` uses, without the command
// around them: test/cli-run.test.ts covers that), against a fresh sandbox whose payouts settle at once.
import { afterAll, describe, expect, it } from 'vitest';
import { virtualClock } from '../core/clock.js';
import type { Report } from '../core/report.js';
import { buildReport } from '../core/verdict.js';
import { allVariants, FAULT_NAMES, FAULTS, startSandbox, type FaultName, type SandboxVariant } from '../sandbox/index.js';
import { catalog } from '../suites/catalog.js';
import type { TargetConfig } from '../suites/config.js';
import { runNumberAt } from '../suites/ids.js';
import { runChecks } from '../suites/runner.js';
import { SECTIONS } from '../suites/sections.js';

interface Row {
  name: string;
  expected: string;
  failed: string[];
  ok: boolean;
}

const rows: Row[] = [];
const SEED = 20261121;
let runCounter = 0;

/** One whole run against a fresh sandbox, judged as `run --strict --runs 3 --seed 20261121` judges. */
async function certify(options: { variant?: SandboxVariant; faults?: FaultName[] }): Promise<Report> {
  // The sandbox and the run share a virtual clock: no wait (the next second, a settlement) is real.
  const clock = virtualClock();
  const sandbox = await startSandbox({ port: 0, settleSeconds: 0, clock: clock.now, ...options });
  try {
    const config = { ...sandbox.config, profile: { ...sandbox.config.profile, timestampToleranceSeconds: sandbox.app.options.variant.toleranceSeconds } } as TargetConfig;
    const startedAt = new Date();
    const settings = { clock, config, seed: SEED, runs: 3, runNumber: runNumberAt(startedAt.getTime()) + runCounter++, allowProduction: false, timeoutMs: 10_000 };
    const results = await runChecks(settings, SECTIONS);
    return buildReport({
      results, catalog: catalog(), target: { baseUrl: sandbox.baseUrl, environment: 'sandbox', embeddedSandbox: false },
      seed: SEED, runNumber: settings.runNumber, runs: 3, strict: true, startedAt, durationMs: Date.now() - startedAt.getTime(), version: 'proof',
    });
  } finally {
    await sandbox.close();
  }
}

/** Runs jobs a few at a time: each mostly waits on the loopback, so they overlap well in one process. */
async function pool<T>(items: readonly T[], job: (item: T) => Promise<void>, width = 4): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await job(items[next++]!);
  }));
}

const failedIds = (report: Report, levels: readonly string[]) => report.requirements.filter((q) => q.status === 'failed' && levels.includes(q.level)).map((q) => q.id);

afterAll(() => {
  const width = Math.max(...rows.map((r) => r.name.length)) + 2;
  const lines = rows.map((r) => `${r.ok ? '✓' : '✗'} ${r.name.padEnd(width)} expected ${r.expected.padEnd(34)} failed: ${r.failed.join(' ') || '-'}`);
  process.stdout.write(`\nConformance proof: ${rows.filter((r) => r.ok).length}/${rows.length} rows as expected\n${lines.join('\n')}\n`);
});

describe('the suites against the reference sandbox', () => {
  it('pass (no MUST or SHOULD failure, no kit error, even under --strict) in every combination of its legitimate variants', async () => {
    const falseAlarms: string[] = [];
    await pool(allVariants(), async (variant) => {
      const name = `variant create=${variant.createStatus} verify=${variant.verify} replay=${variant.replay} window=${variant.toleranceSeconds}`;
      const report = await certify({ variant });
      const failed = failedIds(report, ['MUST', 'SHOULD']);
      const ok = report.verdict === 'conformant' && failed.length === 0 && report.kitErrors === undefined && report.summary.warned === 0;
      rows.push({ name, expected: 'conformant, nothing failed', failed, ok });
      if (!ok) falseAlarms.push(`${name}: ${failed.join(', ')} ${JSON.stringify(report.kitErrors ?? [])}`);
    });
    expect(falseAlarms).toEqual([]);
  }, 120_000);

  it('detect every fault switch: the run is not conformant and names the requirement the fault breaks', async () => {
    const undetected: string[] = [];
    await pool(FAULT_NAMES, async (fault) => {
      const requirement = FAULTS[fault].requirement;
      const report = await certify({ faults: [fault] });
      const failed = failedIds(report, ['MUST', 'SHOULD', 'MAY']);
      const ok = report.verdict === 'not conformant' && failed.includes(requirement) && report.kitErrors === undefined;
      rows.push({ name: `fault ${fault}`, expected: `${requirement} failed`, failed, ok });
      if (!ok) undetected.push(`${fault} (${requirement}): ${report.verdict}, failed ${failed.join(', ') || 'nothing'} ${JSON.stringify(report.kitErrors ?? [])}`);
    });
    expect(undetected).toEqual([]);
  }, 240_000);
});
