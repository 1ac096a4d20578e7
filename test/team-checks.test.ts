// A team's own checks, loaded from the config's "checks", run beside the kit's and appear in all
// three reports; a bug in a check is blamed on its module (exit 2), never a failed requirement nor
// the kit's. The modules are code: each is named as it loads, and a config found in the working
// directory (not named) runs none of them without --allow-checks.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../core/report.js';
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import { runCli } from './cli-harness.js';
import { scratchProject } from './scratch-project.js';

// What a team writes: one requirement that holds on the sandbox, one that does not, one check with a bug.
const TEAM_MODULE = `
import { defineCheck, defineRequirement, expectStatus, expectThat } from 'svc-conformance';

export const requirements = [
  defineRequirement({ id: 'ACME-BALANCE-ANSWERS', title: 'Balance Inquiry answers our wallet with 200', level: 'MUST', section: 'Acme extensions' }),
  defineRequirement({ id: 'ACME-BALANCE-CURRENCY', title: 'Balance Inquiry names the currency KWD', level: 'MUST', section: 'Acme extensions' }),
  defineRequirement({ id: 'ACME-BUGGY', title: 'a check whose own code is broken', level: 'MUST', section: 'Acme extensions' }),
];

const balance = (ctx) => {
  const { method, path } = ctx.operation('balanceInquiry');
  return ctx.send({ label: 'acme balance', method, path, payload: { svc_wallet_id: ctx.config.merchant.walletId } });
};

export const checks = [
  defineCheck({ id: 'acme-balance-answers', requirement: 'ACME-BALANCE-ANSWERS', title: 'our wallet has a balance', async run(ctx) {
    expectStatus(await balance(ctx), [200], 'Balance Inquiry of our wallet');
    // What a team check is given instead of the kit's HTTP client: the run's clock and redaction.
    const secret = ctx.config.merchant.secretKey;
    let removed = '';
    try { void ctx.client; } catch (error) { removed = error.message; }
    expectThat(removed.startsWith('ctx.client was removed') && removed.includes('ctx.nowSeconds()') && removed.includes('ctx.redact(text)') && Number.isInteger(ctx.nowSeconds()) && !ctx.redact('key ' + secret).includes(secret), 'the check context: ' + removed);
  } }),
  defineCheck({ id: 'acme-balance-currency', requirement: 'ACME-BALANCE-CURRENCY', title: 'the balance is in KWD', async run(ctx) {
    const x = await balance(ctx);
    const currency = JSON.stringify(x.response?.json?.data?.currency ?? x.response?.json?.currency);
    expectThat(currency === '"KWD"', 'the wallet currency is not KWD', { expected: '"KWD"', actual: currency, exchange: x });
  } }),
  defineCheck({ id: 'acme-buggy', requirement: 'ACME-BUGGY', title: 'reads a field of nothing', async run(ctx) {
    await balance(ctx);
    const nothing = undefined;
    return nothing.field;
  } }),
];
`;

let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, settleSeconds: 0 });
  dir = scratchProject({
    'checks/acme.mjs': TEAM_MODULE,
    'target.json': JSON.stringify({ ...sandbox.config, checks: ['./checks/acme.mjs'] }),
  });
});
afterAll(() => sandbox.close());

const run = (only: string, reportDir: string) =>
  runCli(['run', '--config', 'target.json', '--seed', '5', '--runs', '2', '--only', only, '--report-dir', reportDir], { cwd: dir });

describe('a team check from the config', () => {
  it("runs beside the kit's checks and shows in report.json, junit.xml and report.html", async () => {
    const result = await run('ACME-BALANCE,ERR-CONTENT-TYPE', 'out');
    expect(result.stdout).toMatch(/Acme extensions\s+2 checks: 1 passed, 1 failed/);
    expect(result.stdout).toMatch(/✗ ACME-BALANCE-CURRENCY \(MUST\) the wallet currency is not KWD/);
    expect(result.code).toBe(1);

    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report;
    const byId = new Map(report.requirements.map((r) => [r.id, r]));
    expect(byId.get('ACME-BALANCE-ANSWERS')?.status).toBe('passed');
    expect(byId.get('ACME-BALANCE-CURRENCY')).toMatchObject({
      status: 'failed',
      level: 'MUST',
      section: 'Acme extensions',
      extension: true,
    });
    expect(byId.get('ACME-BALANCE-CURRENCY')?.evidence[0]).toMatchObject({ expected: '"KWD"', check: 'acme-balance-currency' });
    expect(byId.get('ERR-CONTENT-TYPE')?.status).toBe('passed'); // the kit's own, in the same run
    // The kit's requirements link to their full statement; a team's own names its module instead.
    expect(byId.get('ERR-CONTENT-TYPE')?.reference).toBe('docs/requirements.md#ERR-CONTENT-TYPE');
    expect(byId.get('ACME-BALANCE-ANSWERS')?.reference).toBeUndefined();
    // The configuration certified names the team's module from the working directory, not by this machine's path.
    expect(report.certification?.config?.redacted.checks).toEqual(['checks/acme.mjs']);
    expect(JSON.stringify(report.certification)).not.toContain(dir);

    const junit = readFileSync(join(dir, 'out', 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase[^>]*name="ACME-BALANCE-ANSWERS[^"]*"/);
    expect(junit).toMatch(/<testcase[^>]*name="ACME-BALANCE-CURRENCY[^"]*"[^>]*>\s*<failure/);
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    expect(html).toContain('ACME-BALANCE-ANSWERS');
    expect(html).toContain('ACME-BALANCE-CURRENCY');
    expect(html).toContain('the wallet currency is not KWD');
    expect(html).not.toContain('file://');
  });

  it("an exception in a team check's own code names its module, not the kit: shown apart, not judged, exit 2", async () => {
    const result = await run('ACME-BUGGY', 'buggy');
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/! Acme extensions\s+1 check : 0 passed, 1 team check error/);
    expect(result.stdout).toMatch(
      /! team check acme-buggy in \.\/checks\/acme\.mjs threw: TypeError: .*field.* \(ACME-BUGGY\); the team module's fault, not the target's nor the kit's: fix \.\/checks\/acme\.mjs/,
    );
    expect(result.stdout + result.stderr).not.toMatch(/kit error|please report it|kit's fault|kit failed/);
    expect(result.stderr).toMatch(
      /run: inconclusive: a team check threw \(first: team check acme-buggy in \.\/checks\/acme\.mjs threw: TypeError: /,
    );
    expect(result.stdout).not.toMatch(/✗ ACME-BUGGY/);
    const report = JSON.parse(readFileSync(join(dir, 'buggy', 'report.json'), 'utf8')) as Report;
    expect(report.kitErrors).toEqual([
      expect.objectContaining({ check: 'acme-buggy', requirement: 'ACME-BUGGY', module: './checks/acme.mjs' }),
    ]);
    expect(report.requirements.find((r) => r.id === 'ACME-BUGGY')).toMatchObject({
      status: 'skipped',
      skipReason: 'not judged: team check acme-buggy in ./checks/acme.mjs threw: ' + report.kitErrors![0]!.message,
    });
    expect(report.verdict).toBe('inconclusive');
    const junit = readFileSync(join(dir, 'buggy', 'junit.xml'), 'utf8');
    expect(junit).toMatch(
      /<testcase[^>]*name="ACME-BUGGY[^"]*"[^>]*>\s*<error type="team-check" message="team check acme-buggy in \.\/checks\/acme\.mjs threw: TypeError/,
    );
    // The module's error, and the verdict's own testcase naming why the run is inconclusive.
    expect(junit).toMatch(/<testsuites[^>]*errors="2"/);
    const html = readFileSync(join(dir, 'buggy', 'report.html'), 'utf8');
    expect(html).toMatch(
      /A team check's own error, not the target's fault:<\/strong> team check acme-buggy in \.\/checks\/acme\.mjs threw/,
    );
    expect(html).not.toContain('Kit error');
  });

  it("names each module as it loads: it is code, run with the caller's environment", async () => {
    const result = await run('ACME-BALANCE-ANSWERS', 'named');
    expect(result.stdout).toContain(
      "svc-conformance run: loading team checks from ./checks/acme.mjs (a module of code, run with this process's environment)\n",
    );
  });

  it('refuses the modules of a ./svc-conformance.json found, not named (exit 2, one line), unless --allow-checks', async () => {
    const found = scratchProject({
      'checks/acme.mjs': TEAM_MODULE,
      // Were the module run, this file would appear: a refusal must come before any import.
      'checks/loud.mjs':
        "import { writeFileSync } from 'node:fs'; writeFileSync(new URL('../imported', import.meta.url), 'yes'); export { checks, requirements } from './acme.mjs';",
      'svc-conformance.json': JSON.stringify({ ...sandbox.config, checks: ['./checks/loud.mjs'] }),
    });
    const refused = await runCli(['run', '--only', 'ACME-BALANCE-ANSWERS', '--report-dir', 'out'], { cwd: found });
    expect(refused.code).toBe(2);
    const lines = refused.stderr
      .trim()
      .split('\n')
      .filter((line) => !line.includes('using ./svc-conformance.json'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^svc-conformance run: .*\.\/svc-conformance\.json \(found in the working directory, not named with --config\) lists 1 team check module under "checks".*--allow-checks runs it/,
      ),
    ]);
    expect(existsSync(join(found, 'imported'))).toBe(false);

    const allowed = await runCli(['run', '--allow-checks', '--only', 'ACME-BALANCE-ANSWERS', '--report-dir', 'out'], { cwd: found });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain('loading team checks from ./checks/loud.mjs');
    expect(existsSync(join(found, 'imported'))).toBe(true);
    // Named with --config, the same file is what the caller asked for: its modules run, each named.
    const named = await runCli(['run', '--config', 'svc-conformance.json', '--only', 'ACME-BALANCE-ANSWERS', '--report-dir', 'out2'], {
      cwd: found,
    });
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toContain('loading team checks from ./checks/loud.mjs');
  });

  it("list shows the kit's requirements and the team's, each with its checks", async () => {
    const plain = await runCli(['list'], { cwd: dir });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(
      /MUST\s+AUTH-MISSING-KEY {2}A request without X-API-KEY is refused with 401 {2}\[P-AUTH-2\]\n\s+check auth-missing-key: /,
    );
    expect(plain.stdout).not.toContain('ACME-');
    const withTeam = await runCli(['list', '--config', 'target.json', '--json'], { cwd: dir });
    const listed = JSON.parse(withTeam.stdout) as {
      requirements: Array<{ id: string; kind: string; source?: string; checks: Array<{ id: string }> }>;
    };
    const acme = listed.requirements.find((r) => r.id === 'ACME-BALANCE-CURRENCY');
    expect(acme?.checks).toEqual([expect.objectContaining({ id: 'acme-balance-currency' })]);
    expect(acme?.source).toMatch(/checks\/acme\.mjs$/);
    expect(listed.requirements.filter((r) => r.kind === 'server' && r.checks.length === 0).map((r) => r.id)).toEqual([]);
  });

  it('a module that does not load, or a check naming an unknown requirement, is exit 2 with one line', async () => {
    const bad = scratchProject({
      'a.json': JSON.stringify({ ...sandbox.config, checks: ['./missing.mjs'] }),
      'b.json': JSON.stringify({ ...sandbox.config, checks: ['./b.mjs'] }),
      'b.mjs': "export const checks = [{ id: 'x', requirement: 'NOPE-1', title: 't', run: async () => {} }];",
      'c.json': JSON.stringify({ ...sandbox.config, checks: ['./c.mjs'] }),
      'c.mjs':
        "export const requirements = [{ id: 'AUTH-MISSING-KEY', title: 't', level: 'MUST', section: 's' }]; export const checks = [{ id: 'x', requirement: 'AUTH-MISSING-KEY', title: 't', run: async () => {} }];",
    });
    for (const [file, message] of [
      ['a.json', /checks: .*missing\.mjs could not be loaded/],
      ['b.json', /check x names requirement NOPE-1, which neither the kit nor the module defines/],
      ['c.json', /requirement AUTH-MISSING-KEY is already defined by the kit/],
    ] as const) {
      const result = await runCli(['run', '--config', file, '--report-dir', 'out'], { cwd: bad });
      expect(result.code, file).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(message);
    }
  });
});
