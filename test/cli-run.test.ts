import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../core/report.js';
import { startSandbox, type StartOptions } from '../sandbox/index.js';
import { MERCHANT_A, MERCHANT_A_LIVE, MERCHANT_B } from '../sandbox/tenants.js';
import { validateSchema } from '../schemas/index.js';
import { runBinAsync, runCli } from './cli-harness.js';

const SECRETS = [MERCHANT_A.secretKey, MERCHANT_B.secretKey, MERCHANT_A_LIVE.secretKey];
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-run-'));
}

/** A sandbox on loopback with its config written to a file; payouts settle at once to keep runs short. */
/** The config a sandbox writes for the kit, which a test may edit before the run reads it. */
type WrittenConfig = Awaited<ReturnType<typeof startSandbox>>['config'];

async function target(
  options: StartOptions = {},
  edit: (config: WrittenConfig) => object = (c) => c,
): Promise<{ dir: string; config: string }> {
  const sandbox = await startSandbox({ port: 0, settleSeconds: 0, ...options });
  closers.push(sandbox.close);
  const dir = tempDir();
  const config = join(dir, 'target.json');
  // The sandbox keeps real time: the revisit reads at once rather than 12 real seconds later (revisit.test.ts waits).
  const edited = edit(structuredClone(sandbox.config)) as { profile?: object };
  writeFileSync(config, JSON.stringify({ ...edited, profile: { ...edited.profile, revisitAfterSeconds: 0 } }));
  return { dir, config };
}

function report(dir: string): Report {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}

function status(r: Report, id: string): string | undefined {
  return r.requirements.find((q) => q.id === id)?.status;
}

// Most runs go through main() in-process (the same code as the binary, without a Node start-up);
// the first test and the unreachable target run the built executable, as a user or CI would.
// Each test has its own sandbox and report folder, so they run at once: much of their time is spent
// waiting on a child process or a loopback answer.
describe.concurrent('svc-conformance run', () => {
  it('certifies the embedded sandbox with no target given, and writes three reports without a secret or signature in them', async () => {
    const dir = tempDir();
    const result = await runBinAsync(['run', '--runs', '3', '--seed', '11', '--report-dir', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/certifying the kit's own embedded reference sandbox at http:\/\/127\.0\.0\.1:\d+, not a deployment/);
    // Its settlements and webhook retries ran on a faster clock the judge shares: said, on the console and in the report.
    expect(result.stdout).toMatch(/, not a deployment, on a clock \d+ times faster than real time \(it stops with the run/);
    expect(result.stdout).toMatch(/✓ Authentication +\d+ checks/);
    // The verdict itself says what was certified, so a log excerpt of it cannot mislead.
    expect(result.stdout).toMatch(
      /\n✓ CONFORMANT {2}the kit's own embedded reference sandbox at http:\/\/127\.0\.0\.1:\d+, not a deployment\n/,
    );
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(
      /the kit&#39;s own embedded reference sandbox, not a deployment|the kit's own embedded reference sandbox, not a deployment/,
    );
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<property name="target.embeddedSandbox" value="true"\/>/);
    // sandbox.json: the config the reproduce lines cite (its demo keys redacted; checked below with the rest).
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'sandbox.json']);
    const r = report(dir);
    expect(validateSchema('report', r)).toEqual({ valid: true, errors: [] });
    expect(r).toMatchObject({ seed: 11, verdict: 'conformant', target: { environment: 'sandbox', embeddedSandbox: true } });
    expect(r.notes).toEqual([expect.stringMatching(/^the embedded sandbox and the run shared a clock \d+ times faster than real time/)]);
    expect(r.requirements.length).toBeGreaterThanOrEqual(80);
    for (const file of readdirSync(dir)) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const secret of SECRETS) expect(text, file).not.toContain(secret);
      // No signature (64 hex digits); the report's own SHA-256 digests are written sha256:… and allowed.
      expect(text, file).not.toMatch(/(?<!sha256:)\b[0-9a-f]{64}\b/);
    }
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<testsuites[^>]*tests="\d+"/);
  });

  it('fails a sandbox with a fault, naming the broken requirement with evidence and reproduce lines', async () => {
    const t = await target({ faults: ['dup-race'] });
    // Every section but Webhooks, whose real retry schedule (1 + 2 + 4 s) has nothing to do with the
    // race: the embedded run above covers that section, on the clock it shares with its sandbox.
    const result = await runCli(['run', '--config', t.config, '--runs', '3', '--skip', 'HOOK-', '--report-dir', t.dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ NOT CONFORMANT/);
    expect(result.stdout).toMatch(/✗ DUP-CONCURRENT \(MUST\)/);
    const broken = report(t.dir).requirements.find((q) => q.id === 'DUP-CONCURRENT')!;
    expect(broken.status).toBe('failed');
    expect(broken.evidence[0]!.exchanges.length).toBeGreaterThan(0);
    expect(broken.evidence[0]!.reproduce?.curl).toMatch(/^curl |\ncurl /m);
    // The race's creates share one order_id: one replayed request cannot show it, so there is no replay
    // line; the curl script sends them all at once, as the kit did (test/reproduce-lines runs it).
    expect(broken.evidence[0]!.reproduce?.replay).toBeUndefined();
    expect(broken.evidence[0]!.reproduce?.curl).toMatch(/^# Sends these \d+ requests at once, as the kit did \(a race\)/m);
    expect(broken.evidence[0]!.reproduce?.run).toBe(
      `svc-conformance run --config ${t.config} --seed ${report(t.dir).seed} --only DUP-CONCURRENT`,
    );
  });

  it('names wrong keys once, up front, when no correctly signed request is taken', async () => {
    const wrongSecret = 'sk_test_not_this_merchants_secret_9d1c';
    const t = await target({}, (c) => ({ ...c, merchant: { ...c.merchant, secretKey: wrongSecret } }));
    const result = await runCli(['run', '--config', t.config, '--only', 'ORDER-', '--runs', '2', '--report-dir', t.dir]);
    // A configuration problem, not the target's fault: inconclusive (exit 2), never NOT CONFORMANT.
    expect(result.code).toBe(2);
    const lines = result.stdout.split('\n');
    const hint = lines.findIndex((l) =>
      /^ {2}! could not judge: no correctly signed request was taken by the target \(\d+ answered: \d+ refused 401\), so it could not be judged: the configured keys are likely wrong, not the target: check that merchant\.apiKey and merchant\.secretKey/.test(
        l,
      ),
    );
    expect(hint, result.stdout).toBeGreaterThan(0);
    expect(lines.filter((l) => /the configured keys are likely wrong/.test(l))).toHaveLength(1);
    expect(lines[hint - 1]).toMatch(/^\? INCONCLUSIVE/);
    expect(hint).toBeLessThan(lines.findIndex((l) => /^ {2}✗ ORDER-/.test(l)));
    expect(result.stderr).toMatch(/^svc-conformance run: inconclusive: no correctly signed request was taken by the target/);
    const r = report(t.dir);
    expect(r).toMatchObject({
      verdict: 'inconclusive',
      reasons: [expect.stringMatching(/the configured keys are likely wrong/)],
    });
    expect(validateSchema('report', r).valid).toBe(true);
    expect(readFileSync(join(t.dir, 'report.html'), 'utf8')).toMatch(
      /<h1>Inconclusive<\/h1><p class="why">The run could not judge the target: no correctly signed request was taken by the target/,
    );
    for (const text of [
      result.stdout,
      result.stderr,
      ...readdirSync(t.dir)
        .filter((f) => !f.endsWith('.json') || f === 'report.json')
        .map((f) => readFileSync(join(t.dir, f), 'utf8')),
    ]) {
      expect(text).not.toContain(wrongSecret);
    }
  });

  it('gives no such hint when the keys are right, even with a requirement failing', async () => {
    const t = await target({ faults: ['order-reject-non-ascii'] });
    const result = await runCli(['run', '--config', t.config, '--only', 'ORDER-', '--runs', '2', '--report-dir', t.dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(/no correctly signed request was taken|keys are likely wrong/);
    expect(report(t.dir).hints).toBeUndefined();
  });

  it('counts a failed SHOULD as a warning, and fails the run on it only with --strict', async () => {
    const t = await target({ faults: ['dup-global-ids'] });
    const lenient = await runCli(['run', '--config', t.config, '--only', 'DUP-', '--report-dir', t.dir]);
    expect(lenient.code).toBe(0);
    expect(report(t.dir).summary).toMatchObject({ failed: 0, warned: 1 });
    const strict = await runCli(['run', '--config', t.config, '--only', 'DUP-', '--strict', '--report-dir', t.dir]);
    expect(strict.code).toBe(1);
  });

  it('--only runs the requirements with that prefix and nothing else', async () => {
    const t = await target();
    const result = await runCli(['run', '--config', t.config, '--only', 'AUTH-TIMESTAMP', '--report-dir', t.dir]);
    expect(result.code).toBe(0);
    expect(
      report(t.dir)
        .requirements.map((q) => q.id)
        .sort(),
    ).toEqual([
      'AUTH-TIMESTAMP-CHANGED',
      'AUTH-TIMESTAMP-EMPTY',
      'AUTH-TIMESTAMP-FRACTIONAL',
      'AUTH-TIMESTAMP-MILLISECONDS',
      'AUTH-TIMESTAMP-NOT-DIGITS',
    ]);
  });

  it('reports a missing optional key as skipped, naming the key that would enable it', async () => {
    const t = await target({}, (c) => ({ ...c, otherMerchant: undefined }));
    const result = await runCli(['run', '--config', t.config, '--only', 'DUP-OTHER', '--report-dir', t.dir]);
    expect(result.code).toBe(0);
    const skipped = report(t.dir).requirements.find((q) => q.id === 'DUP-OTHER-MERCHANT')!;
    expect(skipped).toMatchObject({ status: 'skipped', skipReason: 'needs otherMerchant in the config' });
  });

  it('skips record-creating checks against production unless --allow-production (P-ENV-3)', async () => {
    const t = await target({}, (c) => ({ ...c, environment: 'production' }));
    const guarded = await runCli(['run', '--config', t.config, '--only', 'DUP-SEQUENTIAL', '--report-dir', t.dir]);
    expect(guarded.stdout).toMatch(/Target is production: checks that create records are skipped/);
    expect(report(t.dir).requirements[0]).toMatchObject({
      id: 'DUP-SEQUENTIAL',
      status: 'skipped',
      skipReason: expect.stringMatching(/--allow-production \(P-ENV-3\)/),
    });
    const allowed = await runCli(['run', '--config', t.config, '--only', 'DUP-SEQUENTIAL', '--allow-production', '--report-dir', t.dir]);
    expect(allowed.code).toBe(0);
    expect(status(report(t.dir), 'DUP-SEQUENTIAL')).toBe('passed');
  });

  it('gives the same shrunk counterexample for the same seed', async () => {
    const counterexample = async () => {
      const t = await target({ faults: ['order-reject-non-ascii'] });
      await runCli(['run', '--config', t.config, '--only', 'ORDER-GENERATED', '--seed', '2024', '--runs', '30', '--report-dir', t.dir]);
      const evidence = report(t.dir).requirements.find((q) => q.id === 'ORDER-GENERATED-ACCEPTED')!.evidence[0]!;
      // order_id carries the run's own number so reruns against one server never collide; drop it.
      const { order_id: _ignored, ...rest } = evidence.counterexample as Record<string, unknown>;
      return rest;
    };
    const first = await counterexample();
    expect(first).toHaveProperty('customer');
    expect(await counterexample()).toEqual(first);
  });

  it('replays exactly the shrunk counterexample from seed and fast-check path, with the command the report and console show', async () => {
    const t = await target({ faults: ['order-reject-non-ascii'] });
    const first = await runCli([
      'run',
      '--config',
      t.config,
      '--only',
      'ORDER-GENERATED',
      '--seed',
      '2024',
      '--runs',
      '30',
      '--report-dir',
      t.dir,
    ]);
    const evidence = report(t.dir).requirements.find((q) => q.id === 'ORDER-GENERATED-ACCEPTED')!.evidence[0]!;
    const command = evidence.reproduce?.run ?? '';
    expect(command).toMatch(
      /^svc-conformance run --config \S+ --seed 2024 --only create-order-generated-accepted --replay-path \d+(:\d+)*$/,
    );
    expect(first.stdout).toContain(command.replace(/^svc-conformance /, ''));
    const argv = command.split(' ').slice(1);
    const again = await runCli([...argv, '--report-dir', join(t.dir, 'replayed')]);
    expect(again.code).toBe(1);
    const replayed = report(join(t.dir, 'replayed')).requirements.find((q) => q.id === 'ORDER-GENERATED-ACCEPTED')!.evidence[0]!;
    const { order_id: _a, ...was } = evidence.counterexample as Record<string, unknown>;
    const { order_id: _b, ...now } = replayed.counterexample as Record<string, unknown>;
    expect(now).toEqual(was);
    expect(replayed.message).toMatch(/the case at path \d+(:\d+)*, replayed/);
  });

  it('takes --concurrency: records it in every report, and refuses one that is not 1 to 64', async () => {
    const t = await target();
    const one = await runCli(['run', '--config', t.config, '--only', 'AUTH-,DUP-', '--concurrency', '1', '--report-dir', t.dir]);
    expect(one.code, one.stdout + one.stderr).toBe(0);
    expect(one.stdout).toMatch(/one request at a time/);
    expect(report(t.dir).concurrency).toBe(1);
    expect(readFileSync(join(t.dir, 'junit.xml'), 'utf8')).toContain('<property name="concurrency" value="1"/>');
    expect(readFileSync(join(t.dir, 'report.html'), 'utf8')).toContain('one request at a time');
    const many = await runCli(['run', '--config', t.config, '--only', 'AUTH-', '--concurrency', '16', '--report-dir', join(t.dir, 'many')]);
    expect(many.stdout).toMatch(/up to 16 requests in flight/);
    expect(report(join(t.dir, 'many')).concurrency).toBe(16);
    for (const bad of ['0', '65', 'lots']) {
      const refused = await runCli(['run', '--config', t.config, '--concurrency', bad]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(`svc-conformance run: --concurrency takes a whole number from 1 to 64, not ${JSON.stringify(bad)}\n`);
    }
  });

  it('refuses a replay path without the seed and check it belongs to', async () => {
    const result = await runCli(['run', '--replay-path', '3:1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--replay-path replays one shrunk case: give it with the --seed and --only of the failure/);
  });
});

describe.concurrent('svc-conformance run against a target that is not there or not an API', () => {
  async function server(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const s: Server = createServer(handler);
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    );
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  }
  const env = (baseUrl: string) => ({
    SVC_BASE_URL: baseUrl,
    SVC_API_KEY: MERCHANT_A.apiKey,
    SVC_SECRET_KEY: MERCHANT_A.secretKey,
    SVC_WALLET_ID: MERCHANT_A.walletId,
  });

  it('says in one line that nothing listens, exits 2, and records the failure', async () => {
    const dir = tempDir();
    // Port 9 (discard) on loopback: nothing listens there.
    const result = await runBinAsync(['run', '--report-dir', dir], { env: env('http://127.0.0.1:9') });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^svc-conformance run: inconclusive: the target could not be reached: connection refused by 127\.0\.0\.1:9: is the server running, and is baseUrl right\?/,
    );
    expect(report(dir)).toMatchObject({ verdict: 'inconclusive', reasons: [expect.stringMatching(/connection refused/)] });
    // CI sees an error, never an empty pass: JUnit counts it, the HTML headline names it.
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites [^>]*errors="1"/);
    expect(junit).toMatch(/<error type="inconclusive" message="inconclusive: the target could not be reached: connection refused/);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(
      /<h1>Inconclusive<\/h1><p class="why">The run could not judge the target: the target could not be reached: connection refused/,
    );
  });

  it('gives up on a target that accepts connections and never answers, quickly and with one line', async () => {
    const hang = await server(() => {});
    const result = await runCli(['run', '--timeout', '1', '--report-dir', tempDir()], { env: env(hang) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no (complete )?answer from 127\.0\.0\.1:\d+ within 1 s/);
  });

  it('fails a target that answers HTML, with clear messages and no crash', async () => {
    const html = await server((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome to nginx!</body></html>'),
    );
    const dir = tempDir();
    const result = await runCli(['run', '--runs', '2', '--report-dir', dir], { env: env(html) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const r = report(dir);
    expect(status(r, 'ERR-CONTENT-TYPE')).toBe('failed');
    expect(status(r, 'AUTH-MISSING-SIGNATURE')).toBe('failed');
    expect(JSON.stringify(r)).toMatch(/text\/html/);
  });

  it.each<[string, string, RegExp]>([
    ['a config that is not JSON', '{"baseUrl": ', /config .*target\.json is not JSON/],
    [
      'a config with a typo in a key',
      JSON.stringify({
        baseUrl: 'http://127.0.0.1:1',
        environment: 'sandbox',
        merchant: { apiKey: 'a', secretKey: 's', walletId: 'w' },
        profle: {},
      }),
      /is invalid: \(root\): must NOT have additional properties \("profle"\)/,
    ],
    [
      'a config without the merchant',
      JSON.stringify({ baseUrl: 'http://127.0.0.1:1', environment: 'sandbox' }),
      /merchant.*SVC_API_KEY, SVC_SECRET_KEY and SVC_WALLET_ID/,
    ],
  ])('refuses %s with one line and exit 2', async (_name, text, message) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'target.json'), text);
    const result = await runCli(['run', '--config', join(dir, 'target.json'), '--report-dir', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  // In CI a missing secret arrives as an empty variable: never certify the embedded sandbox then.
  it.each<[string, Record<string, string>, RegExp]>([
    [
      'SVC_BASE_URL empty',
      { SVC_BASE_URL: '' },
      /^svc-conformance run: SVC_BASE_URL is set but empty \(a CI secret or variable that did not reach this job\?\)/,
    ],
    ['SVC_BASE_URL blank', { SVC_BASE_URL: '  ' }, /SVC_BASE_URL is set but empty/],
    [
      'SVC_BASE_URL empty, the credentials set',
      { SVC_BASE_URL: '', SVC_API_KEY: MERCHANT_A.apiKey, SVC_SECRET_KEY: MERCHANT_A.secretKey, SVC_WALLET_ID: MERCHANT_A.walletId },
      /SVC_BASE_URL is set but empty/,
    ],
    [
      'SVC_API_KEY alone',
      { SVC_API_KEY: MERCHANT_A.apiKey },
      /SVC_API_KEY is set but SVC_BASE_URL is not: set SVC_BASE_URL \(or give --config with a baseUrl\)/,
    ],
    [
      'the credentials without a base URL',
      { SVC_API_KEY: MERCHANT_A.apiKey, SVC_SECRET_KEY: MERCHANT_A.secretKey, SVC_WALLET_ID: MERCHANT_A.walletId },
      /SVC_API_KEY, SVC_SECRET_KEY, SVC_WALLET_ID are set but SVC_BASE_URL is not/,
    ],
    ['SVC_ENVIRONMENT alone', { SVC_ENVIRONMENT: 'sandbox' }, /SVC_ENVIRONMENT is set but SVC_BASE_URL is not/],
    [
      'a secret empty next to a base URL',
      { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_KEY: MERCHANT_A.apiKey, SVC_SECRET_KEY: '', SVC_WALLET_ID: MERCHANT_A.walletId },
      /SVC_SECRET_KEY is set but empty/,
    ],
    [
      "the other merchant's secret alone",
      { SVC_OTHER_SECRET_KEY: MERCHANT_B.secretKey },
      /^svc-conformance run: SVC_OTHER_SECRET_KEY is set but SVC_BASE_URL is not/,
    ],
    [
      "the other environment's secret empty next to a base URL",
      { ...env('http://127.0.0.1:9'), SVC_OTHER_ENV_SECRET_KEY: '' },
      /SVC_OTHER_ENV_SECRET_KEY is set but empty/,
    ],
    [
      "the other merchant's secret without its API key",
      { ...env('http://127.0.0.1:9'), SVC_OTHER_SECRET_KEY: MERCHANT_B.secretKey },
      /^svc-conformance run: SVC_OTHER_SECRET_KEY is set, but otherMerchant has no "apiKey": set SVC_OTHER_API_KEY too, or unset it$/m,
    ],
  ])('refuses %s with one line and exit 2, before certifying anything', async (_name, env, message) => {
    const dir = tempDir();
    const result = await runCli(['run', '--report-dir', dir], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).not.toMatch(/CONFORMANT|certifying/);
    expect(readdirSync(dir)).toEqual([]);
    for (const secret of SECRETS) expect(result.stderr).not.toContain(secret);
  });

  it('takes SVC_* over a config file that names the target', async () => {
    const t = await target({}, (c) => ({ ...c, merchant: { ...c.merchant, secretKey: 'sk_test_wrong' } }));
    const result = await runCli(['run', '--config', t.config, '--only', 'AUTH-ACCEPT', '--report-dir', t.dir], {
      env: { SVC_SECRET_KEY: MERCHANT_A.secretKey },
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(status(report(t.dir), 'AUTH-ACCEPT')).toBe('passed');
  });

  it('refuses an --only that matches nothing, rather than certifying nothing', async () => {
    const t = await target();
    const result = await runCli(['run', '--config', t.config, '--only', 'AUTH_TYPO', '--report-dir', t.dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--only AUTH_TYPO leaves no requirement or check to run/);
    const all = await runCli(['run', '--config', t.config, '--only', 'DUP-', '--skip', 'DUP', '--report-dir', t.dir]);
    expect(all.stderr).toMatch(/--only DUP- with --skip DUP leaves no requirement or check to run/);
  });

  it('takes --only and --skip repeated and comma-separated, the second adding to the first', async () => {
    const t = await target();
    const result = await runCli([
      'run',
      '--config',
      t.config,
      '--only',
      'AUTH-MISSING',
      '--only',
      'DUP-SEQUENTIAL,ENV-',
      '--skip',
      'ENV-WALLET',
      '--skip',
      'AUTH-MISSING-SIGNATURE',
      '--report-dir',
      t.dir,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const judged = report(t.dir)
      .requirements.filter((r) => r.checks.length > 0)
      .map((r) => r.id)
      .sort();
    expect(judged).toEqual(['AUTH-MISSING-KEY', 'AUTH-MISSING-TIMESTAMP', 'DUP-SEQUENTIAL', 'ENV-PRODUCTION-KEY']);
    expect(result.stdout).toMatch(/only AUTH-MISSING,DUP-SEQUENTIAL,ENV-, skipping ENV-WALLET,AUTH-MISSING-SIGNATURE/);
  });

  it.each([[['--runs', '0']], [['--seed', 'abc']], [['--config', '/nonexistent/c.json']]])('refuses %j with exit 2', async (args) => {
    const result = await runCli(['run', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^svc-conformance run: /);
  });
});

describe.concurrent('svc-conformance run whose webhook receiver cannot listen', () => {
  /** A plain TCP socket holding a loopback port, as another program would. */
  async function heldPort(): Promise<number> {
    const holder = createNetServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => holder.close(() => resolve())));
    return (holder.address() as AddressInfo).port;
  }

  // A sender with two MUST faults that a listening receiver would catch: nothing of that may read as a pass.
  it.each([[[] as string[]], [['--strict']]])(
    'is inconclusive (exit 2) %j, even against a faulty sender, naming the port and the fix in every form',
    async (extra) => {
      const port = await heldPort();
      const t = await target({ faults: ['hook-no-event-id', 'hook-separate-secret'] }, (c) => ({
        ...c,
        webhooks: { listen: `127.0.0.1:${port}` },
      }));
      const result = await runCli(['run', '--config', t.config, '--only', 'HOOK-', ...extra, '--report-dir', t.dir]);
      const reason = `the kit's webhook receiver cannot listen for webhooks on 127.0.0.1:${port}: the port is in use; choose another webhooks.listen`;
      expect(result.code, result.stdout + result.stderr).toBe(2);
      expect(result.stdout).toMatch(/only HOOK-/);
      expect(result.stdout).toMatch(/\n\? INCONCLUSIVE \(could not judge\) {2}http:\/\/127\.0\.0\.1:\d+ \(sandbox\)\n/);
      expect(result.stdout).toContain(`\n  ! could not judge: ${reason}\n`);
      expect(result.stderr).toBe(`svc-conformance run: inconclusive: ${reason}\n`);
      const r = report(t.dir);
      expect(r).toMatchObject({ verdict: 'inconclusive', reasons: [reason], summary: { passed: 0, failed: 0 }, coverage: { judged: 0 } });
      expect(r.requirements.map((q) => `${q.id} ${q.status}`)).toEqual(
        [
          'HOOK-EVENTS-FIRED',
          'HOOK-DELIVERY-HEADERS',
          'HOOK-CANONICAL-BODY',
          'HOOK-SIGNATURE',
          'HOOK-FRESH-TIMESTAMP',
          'HOOK-EVENT-SHAPE',
          'HOOK-RETRY',
          'HOOK-AGREES-WITH-STATUS',
        ].map((id) => `${id} skipped`),
      );
      const junit = readFileSync(join(t.dir, 'junit.xml'), 'utf8');
      expect(junit).toMatch(/<testsuites [^>]*failures="0" errors="1"/);
      const xmlReason = reason.replaceAll("'", '&apos;');
      expect(junit).toContain(
        `<testcase classname="Verdict" name="the run could judge the target" time="0.000">\n      <error type="inconclusive" message="inconclusive: ${xmlReason}">${reason}</error>`,
      );
      expect(readFileSync(join(t.dir, 'report.html'), 'utf8')).toContain(
        `<h1>Inconclusive</h1><p class="why">The run could not judge the target: ${reason.replaceAll("'", '&#39;')}.`,
      );
    },
  );
});
