// verify-client against the example clients: the conforming ones pass under every scenario, and each
// broken one fails exactly the rule it breaks. Each row is a real run of the built command.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../core/report.js';
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

/** The legitimate corpus: between them, every choice the profile allows a client (examples/README.md). */
const GOOD_CLIENTS: Array<[name: string, runtime: string, command: () => string[]]> = [
  ['node (numbers, string ids, keep-alive)', 'node', () => ['node', 'examples/good-client.mjs']],
  ['python (decimal strings, a connection per request)', 'python3', () => ['python3', 'examples/good_client.py']],
  ['php (decimal strings, integer ids, lower-case headers, optional fields absent)', 'php', () => ['php', 'examples/good_client.php']],
  ['go (keep-alive, two requests in flight, number and string amounts, U+2028)', 'go', () => [goClient]],
];
const SCENARIO_ROWS: string[][] = [[], ...SCENARIO_NAMES.map((s) => [s])];
const present = (command: string) => spawnSync(command, command === 'go' ? ['version'] : ['--version'], { stdio: 'ignore' }).status === 0;

let goClient = '';
const matrix: Array<{ client: string; scenario: string; verdict: string }> = [];

beforeAll(() => {
  if (!present('go')) return;
  // Built once: `go run` would compile it again for every row.
  const dir = mkdtempSync(join(tmpdir(), 'svc-go-client-'));
  goClient = join(dir, 'good_client');
  const goHome = join(tmpdir(), 'svc-go');
  const built = spawnSync('go', ['build', '-o', goClient, 'examples/good_client.go'], {
    cwd: ROOT, encoding: 'utf8', env: { GOCACHE: join(goHome, 'cache'), GOPATH: join(goHome, 'path'), ...process.env },
  });
  if (built.status !== 0) throw new Error(`go build examples/good_client.go failed:\n${built.stderr}`);
}, 120_000);

afterAll(() => {
  if (matrix.length === 0) return;
  const scenarios = SCENARIO_ROWS.map((s) => s[0] ?? 'no scenario');
  const width = Math.max(...GOOD_CLIENTS.map(([name]) => name.split(' ')[0]!.length)) + 2;
  const cell = (client: string, scenario: string) => matrix.find((m) => m.client === client && m.scenario === scenario)?.verdict ?? 'skipped';
  const columns = scenarios.map((s) => Math.max(s.length, ...matrix.filter((m) => m.scenario === s).map((m) => m.verdict.length)) + 2);
  const row = (first: string, cells: string[]) => first.padEnd(width) + cells.map((c, i) => c.padEnd(columns[i]!)).join('');
  const lines = GOOD_CLIENTS.map(([name]) => name.split(' ')[0]!).map((client) => row(client, scenarios.map((s) => cell(client, s))));
  process.stdout.write(`\nClient corpus (verify-client --strict): ${matrix.filter((m) => m.verdict === '✓ CONFORMANT').length}/${matrix.length} conformant\n${row('', scenarios)}\n${lines.join('\n')}\n`);
});

describe.concurrent('verify-client on the legitimate client corpus: CONFORMANT under every scenario, with --strict', () => {
  for (const [name, runtime, command] of GOOD_CLIENTS) {
    for (const scenarios of SCENARIO_ROWS) {
      // A runtime missing here (.ci/run installs php and go) reports the row skipped, never passed.
      it.skipIf(!present(runtime))(`${name} with ${scenarios[0] ?? 'no scenario'}`, async () => {
        const { code, report, output } = await verify(command(), scenarios);
        matrix.push({ client: name.split(' ')[0]!, scenario: scenarios[0] ?? 'no scenario', verdict: code === 0 && failed(report).length === 0 ? '✓ CONFORMANT' : `✗ ${failed(report).join(',')}` });
        expect(failed(report), output).toEqual([]);
        expect(code, output).toBe(0);
        expect(report.client?.requests).toBeGreaterThanOrEqual(5);
      }, 90_000);
    }
  }

  it('the node client passes with all scenarios at once', async () => {
    const { code, report, output } = await verify(['node', 'examples/good-client.mjs'], SCENARIO_NAMES);
    expect(failed(report), output).toEqual([]);
    expect(code).toBe(0);
    expect(report.requirements.find((r) => r.id === 'CLIENT-RETRY-AFTER-STATUS')?.status).toBe('passed');
  }, 90_000);
});

describe('verify-client on the broken example clients', () => {
  it.each<[string, string[], string[], string[], RegExp]>([
    ['a PHP-style body (\\/ and \\u00e9, keys unsorted)', ['node', 'examples/php-style-client.mjs'], [], ['CLIENT-CANONICAL-BODY'], /unsorted-keys \+ escaped-slashes \+ escaped-unicode/],
    ['millisecond timestamps', ['python3', 'examples/millisecond-client.py'], [], ['CLIENT-TIMESTAMP-SECONDS'], /is in milliseconds/],
    ['an instant retry after a 503', ['node', 'examples/instant-retry-client.mjs'], ['create-order-503-once'], ['CLIENT-RETRY-AFTER-STATUS'], /answered 503; request #2 repeats it without asking Order Status/],
    ['a reused order id', ['node', 'examples/reused-order-id-client.mjs'], [], ['CLIENT-FRESH-ORDER-ID'], /for a new order, already used by request #1/],
    ['an amount written with a thousands separator', ['node', 'examples/formatted-amount-client.mjs'], [], ['CLIENT-REQUEST-SCHEMA'], /order_amount "1,499\.50" is neither a JSON number nor a decimal string greater than zero/],
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
