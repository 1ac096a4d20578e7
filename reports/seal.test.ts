// The certification package: a report sealed with its digest, which finds any one byte changed by
// accident (not who changed it: test/verify-report.test.ts shows signatures), with the
// configuration's secrets removed before it is fingerprinted, and verify-report's exit codes. The
// report is a real one: a short run against the reference sandbox.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MERCHANT_A, MERCHANT_A_LIVE, MERCHANT_B } from '../sandbox/tenants.js';
import { runCli } from '../test/cli-harness.js';
import { checkSeal, configFingerprint } from './seal.js';

let dir = '';
let text = '';
let stdout = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-seal-'));
  const run = await runCli(['run', '--only', 'AUTH-MISSING-SIGNATURE,ORDER-UNICODE-NAMES', '--seed', '7', '--report-dir', dir]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  text = readFileSync(join(dir, 'report.json'), 'utf8');
  stdout = run.stdout;
}, 60_000);

describe('the run behind it', () => {
  it('counts in the right number ("1 check") and gives JUnit the time its checks took', () => {
    expect(stdout).toMatch(/Authentication\s+1 check : 1 passed/);
    expect(stdout).not.toMatch(/\b1 checks\b/);
    const times = [
      ...readFileSync(join(dir, 'junit.xml'), 'utf8').matchAll(
        /<testcase [^>]*name="(AUTH-MISSING-SIGNATURE|ORDER-UNICODE-NAMES)[^"]*" time="([\d.]+)"/g,
      ),
    ].map((m) => Number(m[2]));
    expect(times).toHaveLength(2);
    for (const t of times) expect(t).toBeGreaterThan(0);
  });
});

describe('a sealed report', () => {
  it('carries the kit, profile and catalog versions, the configuration fingerprint without secrets, the options and the digest', () => {
    const report = JSON.parse(text);
    expect(report.tool).toEqual({ name: 'svc-conformance', version: expect.any(String) });
    expect(report.certification.profile).toBe('v1.3');
    expect(report.certification.catalogs).toEqual([
      { file: 'suites/catalog.json', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
    ]);
    expect(report.certification.config.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(report.certification.config.redacted.merchant.secretKey).toBe('[redacted]');
    expect(report.certification.options).toMatchObject({
      seed: 7,
      runs: 20,
      strict: false,
      only: ['AUTH-MISSING-SIGNATURE', 'ORDER-UNICODE-NAMES'],
    });
    expect(report.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    for (const secret of [MERCHANT_A.secretKey, MERCHANT_B.secretKey, MERCHANT_A_LIVE.secretKey]) expect(text).not.toContain(secret);
    expect(checkSeal(text)).toMatchObject({ intact: true });
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain(`<property name="digest" value="${report.digest}"/>`);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain(report.digest);
    expect(html).toContain('<th>Reviewed by</th>');
  });

  it('is found altered when any one byte changes, wherever it is', () => {
    const bytes = Buffer.from(text, 'utf8');
    // Every byte of the file, each changed in turn (one bit or the case bit).
    const positions = Array.from({ length: bytes.length }, (_, i) => i);
    const missed = positions.filter((at) => {
      const altered = Buffer.from(bytes);
      altered[at] = altered[at]! ^ (at % 2 === 0 ? 0x01 : 0x20);
      return checkSeal(altered.toString('utf8')).intact;
    });
    expect(positions.length).toBeGreaterThan(2000);
    expect(missed).toEqual([]);
  });

  it('says why: content against digest, layout, no digest, not JSON', () => {
    expect(checkSeal(text.replace('"verdict": "conformant"', '"verdict": "not conformant"'))).toMatchObject({
      intact: false,
      why: expect.stringMatching(/does not match its digest/),
    });
    expect(checkSeal(text.replace(/\n {2}"seed"/, '\n   "seed"'))).toMatchObject({
      intact: false,
      why: expect.stringMatching(/bytes are not as the kit wrote them/),
    });
    const { digest: _digest, ...unsealed } = JSON.parse(text);
    expect(checkSeal(JSON.stringify(unsealed))).toMatchObject({ intact: false, why: expect.stringMatching(/has no digest/) });
    expect(checkSeal('<testsuites/>')).toMatchObject({ intact: false, why: expect.stringMatching(/not JSON/) });
  });

  it('fingerprints a configuration by its content, not its secrets', () => {
    const config = { baseUrl: 'https://pay.example.test', merchant: { apiKey: 'pk_test_1', secretKey: 'sk_test_one', walletId: 'W1' } };
    const other = { ...config, merchant: { ...config.merchant, secretKey: 'sk_test_two' } };
    expect(configFingerprint(config).fingerprint).toBe(configFingerprint(other).fingerprint);
    expect(configFingerprint({ ...config, baseUrl: 'https://pay2.example.test' }).fingerprint).not.toBe(
      configFingerprint(config).fingerprint,
    );
    expect(JSON.stringify(configFingerprint(config))).not.toContain('sk_test_one');
  });

  it("shows a driver's command only as its digest: it may carry a password or a token of its own", () => {
    const settle = 'PGPASSWORD=hunter2pass psql -c "select 1"';
    const config = {
      baseUrl: 'https://pay.example.test',
      drivers: { settlePayout: settle, payOrder: 'curl -u admin:pw123456 "$PAYMENT_LINK"' },
    };
    const shown = configFingerprint(config);
    expect(JSON.stringify(shown)).not.toMatch(/hunter2pass|pw123456|psql|curl/);
    expect(shown.redacted.drivers).toEqual({
      settlePayout: expect.stringMatching(/^\[a command, sha256:[0-9a-f]{64}\]$/),
      payOrder: expect.any(String),
    });
    const other = configFingerprint({ ...config, drivers: { ...config.drivers, settlePayout: `${settle} ` } });
    expect(other.fingerprint).not.toBe(shown.fingerprint);
  });
});

describe('svc-conformance verify-report', () => {
  it('--allow-unsigned: 0 for a report whose digest matches (file or folder), saying it is unsigned; 1 for an altered one, 2 for no file', async () => {
    const intact = await runCli(['verify-report', join(dir, 'report.json'), '--allow-unsigned']);
    expect(intact.code).toBe(0);
    expect(intact.stdout).toMatch(
      /^✓ DIGEST MATCHES {2}\S+report\.json: sha256:[0-9a-f]{64}\n {2}svc-conformance \S+, profile v1\.3; conformant, partial: 2 of \d+ requirements judged \(the kit's own embedded reference sandbox, not a deployment, http:\/\/127\.0\.0\.1:\d+, sandbox\), started /,
    );
    expect(intact.stdout).toContain(
      '! UNSIGNED  no report.json.sig beside it: a digest finds an accidental change, not who wrote the report',
    );
    expect((await runCli(['verify-report', dir, '--allow-unsigned'])).code).toBe(0);
    // No key and no --allow-unsigned: nothing is checked, exit 2 (a gate that passes unsigned reports is asked for by name).
    expect(await runCli(['verify-report', dir])).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/--allow-unsigned/) });

    const altered = join(mkdtempSync(join(tmpdir(), 'svc-seal-')), 'report.json');
    writeFileSync(altered, text.replace('"passed": 2', '"passed": 3'));
    const result = await runCli(['verify-report', altered, '--allow-unsigned']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^✗ ALTERED {2}\S+: its content does not match its digest/);

    expect(await runCli(['verify-report', join(dir, 'nothing.json'), '--allow-unsigned'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^svc-conformance verify-report: no such file /),
    });
    expect(await runCli(['verify-report'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/give one report\.json/) });
  });
});
