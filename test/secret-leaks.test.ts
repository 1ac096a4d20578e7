import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBinAsync, runCli } from './cli-harness.js';
import { scratchProject } from './scratch-project.js';

/**
 * A hostile target on loopback echoes, in every answer, the secret in hex, base64 and base64url, the
 * signature it received in upper case, a Basic credential and a URL with userinfo. None of it may
 * reach the console or any report, in any of those forms.
 */
const SECRET = 'sk_test_hostile_5eCr3t_0123456789';
const API_KEY = 'pk_test_hostile_0001';
const PASSWORD = 'hunter2-in-the-url';
// The other merchant's and the other environment's secrets (P-CFG v1.3: SVC_OTHER_SECRET_KEY, SVC_OTHER_ENV_SECRET_KEY).
const OTHER_SECRET = 'sk_test_hostile_other_0th3r_98765';
const OTHER_ENV_SECRET = 'sk_live_hostile_env_3nv_24680';
const received: string[] = [];
/** Requests signed with the other merchant's secret (the hostile server knows it, to tell). */
let signedByOther = 0;
let server: Server;
let port = 0;

/** Every form the hostile server echoes a secret in. */
function echoed(secret: string, apiKey: string): Record<string, string> {
  return {
    hex: Buffer.from(secret).toString('hex').toUpperCase(),
    b64: Buffer.from(secret).toString('base64'),
    b64url: Buffer.from(`\u00ff${secret}`).toString('base64url'),
    auth: `Basic ${Buffer.from(`${apiKey}:${secret}`).toString('base64')}`,
    urlEncoded: encodeURIComponent(`${secret}&`),
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const signature = String(req.headers['x-signature'] ?? '');
    if (signature) received.push(signature);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const timestamp = String(req.headers['x-timestamp'] ?? '');
      if (
        signature ===
        createHmac('sha256', OTHER_SECRET)
          .update(body + timestamp)
          .digest('hex')
      )
        signedByOther++;
      res.writeHead(400, { 'content-type': 'application/json', 'x-echo': signature.toUpperCase() });
      res.end(
        JSON.stringify({
          code: 400,
          message: `bad signature ${signature.toUpperCase()}; key hex ${Buffer.from(SECRET).toString('hex').toUpperCase()}`,
          b64: Buffer.from(SECRET).toString('base64'),
          b64url: Buffer.from(`\u00ff${SECRET}`).toString('base64url'),
          auth: `Basic ${Buffer.from(`${API_KEY}:${SECRET}`).toString('base64')}`,
          mirror: `http://admin:${PASSWORD}@127.0.0.1:${port}/`,
          urlEncoded: encodeURIComponent(`${SECRET}&`),
          other: { secret: OTHER_SECRET, ...echoed(OTHER_SECRET, 'pk_test_hostile_other') },
          otherEnvironment: { secret: OTHER_ENV_SECRET.toUpperCase(), ...echoed(OTHER_ENV_SECRET, 'pk_live_hostile_env') },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Every form of a leaked secret, password or signature, lower-cased for a case-blind search. */
function leakedForms(secrets: readonly string[]): string[] {
  const forms = [PASSWORD];
  for (const secret of secrets)
    forms.push(
      secret,
      Buffer.from(secret).toString('hex'),
      Buffer.from(secret).toString('base64').slice(0, 24),
      Buffer.from(secret).toString('base64url').slice(0, 24),
      encodeURIComponent(secret),
    );
  forms.push(Buffer.from(`${API_KEY}:${SECRET}`).toString('base64').slice(0, 24));
  return [...forms, ...received].map((f) => f.toLowerCase());
}

function expectNoLeak(outputs: Record<string, string>, secrets: readonly string[] = [SECRET]): void {
  expect(received.length).toBeGreaterThan(0);
  for (const [where, text] of Object.entries(outputs)) {
    const lower = text.toLowerCase();
    for (const form of leakedForms(secrets)) expect(lower.includes(form), `${where} holds ${form}`).toBe(false);
  }
}

describe('secrets in other forms never leak', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-leaks-'));
  const config = () => {
    const path = join(dir, 'hostile.json');
    writeFileSync(
      path,
      JSON.stringify({
        baseUrl: `http://admin:${PASSWORD}@127.0.0.1:${port}`,
        environment: 'sandbox',
        merchant: { apiKey: API_KEY, secretKey: SECRET, walletId: 'WAL-1' },
      }),
    );
    return path;
  };

  it('run: not on the console, not in report.json, junit.xml or report.html', async () => {
    const result = await runBinAsync(['run', '--config', config(), '--only', 'AUTH-', '--seed', '7', '--report-dir', join(dir, 'r')], {
      cwd: dir,
    });
    expect(result.code).toBe(1);
    const file = (name: string) => readFileSync(join(dir, 'r', name), 'utf8');
    expect(file('report.json')).toContain('[redacted:secret]');
    expectNoLeak({
      stdout: result.stdout,
      stderr: result.stderr,
      'report.json': file('report.json'),
      'junit.xml': file('junit.xml'),
      'report.html': file('report.html'),
    });
  });

  // P-CFG v1.3: every secret may come from the environment alone, the config file holding none.
  it('run: the secrets given only as SVC_SECRET_KEY, SVC_OTHER_SECRET_KEY and SVC_OTHER_ENV_SECRET_KEY, in no report, console or HAR', async () => {
    const path = join(dir, 'no-secrets.json');
    writeFileSync(
      path,
      JSON.stringify({
        baseUrl: `http://admin:${PASSWORD}@127.0.0.1:${port}`,
        environment: 'sandbox',
        merchant: { apiKey: API_KEY, walletId: 'WAL-1' },
        otherMerchant: { apiKey: 'pk_test_hostile_other', walletId: 'WAL-OTHER' },
      }),
    );
    expect(readFileSync(path, 'utf8')).not.toMatch(/sk_/);
    const before = signedByOther;
    const result = await runBinAsync(
      [
        'run',
        '--config',
        path,
        '--only',
        'AUTH-,ENV-',
        '--seed',
        '7',
        '--report-dir',
        join(dir, 'env'),
        '--har',
        join(dir, 'env', 'x.har'),
      ],
      {
        cwd: dir,
        env: {
          SVC_SECRET_KEY: SECRET,
          SVC_OTHER_SECRET_KEY: OTHER_SECRET,
          SVC_OTHER_ENV_API_KEY: 'pk_live_hostile_env',
          SVC_OTHER_ENV_SECRET_KEY: OTHER_ENV_SECRET,
          SVC_OTHER_ENV_WALLET_ID: 'WAL-LIVE',
        },
      },
    );
    // Whether a target that refuses everything fails or leaves the run inconclusive is another test's matter.
    expect([1, 2], result.stderr).toContain(result.code);
    // The variables were read: a request went out signed with the other merchant's secret, and the
    // report's configuration holds each secret, redacted.
    expect(signedByOther).toBeGreaterThan(before);
    const file = (name: string) => readFileSync(join(dir, 'env', name), 'utf8');
    const report = JSON.parse(file('report.json')) as { certification: { config: { redacted: Record<string, Record<string, string>> } } };
    expect(report.certification.config.redacted).toMatchObject({
      merchant: { secretKey: '[redacted]' },
      otherMerchant: { secretKey: '[redacted]' },
      otherEnvironment: { secretKey: '[redacted]', apiKey: 'pk_live_hostile_env' },
    });
    expect(file('report.json')).toContain('[redacted:secret]');
    expectNoLeak(
      {
        stdout: result.stdout,
        stderr: result.stderr,
        'report.json': file('report.json'),
        'junit.xml': file('junit.xml'),
        'report.html': file('report.html'),
        'x.har': file('x.har'),
      },
      [SECRET, OTHER_SECRET, OTHER_ENV_SECRET],
    );
  });

  it('replay: not in what it prints', async () => {
    const result = await runBinAsync(
      ['replay', '--config', config(), '--path', '/api/v3/pg/order/create', '--body', '{"order_id":"A-1"}'],
      { cwd: dir },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('[redacted:signature]');
    expectNoLeak({ stdout: result.stdout, stderr: result.stderr });
  });

  it('verify-client: not in the relayed output of a client that prints and sends the secret in other forms, nor in the reports', async () => {
    const client = join(dir, 'leaky-client.mjs');
    const secretFile = join(dir, 'secret-of-the-run');
    writeFileSync(
      client,
      `
      const secret = process.env.SVC_SECRET_KEY, key = process.env.SVC_API_KEY;
      (await import('node:fs')).writeFileSync(${JSON.stringify(secretFile)}, secret);
      const basic = 'Basic ' + Buffer.from(key + ':' + secret).toString('base64');
      console.log('api key', key);
      console.log('secret hex', Buffer.from(secret).toString('hex').toUpperCase());
      console.error('secret b64', Buffer.from(secret).toString('base64'), basic);
      await fetch(process.env.SVC_BASE_URL + '/api/v3/pg/order/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basic, 'x-api-key': key, 'x-debug': Buffer.from(secret).toString('hex') },
        body: JSON.stringify({ debug: Buffer.from(secret).toString('base64url') }),
      });
      process.stdout.write('last line without a newline: ' + encodeURIComponent(secret));
    `,
    );
    const result = await runBinAsync(['verify-client', '--report-dir', join(dir, 'vc'), '--', process.execPath, client], { cwd: dir });
    const file = (name: string) => readFileSync(join(dir, 'vc', name), 'utf8');
    // The client's keys are made for the run: the secret it was given is the one that must not show.
    const secret = readFileSync(secretFile, 'utf8');
    expect(secret).toMatch(/^sk_test_run_/);
    const apiKey = /│ api key (\S+)/.exec(result.stdout)?.[1] ?? '';
    const forms = [
      secret,
      Buffer.from(secret).toString('hex'),
      Buffer.from(secret).toString('base64').slice(0, 24),
      Buffer.from(secret).toString('base64url').slice(0, 24),
      Buffer.from(`${apiKey}:${secret}`).toString('base64').slice(0, 24),
    ];
    expect(result.stdout + result.stderr).toContain('[redacted:secret]');
    for (const [where, text] of Object.entries({
      stdout: result.stdout,
      stderr: result.stderr,
      'report.json': file('report.json'),
      'junit.xml': file('junit.xml'),
      'report.html': file('report.html'),
    })) {
      for (const form of forms) expect(text.toLowerCase().includes(form.toLowerCase()), `${where} holds ${form}`).toBe(false);
    }
  });

  it("verify-client: the job's SVC_OTHER_* secrets are not the client's: it runs without them", async () => {
    const client = join(dir, 'env-printing-client.mjs');
    writeFileSync(
      client,
      `for (const name of ['SVC_OTHER_SECRET_KEY', 'SVC_OTHER_ENV_SECRET_KEY', 'SVC_OTHER_API_KEY']) console.log(name, process.env[name] ?? 'unset');`,
    );
    const result = await runBinAsync(['verify-client', '--report-dir', join(dir, 'vc-env'), '--', process.execPath, client], {
      cwd: dir,
      env: { SVC_OTHER_SECRET_KEY: OTHER_SECRET, SVC_OTHER_ENV_SECRET_KEY: OTHER_ENV_SECRET, SVC_OTHER_API_KEY: 'pk_test_hostile_other' },
    });
    expect(result.stdout).toContain('│ SVC_OTHER_SECRET_KEY unset');
    expect(result.stdout).toContain('│ SVC_OTHER_ENV_SECRET_KEY unset');
    expect(result.stdout).toContain('│ SVC_OTHER_API_KEY unset');
    for (const secret of [OTHER_SECRET, OTHER_ENV_SECRET]) expect(result.stdout + result.stderr).not.toContain(secret);
  });

  // A team's check is code the kit cannot vet: what it throws (message, stack, a failure's expected and
  // actual, a skip's reason) may hold the secret it was handed, and is kept only as the redactor leaves it.
  it('run: not from what a team check throws, nor from a team module that fails to load', async () => {
    const project = scratchProject({
      'chk.mjs': `
        import { defineCheck, defineRequirement, expectThat, CheckSkipped } from 'svc-conformance';
        const forms = (s) => s + ' ' + Buffer.from(s).toString('base64') + ' ' + Buffer.from(s).toString('hex');
        export const requirements = [
          defineRequirement({ id: 'ACME-THROWS', title: 'a check whose code throws', level: 'MUST', section: 'Acme' }),
          defineRequirement({ id: 'ACME-FAILS', title: 'a check that fails', level: 'MUST', section: 'Acme' }),
          defineRequirement({ id: 'ACME-SKIPS', title: 'a check that skips', level: 'MUST', section: 'Acme' }),
        ];
        export const checks = [
          defineCheck({ id: 'acme-throws', requirement: 'ACME-THROWS', title: 'throws', async run(ctx) {
            await ctx.send({ label: 'any', method: 'POST', path: '/api/v3/pg/order/create', payload: {} });
            throw new TypeError('bad ' + forms(ctx.config.merchant.secretKey));
          } }),
          defineCheck({ id: 'acme-fails', requirement: 'ACME-FAILS', title: 'fails', async run(ctx) {
            const s = ctx.config.merchant.secretKey;
            expectThat(false, 'not ' + forms(s), { expected: forms(s), actual: forms(s), reproduce: 'curl ' + forms(s) });
          } }),
          defineCheck({ id: 'acme-skips', requirement: 'ACME-SKIPS', title: 'skips', async run(ctx) {
            throw new CheckSkipped('cannot ' + forms(ctx.config.merchant.secretKey));
          } }),
        ];
      `,
      'top.mjs': `throw new Error('boom with ' + ${JSON.stringify(SECRET)} + ' ' + ${JSON.stringify(Buffer.from(SECRET).toString('base64'))});`,
    });
    const target = (module: string) => {
      const path = join(project, `target-${module}.json`);
      writeFileSync(
        path,
        JSON.stringify({
          baseUrl: `http://127.0.0.1:${port}`,
          environment: 'sandbox',
          merchant: { apiKey: API_KEY, secretKey: SECRET, walletId: 'WAL-1' },
          checks: [`./${module}.mjs`],
        }),
      );
      return path;
    };
    const ran = await runCli(['run', '--config', target('chk'), '--only', 'ACME', '--seed', '7', '--report-dir', 'o'], { cwd: project });
    expect(ran.code, ran.stderr).toBe(1); // ACME-FAILS, a MUST, failed
    const file = (name: string) => readFileSync(join(project, 'o', name), 'utf8');
    expect(file('report.json')).toContain('[redacted:secret]');
    expectNoLeak({
      stdout: ran.stdout,
      stderr: ran.stderr,
      'report.json': file('report.json'),
      'junit.xml': file('junit.xml'),
      'report.html': file('report.html'),
    });

    const loaded = await runCli(['run', '--config', target('top'), '--report-dir', 'o2'], { cwd: project });
    expect(loaded.code).toBe(2);
    expect(loaded.stderr).toMatch(/top\.mjs could not be loaded: boom with \[redacted:secret\]/);
    expectNoLeak({ stdout: loaded.stdout, stderr: loaded.stderr });
  });
  // What a team's check hands ctx.send (a label, a timestamp, texts to sign, made-up keys) and what it
  // throws in other letter case or as objects: the run goes on, and none of it shows the secret.
  it("run: not from a team check's send options, an upper-cased message, or details given as objects (which do not crash the run)", async () => {
    const project = scratchProject({
      'leak.mjs': `
        import { defineCheck, defineRequirement, expectThat } from 'svc-conformance';
        export const requirements = [
          defineRequirement({ id: 'LEAK-SEND', title: 'a request whose label and signing hold the secret', level: 'MUST', section: 'Leak' }),
          defineRequirement({ id: 'LEAK-UPPER', title: 'a message upper-cased', level: 'MUST', section: 'Leak' }),
          defineRequirement({ id: 'LEAK-OBJECTS', title: 'details given as objects', level: 'MUST', section: 'Leak' }),
        ];
        export const checks = [
          defineCheck({ id: 'leak-send', requirement: 'LEAK-SEND', title: 'send', async run(ctx) {
            const s = ctx.config.merchant.secretKey;
            await ctx.send({ label: 'made-up keys', path: '/api/v3/pg/order/create', payload: {}, as: { apiKey: 'pk_made_up', secretKey: s.toUpperCase() } });
            await ctx.send({ label: 'signed ' + s, path: '/api/v3/pg/order/create', payload: {}, signedTimestamp: s.toUpperCase(), signedBody: 'body ' + s });
            const x = await ctx.send({ label: 'order with ' + s, path: '/api/v3/pg/order/create', payload: {}, timestamp: s });
            expectThat(false, 'refused', { exchange: x });
          } }),
          defineCheck({ id: 'leak-upper', requirement: 'LEAK-UPPER', title: 'upper', async run(ctx) {
            throw new Error(ctx.config.merchant.secretKey.toUpperCase());
          } }),
          defineCheck({ id: 'leak-objects', requirement: 'LEAK-OBJECTS', title: 'objects', async run(ctx) {
            expectThat(false, 'x', { expected: { k: 1, s: ctx.config.merchant.secretKey }, actual: [1] });
          } }),
        ];
      `,
      'tc.json': JSON.stringify({
        baseUrl: `http://127.0.0.1:${port}`,
        environment: 'sandbox',
        merchant: { apiKey: API_KEY, secretKey: SECRET, walletId: 'WAL-1' },
        checks: ['./leak.mjs'],
      }),
    });
    const ran = await runCli(
      ['run', '--config', 'tc.json', '--only', 'LEAK-', '--seed', '7', '--report-dir', 'out', '--har', 'out/x.har'],
      { cwd: project },
    );
    expect(ran.stderr).not.toMatch(/internal error/);
    expect(ran.code, ran.stderr).toBe(1); // MUSTs failed (a failure outranks the team check that threw)
    const file = (name: string) => readFileSync(join(project, 'out', name), 'utf8');
    const report = JSON.parse(file('report.json')) as {
      requirements: Array<{ id: string; status: string; evidence: Array<{ expected?: string; actual?: string; label?: string }> }>;
    };
    // Objects where texts belong are kept as their JSON, redacted.
    expect(report.requirements.find((r) => r.id === 'LEAK-OBJECTS')).toMatchObject({
      status: 'failed',
      evidence: [{ expected: '{"k":1,"s":"[redacted:secret]"}', actual: '[1]' }],
    });
    expect(file('report.json')).toContain('order with [redacted:secret]');
    expect(file('x.har')).toContain('order with [redacted:secret]');
    expectNoLeak({
      stdout: ran.stdout,
      stderr: ran.stderr,
      'report.json': file('report.json'),
      'junit.xml': file('junit.xml'),
      'report.html': file('report.html'),
      'x.har': file('x.har'),
    });
  });
});
