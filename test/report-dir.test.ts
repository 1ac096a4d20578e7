import { generateKeyPairSync } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-report-dir-'));
writeFileSync(join(dir, 'a-file'), 'not a folder\n');

/** Report folders that cannot take the reports: a file, a folder under a file, a folder nobody may create. */
const UNUSABLE: Array<[string, string, RegExp]> = [
  ['a file', join(dir, 'a-file'), /a-file: it is a file, not a folder/],
  ['under a file', join(dir, 'a-file', 'reports'), /a-file is a file, not a folder/],
  ['not writable', '/sys/svc-conformance-reports', /no permission to create it/],
  // Node's recursive mkdir loops forever on it: the folder is made one level at a time.
  [
    'on procfs',
    '/proc/svc-conformance-reports/deeper',
    /\/proc\/svc-conformance-reports\/deeper: its file system does not take new folders there/,
  ],
];

describe('a report folder that cannot take the reports is exit 2 before the first request', () => {
  it.each(UNUSABLE)('run, report dir %s', async (_what, reportDir, reason) => {
    const result = await runCli(['run', '--report-dir', reportDir], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).toMatch(/choose another with --report-dir\n$/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    // Nothing was started or sent: no sandbox banner, no run header.
    expect(result.stdout).toBe('');
  });

  it.each(UNUSABLE)('verify-client, report dir %s', async (_what, reportDir, reason) => {
    const marker = join(dir, `client-ran-${Math.random()}`);
    const result = await runCli(
      [
        'verify-client',
        '--report-dir',
        reportDir,
        '--',
        process.execPath,
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`,
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(reason);
    expect(readdirSync(dir)).not.toContain(marker.slice(dir.length + 1));
  });
});

describe('reports are written atomically', () => {
  it('replaces a symlink planted at report.json instead of writing through it, and leaves no temporary file', async () => {
    const reportDir = join(dir, 'planted');
    mkdirSync(reportDir);
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(reportDir, 'report.json'));
    symlinkSync(victim, join(reportDir, 'junit.xml'));

    const result = await runCli(['run', '--only', 'AUTH-MISSING-KEY', '--seed', '1', '--report-dir', reportDir], { cwd: dir });

    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(join(reportDir, 'report.json')).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')).verdict).toBe('conformant');
    expect(readdirSync(reportDir).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'sandbox.json']);
  });
});

describe('default report folders', () => {
  it('run and verify-client each write to a folder of their own, so neither overwrites the other', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-default-dirs-'));
    const run = await runCli(['run', '--only', 'AUTH-MISSING-KEY'], { cwd });
    expect(run.code, run.stderr).toBe(0);
    const client = await runCli(['verify-client', '--', process.execPath, '-e', ''], { cwd });
    expect(client.code).toBe(1); // a client that sends nothing is not conformant; its reports are still written
    expect(readdirSync(join(cwd, 'svc-reports')).sort()).toEqual(['client', 'run']);
    expect(JSON.parse(readFileSync(join(cwd, 'svc-reports', 'run', 'report.json'), 'utf8')).client).toBeUndefined();
    expect(JSON.parse(readFileSync(join(cwd, 'svc-reports', 'client', 'report.json'), 'utf8')).client).toBeDefined();
  }, 30_000);
});

describe('config discovery', () => {
  it('run uses ./svc-conformance.json when no --config is given, says so, and SVC_* variables still replace it', async () => {
    const { startSandbox } = await import('../sandbox/index.js');
    const sandbox = await startSandbox({ port: 0 });
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'svc-discovery-'));
      writeFileSync(join(cwd, 'svc-conformance.json'), JSON.stringify(sandbox.config));
      const found = await runCli(['run', '--only', 'AUTH-MISSING-KEY'], { cwd });
      expect(found.code, found.stderr).toBe(0);
      expect(found.stderr).toBe(
        'svc-conformance run: using ./svc-conformance.json (found in the working directory; --config names another)\n',
      );
      const report = JSON.parse(readFileSync(join(cwd, 'svc-reports', 'run', 'report.json'), 'utf8'));
      expect(report.target).toMatchObject({ baseUrl: sandbox.baseUrl, embeddedSandbox: false });
      const env = {
        SVC_BASE_URL: sandbox.baseUrl,
        SVC_API_KEY: sandbox.config.merchant.apiKey,
        SVC_SECRET_KEY: sandbox.config.merchant.secretKey,
        SVC_WALLET_ID: sandbox.config.merchant.walletId,
      };
      const byEnv = await runCli(['run', '--only', 'AUTH-MISSING-KEY'], { cwd, env });
      expect(byEnv.code, byEnv.stderr).toBe(0);
      expect(byEnv.stderr).not.toContain('svc-conformance.json');
    } finally {
      await sandbox.close();
    }
  }, 30_000);
});

describe('--format json', () => {
  it('prints the summary alone on stdout as one JSON object; the progress goes to stderr', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-format-'));
    const result = await runCli(['run', '--only', 'AUTH-MISSING-KEY', '--format', 'json'], { cwd });
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      verdict: 'conformant',
      summary: { passed: 1, failed: 0 },
      failed: [],
      seed: expect.any(Number),
      target: { embeddedSandbox: true },
    });
    expect(summary.reports).toEqual([
      join(cwd, 'svc-reports/run/report.json'),
      join(cwd, 'svc-reports/run/junit.xml'),
      join(cwd, 'svc-reports/run/report.html'),
    ]);
    expect(summary.digest).toBe(JSON.parse(readFileSync(summary.reports[0], 'utf8')).digest);
    expect(result.stderr).toMatch(/✓ Authentication\s+1 check : 1 passed/);
    expect(await runCli(['run', '--format', 'yaml'], { cwd })).toMatchObject({
      code: 2,
      stderr: 'svc-conformance run: --format takes text or json, not "yaml"\n',
    });
  }, 30_000);
});

describe("--report-dir . beside the user's own files", () => {
  const NOTHING_LISTENS = 'http://127.0.0.1:9/webhooks';

  /** A folder holding a genuine signed report of the kit (and the sandbox.json its run writes). */
  async function withKitReports(): Promise<string> {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-dot-'));
    writeFileSync(join(cwd, 'key.pem'), generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const run = await runCli(['run', '--only', 'AUTH-MISSING-KEY', '--sign-key', 'key.pem', '--report-dir', '.'], { cwd });
    expect(run.code, run.stderr).toBe(0);
    return cwd;
  }

  // Before: a run with no target overwrote the project's own sandbox.json with the embedded sandbox's config.
  it("refuses to replace a sandbox.json the kit did not write, in one line, and replaces the kit's own", async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-dot-'));
    const theirs = JSON.stringify({ baseUrl: 'https://sbx.example.test', merchant: { apiKey: 'pk_theirs', walletId: 'W-1' } });
    writeFileSync(join(cwd, 'sandbox.json'), theirs);
    const refused = await runCli(['run', '--only', 'AUTH-MISSING-KEY', '--report-dir', '.'], { cwd });
    expect(refused).toMatchObject({
      code: 2,
      stderr:
        "svc-conformance run: sandbox.json is not a config the kit wrote, and the run writes the embedded sandbox's config there for its reproduce lines; move it, or choose another folder with --report-dir\n",
    });
    expect(readFileSync(join(cwd, 'sandbox.json'), 'utf8')).toBe(theirs);
    expect(existsSync(join(cwd, 'report.json'))).toBe(false);

    // A sandbox.json of the kit's (the last run's) is the one the reproduce lines cite: replaced, silently.
    const again = await withKitReports();
    const rerun = await runCli(['run', '--only', 'AUTH-MISSING-KEY', '--report-dir', '.'], { cwd: again });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toBe('');
  }, 30_000);

  // Before: once a kit report.json was there, any junit.xml and report.html were removed, another tool's too.
  it("removes at the start only the files that are the kit's, each recognised by its content", async () => {
    const cwd = await withKitReports();
    expect(readdirSync(cwd).sort()).toEqual(['junit.xml', 'key.pem', 'report.html', 'report.json', 'report.json.sig', 'sandbox.json']);
    const kitOnly = await runCli(['verify-receiver', '--url', NOTHING_LISTENS, '--report-dir', '.'], { cwd });
    expect(kitOnly.code).toBe(2);
    expect(readdirSync(cwd).sort()).toEqual(['key.pem', 'sandbox.json']);

    const mixed = await withKitReports();
    const theirs = {
      'junit.xml': '<?xml version="1.0"?>\n<testsuites name="jest tests"/>\n',
      'report.html': '<!doctype html><p>coverage</p>\n',
      'report.json.sig': 'signed by another tool\n',
    };
    for (const [name, text] of Object.entries(theirs)) writeFileSync(join(mixed, name), text);
    const result = await runCli(['verify-receiver', '--url', NOTHING_LISTENS, '--report-dir', '.'], { cwd: mixed });
    expect(result.code).toBe(2);
    expect(existsSync(join(mixed, 'report.json'))).toBe(false);
    for (const [name, text] of Object.entries(theirs)) expect(readFileSync(join(mixed, name), 'utf8')).toBe(text);
  }, 30_000);

  // Before: "internal error: Path is a directory: rm returned EISDIR", exit 70.
  it.each(['report.html', 'junit.xml', 'report.json.sig', 'report.json'])(
    "a folder named %s among the kit's reports: exit 2, one line, before the run",
    async (name) => {
      const cwd = await withKitReports();
      rmSync(join(cwd, name));
      mkdirSync(join(cwd, name));
      const result = await runCli(['run', '--only', 'AUTH-MISSING-KEY', '--report-dir', '.'], { cwd });
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: `svc-conformance run: cannot use report dir ${cwd}: ${name} there is a folder, and the reports are written as a file of that name; move it, or choose another with --report-dir\n`,
      });
    },
    30_000,
  );

  it('a folder named sandbox.json: exit 2, one line', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-dot-'));
    mkdirSync(join(cwd, 'sandbox.json'));
    const result = await runCli(['run', '--only', 'AUTH-MISSING-KEY', '--report-dir', '.'], { cwd });
    expect(result).toMatchObject({
      code: 2,
      stderr:
        "svc-conformance run: sandbox.json is a folder, and the run writes the embedded sandbox's config there for its reproduce lines; move it, or choose another folder with --report-dir\n",
    });
  });
});
