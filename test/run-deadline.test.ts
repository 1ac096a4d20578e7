import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MERCHANT_A } from '../sandbox/tenants.js';
import { runCli } from './cli-harness.js';

/**
 * Targets that would hold a run for hours: every answer rate limited, every answer just inside the
 * timeout, every answer slow. The run stops with exit 2 and one line naming the cause, and still
 * writes its reports, which say it stopped.
 */
const servers: Server[] = [];
afterAll(() =>
  Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  ),
);

async function target(answer: (res: import('node:http').ServerResponse, preflight: boolean) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(res, req.method === 'GET' && req.url === '/'));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = mkdtempSync(join(tmpdir(), 'svc-deadline-'));
  const config = join(dir, 'target.json');
  writeFileSync(
    config,
    JSON.stringify({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      environment: 'sandbox',
      merchant: { apiKey: MERCHANT_A.apiKey, secretKey: MERCHANT_A.secretKey, walletId: MERCHANT_A.walletId },
    }),
  );
  return config;
}

const json = (res: import('node:http').ServerResponse, status: number, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end('{"code":' + status + ',"message":"no"}');
};

async function run(config: string, ...flags: string[]) {
  const reportDir = join(config, '..', 'r');
  const started = Date.now();
  const result = await runCli(['run', '--config', config, '--seed', '1', '--report-dir', reportDir, ...flags]);
  return {
    ...result,
    seconds: (Date.now() - started) / 1000,
    report: JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as { verdict: string; reasons?: string[] },
  };
}

describe.concurrent('run stops a run that cannot finish in useful time', () => {
  it('a target that rate-limits every request: stops after 4 answers 429 in a row', async () => {
    const config = await target((res) => json(res, 429, { 'retry-after': '0' }));
    const result = await run(config);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^svc-conformance run: inconclusive: the run had to stop: the target answered 429 \(rate limited\) 4 times in a row; raise its rate limit/,
    );
    expect(result.report.verdict).toBe('inconclusive');
    expect(result.report.reasons).toEqual([expect.stringMatching(/^the run had to stop: the target answered 429/)]);
    expect(result.seconds).toBeLessThan(30);
  }, 60_000);

  it('announces a long Retry-After while it waits, and stops when waiting would pass --max-time', async () => {
    const config = await target((res, preflight) => (preflight ? json(res, 404) : json(res, 429, { 'retry-after': '2' })));
    const result = await run(config, '--max-time', '5');
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/ … waiting 2 s: the target answered .+ with 429 \(rate limited\) 1 time in a row/);
    expect(result.stderr).toMatch(
      /inconclusive: the run had to stop: its time budget \(--max-time 5\) would run out waiting for the target's Retry-After/,
    );
    // The sections after the stop ran nothing: they are not shown as passed.
    expect(result.stdout).toMatch(/^  – Profile operations +\d+ checks: 0 passed, \d+ skipped/m);
  }, 60_000);

  it('a target whose every answer comes near the timeout: stops after 3 in a row', async () => {
    const config = await target((res, preflight) => (preflight ? json(res, 404) : setTimeout(() => json(res, 400), 1_700)));
    const result = await run(config, '--timeout', '2');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /inconclusive: the run had to stop: the target did not answer, or took more than 1.6 s \(of the 2 s --timeout\), 3 times in a row/,
    );
    expect(result.seconds).toBeLessThan(20);
  }, 60_000);

  it('a target that is merely slow: the whole run ends at --max-time', async () => {
    const config = await target((res) => setTimeout(() => json(res, 400), 250));
    const result = await run(config, '--max-time', '3');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /inconclusive: the run had to stop: it reached its time budget \(--max-time 3\) \(\d+ of \d+ checks ran before it\)/,
    );
    expect(result.seconds).toBeLessThan(15);
  }, 60_000);
});
