// Drivers on a real deployment (P-CFG v1.3 `drivers`): the reference sandbox as a separate process,
// not declared as the reference sandbox, so the kit sends it no control request of its own; the
// team's shell commands (examples/drivers/reference-bank.sh) pay, fail, expire and settle. With them
// every lifecycle rule is judged, and a server that breaks one is caught; without them the report
// names the driver that would have reached each state.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../core/report.js';
import type { TargetConfig } from '../suites/config.js';
import { runCli, spawnServe, type ServedSandbox } from './cli-harness.js';
import { scratchProject } from './scratch-project.js';

const BANK = join(import.meta.dirname, '..', 'examples', 'drivers', 'reference-bank.sh');
const DRIVERS = {
  payOrder: `sh ${BANK} pay`,
  failOrder: `sh ${BANK} fail`,
  expireOrder: `sh ${BANK} expire`,
  settlePayout: `sh ${BANK} settle`,
};
const LIFECYCLES = ['STATE-ORDER-LIFECYCLE', 'STATE-PAYOUT-LIFECYCLE', 'MONEY-CONSERVATION', 'DUP-PERMANENT'];

const served: ServedSandbox[] = [];
async function deployment(...faults: string[]): Promise<TargetConfig> {
  const sandbox = await spawnServe(['--quiet', ...faults.flatMap((fault) => ['--fault', fault])]);
  served.push(sandbox);
  const config = JSON.parse(sandbox.stdout.slice(sandbox.stdout.indexOf('{'))) as TargetConfig;
  // Judged as any deployment: no control requests of the kit's, no spare wallet, webhooks aside.
  delete config.target;
  delete config.webhooks;
  // The revisit reads at once rather than 12 real seconds later (checks/revisit.test.ts waits).
  config.profile = { ...config.profile, revisitAfterSeconds: 0 };
  return config;
}

async function run(config: TargetConfig, only = LIFECYCLES) {
  const dir = scratchProject({ 'target.json': JSON.stringify(config) });
  const result = await runCli(['run', '--config', 'target.json', '--only', only.join(','), '--runs', '4', '--report-dir', 'out'], {
    cwd: dir,
  });
  const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report;
  const status = (id: string) => report.requirements.find((r) => r.id === id)?.status;
  return { ...result, report, status, notes: (report.notes ?? []).join('\n') };
}

afterAll(() => {
  for (const sandbox of served) sandbox.child.kill('SIGTERM');
});

// One correct deployment for every test that needs no fault: each run makes records of its own.
let correct: TargetConfig;
beforeAll(async () => {
  correct = await deployment();
});

describe('a deployment with drivers', () => {
  it('judges every lifecycle rule, reaching each state through the drivers', async () => {
    const { code, status, notes, stdout } = await run({ ...correct, drivers: DRIVERS });
    expect(LIFECYCLES.map(status), stdout).toEqual(LIFECYCLES.map(() => 'passed'));
    expect(notes, notes).not.toMatch(/never reached/);
    expect(code, stdout).toBe(0);
  });

  it('without drivers: each unreached state named, with the driver that would reach it', async () => {
    const { notes } = await run(correct, ['STATE-ORDER-LIFECYCLE', 'STATE-PAYOUT-LIFECYCLE']);
    expect(notes).toMatch(
      /STATE-ORDER-LIFECYCLE: .*never reached: order PAID, order EXPIRED \(.*no drivers\.payOrder or drivers\.expireOrder to do it\)/,
    );
    expect(notes).toMatch(
      /STATE-PAYOUT-LIFECYCLE: .*never reached: (payout FAILED, )?payout REVERSED \(.*no drivers\.settlePayout to do it\)/,
    );
  });

  it('a driver that fails: never the target’s failure, and what it said is in the report', async () => {
    const failing = { ...correct, drivers: { ...DRIVERS, payOrder: 'echo "the test button is gone"; exit 7' } };
    const { status, notes, stdout } = await run(failing, ['STATE-ORDER-LIFECYCLE']);
    expect(status('STATE-ORDER-LIFECYCLE'), stdout).toBe('passed');
    expect(notes).toMatch(/drivers\.payOrder did not make a change it was asked for \(exit 7: the test button is gone\)/);
    expect(notes).toMatch(/never reached: order PAID \(the run's drivers did not move records to order PAID \(see the notes/);
  });
});

describe('a deployment that breaks a lifecycle, caught only through the drivers', () => {
  // Each against its own deployment, so both at once.
  it.concurrent.each([
    ['state-paid-cancellable', 'STATE-ORDER-LIFECYCLE'],
    ['money-reversal-not-refunded', 'MONEY-CONSERVATION'],
  ])('%s fails %s', async (fault, requirement) => {
    const config = await deployment(fault);
    const { status, code, stdout } = await run({ ...config, drivers: DRIVERS }, [requirement]);
    expect(status(requirement), stdout).toBe('failed');
    expect(code).toBe(1);
  });
});

describe('drivers are code', () => {
  it('those of a ./svc-conformance.json found, not named, run only with --allow-drivers (exit 2, one line)', async () => {
    const found = scratchProject({});
    const config = { ...correct, drivers: { payOrder: `touch ${join(found, 'ran')}` } };
    writeFileSync(join(found, 'svc-conformance.json'), JSON.stringify(config));
    const refused = await runCli(['run', '--only', 'STATE-ORDER-LIFECYCLE', '--report-dir', 'out'], { cwd: found });
    expect(refused.code).toBe(2);
    expect(existsSync(join(found, 'ran'))).toBe(false);
    expect(refused.stderr).toMatch(
      /lists drivers \(payOrder\), shell commands that would run with your environment and its secrets: --allow-drivers runs them, or name the file with --config\n/,
    );
    const allowed = await runCli(['run', '--allow-drivers', '--only', 'STATE-ORDER-LIFECYCLE', '--runs', '2', '--report-dir', 'out'], {
      cwd: found,
    });
    expect(allowed.code, allowed.stderr).not.toBe(2);
    expect(existsSync(join(found, 'ran'))).toBe(true);
  });
});
