// The suites' proof (issue: "Proof, in npm test"): against the reference sandbox they pass in every
// combination of its legitimate variants, and they detect every fault switch, naming the
// requirement the fault breaks. Each row is a real `svc-conformance run` of the built command.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../reports/model.js';
import { allVariants, FAULT_NAMES, FAULTS, startSandbox, type FaultName, type SandboxVariant } from '../sandbox/index.js';
import { runBinAsync } from './cli-harness.js';

interface Row {
  name: string;
  expected: string;
  exit: number;
  failed: string[];
  ok: boolean;
}

const rows: Row[] = [];

/** One run of the built command against a fresh sandbox; payouts settle at once to keep it short. */
async function certify(options: { variant?: SandboxVariant; faults?: FaultName[] }): Promise<{ exit: number; report: Report; output: string }> {
  const sandbox = await startSandbox({ port: 0, settleSeconds: 0, ...options });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'svc-proof-'));
    const config = { ...sandbox.config, profile: { ...sandbox.config.profile, timestampToleranceSeconds: sandbox.app.options.variant.toleranceSeconds } };
    writeFileSync(join(dir, 'target.json'), JSON.stringify(config));
    const result = await runBinAsync(['run', '--config', join(dir, 'target.json'), '--strict', '--runs', '3', '--seed', '20261121', '--report-dir', dir], { timeoutMs: 180_000 });
    return { exit: result.code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report, output: result.stdout + result.stderr };
  } finally {
    await sandbox.close();
  }
}

/** Runs jobs two at a time: this machine has two cores. */
async function pool<T>(items: readonly T[], job: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all([0, 1].map(async () => {
    while (next < items.length) await job(items[next++]!);
  }));
}

afterAll(() => {
  const width = Math.max(...rows.map((r) => r.name.length)) + 2;
  const lines = rows.map((r) => `${r.ok ? '✓' : '✗'} ${r.name.padEnd(width)} expected ${r.expected.padEnd(34)} exit ${r.exit}  failed: ${r.failed.join(' ') || '-'}`);
  process.stdout.write(`\nConformance proof: ${rows.filter((r) => r.ok).length}/${rows.length} rows as expected\n${lines.join('\n')}\n`);
});

describe('the suites against the reference sandbox', () => {
  it('pass (no MUST or SHOULD failure, even under --strict) in every combination of its legitimate variants', async () => {
    const falseAlarms: string[] = [];
    await pool(allVariants(), async (variant) => {
      const name = `variant create=${variant.createStatus} verify=${variant.verify} replay=${variant.replay} window=${variant.toleranceSeconds}`;
      const { exit, report } = await certify({ variant });
      const failed = report.requirements.filter((q) => q.status === 'failed' && q.level !== 'MAY').map((q) => q.id);
      const ok = exit === 0 && failed.length === 0 && report.summary.failed === 0 && report.summary.warned === 0;
      rows.push({ name, expected: 'exit 0, nothing failed', exit, failed, ok });
      if (!ok) falseAlarms.push(`${name}: ${failed.join(', ')}`);
    });
    expect(falseAlarms).toEqual([]);
  }, 600_000);

  it('detect every fault switch: the run fails and names the requirement the fault breaks', async () => {
    const undetected: string[] = [];
    await pool(FAULT_NAMES, async (fault) => {
      const requirement = FAULTS[fault].requirement;
      const { exit, report, output } = await certify({ faults: [fault] });
      const failed = report.requirements.filter((q) => q.status === 'failed').map((q) => q.id);
      const ok = exit === 1 && failed.includes(requirement);
      rows.push({ name: `fault ${fault}`, expected: `${requirement} failed`, exit, failed, ok });
      if (!ok) undetected.push(`${fault} (${requirement}): exit ${exit}, failed ${failed.join(', ') || 'nothing'}\n${output.slice(-400)}`);
    });
    expect(undetected).toEqual([]);
  }, 900_000);
});
