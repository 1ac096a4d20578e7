// verify-client against the example clients: the conforming ones pass under every scenario, and each
// broken one fails exactly the rule it breaks. Each row is a real run of the built command.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../reports/model.js';
import { SCENARIO_NAMES } from '../sandbox/index.js';
import { runBinAsync, runCli } from './cli-harness.js';

const ROOT = new URL('..', import.meta.url).pathname;

async function verify(client: string[], scenarios: readonly string[] = [], strict = true): Promise<{ code: number; report: Report; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-client-'));
  const args = ['verify-client', ...scenarios.flatMap((s) => ['--scenario', s]), ...(strict ? ['--strict'] : []), '--report-dir', dir, '--', ...client];
  const result = await runBinAsync(args, { cwd: ROOT, timeoutMs: 90_000 });
  return { code: result.code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report, output: result.stdout + result.stderr };
}

function failed(report: Report): string[] {
  return report.requirements.filter((r) => r.status === 'failed').map((r) => r.id).sort();
}

const GOOD_CLIENTS: Array<[string, string[]]> = [
  ['node', ['node', 'examples/good-client.mjs']],
  ['python', ['python3', 'examples/good_client.py']],
];

describe('verify-client on the conforming example clients', () => {
  it.each(GOOD_CLIENTS.flatMap(([lang, cmd]) => [[], ...SCENARIO_NAMES.map((s) => [s])].map((scenarios) => [lang, scenarios.join(' + ') || 'no scenario', cmd, scenarios] as const)))(
    'the %s client passes with %s, even under --strict',
    async (_lang, _name, cmd, scenarios) => {
      const { code, report, output } = await verify(cmd, scenarios);
      expect(failed(report), output).toEqual([]);
      expect(code, output).toBe(0);
      expect(report.client?.requests).toBeGreaterThanOrEqual(5);
    },
  );

  it('the node client passes with all scenarios at once', async () => {
    const { code, report, output } = await verify(GOOD_CLIENTS[0]![1], SCENARIO_NAMES);
    expect(failed(report), output).toEqual([]);
    expect(code).toBe(0);
    expect(report.requirements.find((r) => r.id === 'CLIENT-RETRY-AFTER-STATUS')?.status).toBe('passed');
  });
});

describe('verify-client on the broken example clients', () => {
  it.each<[string, string[], string[], string[], RegExp]>([
    ['a PHP-style body (\\/ and \\u00e9, keys unsorted)', ['node', 'examples/php-style-client.mjs'], [], ['CLIENT-CANONICAL-BODY'], /unsorted-keys \+ escaped-slashes \+ escaped-unicode/],
    ['millisecond timestamps', ['python3', 'examples/millisecond-client.py'], [], ['CLIENT-TIMESTAMP-SECONDS'], /is in milliseconds/],
    ['an instant retry after a 503', ['node', 'examples/instant-retry-client.mjs'], ['create-order-503-once'], ['CLIENT-RETRY-AFTER-STATUS'], /answered 503; request #2 repeats it without asking Order Status/],
    ['a reused order id', ['node', 'examples/reused-order-id-client.mjs'], [], ['CLIENT-FRESH-ORDER-ID'], /for a new order, already used by request #1/],
    ['no wait after a 429 (a SHOULD, failing under --strict)', ['node', 'examples/no-backoff-client.mjs'], ['create-order-429-once'], ['CLIENT-BACKOFF-429'], /after the 429 of request #1, which said Retry-After: 1/],
  ])('fails %s on exactly its rule, with the evidence', async (_name, cmd, scenarios, rules, message) => {
    const { code, report, output } = await verify(cmd, scenarios);
    expect(code).toBe(1);
    expect(failed(report)).toEqual(rules);
    const broken = report.requirements.find((r) => r.id === rules[0])!;
    expect(broken.evidence[0]!.message).toMatch(message);
    expect(broken.evidence[0]!.exchanges.length).toBeGreaterThan(0);
    expect(output).toMatch(new RegExp(`✗ NOT CONFORMANT`));
    expect(JSON.stringify(report)).not.toMatch(/sk_test_demo_merchant_a_secret/);
  });

  it('passes the no-backoff client without --strict: a broken SHOULD only warns', async () => {
    const { code, report } = await verify(['node', 'examples/no-backoff-client.mjs'], ['create-order-429-once'], false);
    expect(code).toBe(0);
    expect(report.summary).toMatchObject({ failed: 0, warned: 1 });
  });
});

describe('verify-client usage', () => {
  it('stops a client that outlives --timeout, and whatever it started, and still judges what it sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-client-'));
    const started = Date.now();
    // A conforming flow, then a hang in the foreground and a sleeper left in the background.
    const result = await runBinAsync(['verify-client', '--timeout', '8', '--report-dir', dir, '--', 'sh', '-c', 'node examples/good-client.mjs; sleep 25 & sleep 25'], { cwd: ROOT, timeoutMs: 60_000 });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.stdout).toMatch(/note: the client did not finish within 8 s and was stopped; its requests until then are judged/);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(failed(report)).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('redacts the secret from what the client prints, and reports its exit status without judging it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-client-'));
    const result = await runBinAsync(['verify-client', '--timeout', '20', '--report-dir', dir, '--', 'sh', '-c', 'echo "key is $SVC_SECRET_KEY"; node examples/good-client.mjs; exit 3'], { cwd: ROOT, timeoutMs: 60_000 });
    expect(result.stdout).toMatch(/│ key is \[redacted:secret\]/);
    expect(result.stdout).not.toMatch(/sk_test_demo_merchant_a_secret/);
    expect(result.stdout).toMatch(/note: the client exited with status 3/);
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).client.exitCode).toBe(3);
  });

  it('fails a client that sends nothing', async () => {
    const { code, report } = await verify(['node', '-e', 'process.exit(0)']);
    expect(code).toBe(1);
    expect(report.error).toBe('the client sent no request to SVC_BASE_URL');
  });

  it.each<[string[], RegExp]>([
    [['verify-client'], /give the client command after --/],
    [['verify-client', '--', 'no-such-program-svc'], /cannot start `no-such-program-svc`: no such program/],
    [['verify-client', '--scenario', 'nope', '--', 'node'], /unknown scenario "nope"/],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
