// Profile v1.3, P-CLI "Verdicts (v1.3)": a request whose body other runs may send too (a Balance
// Inquiry), still refused as a replay after the suite's resends, leaves its requirement not judged
// ("replay window used up by other runs"), never failed. Before: OPS-BALANCE failed, "expected HTTP
// 200, got 401", after a burst of runs had taken the Balance Inquiry's seconds. A request that
// carries this run's own ids, refused 401 though correctly signed, is still the target's failure.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckResult, Report } from '../core/report.js';
import { buildReport } from '../core/verdict.js';
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import type { TargetConfig } from './config.js';
import { MAX_REPLAY_RESENDS, TargetClient } from './http.js';
import { catalog } from './catalog.js';
import { runNumberAt } from './settings.js';
import { settleInOrder } from './limiter.js';
import { runChecks } from './run-test-support.js';
import { SECTIONS } from './sections.js';

/** The timestamp window either side, narrow: every second a run may pick is a few dozen (see takeFreeSecond). */
const TOLERANCE = 60;
const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!();
});

/** The reference sandbox, refusing every replayed (timestamp, signature) pair (P-AUTH-4). */
async function sandbox(): Promise<RunningSandbox> {
  const started = await startSandbox({ port: 0, settleSeconds: 0, variant: { replay: 'refuse', toleranceSeconds: TOLERANCE } });
  open.push(() => started.close());
  return started;
}

/** Another run's Balance Inquiries of the merchant's wallet, accepted at every second from 40 s back to 20 s ahead. */
async function anotherRunUsesUpTheBalanceInquiry(config: TargetConfig): Promise<void> {
  const other = new TargetClient(config, { timeoutMs: 5_000 });
  const now = other.nowSeconds();
  const seconds = Array.from({ length: 61 }, (_, i) => now - 40 + i);
  try {
    const answers = await settleInOrder(seconds, 16, (timestamp) =>
      other.send({
        label: "another run's Balance Inquiry",
        path: '/api/v3/banking/balance',
        payload: { svc_wallet_id: config.merchant.walletId },
        timestamp,
      }),
    );
    expect(answers.map((x) => x.response?.status)).toEqual(seconds.map(() => 200));
  } finally {
    await other.close();
  }
}

/** OPS-ORDER-STATUS and the OPS-BALANCE… requirements, one check at a time: each check's result by its id, and the report. */
async function run(config: TargetConfig): Promise<{ checks: Map<string, CheckResult>; report: Report }> {
  const startedAt = new Date();
  const settings = { config, seed: 7, runs: 1, runNumber: runNumberAt(startedAt.getTime()), timeoutMs: 5_000 };
  const results = await runChecks({ ...settings, concurrency: 1, only: ['OPS-ORDER-STATUS', 'OPS-BALANCE'] }, SECTIONS);
  const report = buildReport({
    results,
    catalog: catalog(),
    target: { baseUrl: config.baseUrl, environment: 'sandbox', embeddedSandbox: false },
    seed: 7,
    runNumber: settings.runNumber,
    runs: 1,
    strict: true,
    startedAt,
    durationMs: 0,
    version: 'test',
  });
  return { checks: new Map(results.map((r) => [r.meta.check, r])), report };
}

const requirement = (report: Report, id: string) => report.requirements.find((r) => r.id === id);

describe('a body other runs send too, refused as a replay after every resend', () => {
  it('leaves its requirement not judged, with that reason, never failed', async () => {
    const target = await sandbox();
    await anotherRunUsesUpTheBalanceInquiry(target.config);
    const { checks: results, report } = await run(target.config);
    expect(results.get('ops-order-status')?.state).toBe('passed');
    const balance = results.get('ops-balance')!;
    expect(balance.state).toBe('skipped');
    expect(balance.meta.failure).toBeUndefined();
    expect(balance.meta.skipped).toBe(
      `not judged: replay window used up by other runs: Balance Inquiry of the merchant wallet was refused 401 ${MAX_REPLAY_RESENDS + 1} times, each time with a fresh X-TIMESTAMP, as a target that refuses replays (P-AUTH-4) refuses another run's identical request`,
    );
    // What was refused is shown: its last answer, the 401, after every resend.
    expect(balance.meta.evidence.map((x) => [x.response?.status, x.resent])).toEqual([[401, MAX_REPLAY_RESENDS]]);
    expect(requirement(report, 'OPS-BALANCE')).toMatchObject({
      status: 'skipped',
      skipReason: expect.stringMatching(/^not judged: replay window used up by other runs: /),
    });
    expect(report.verdict).not.toBe('not-conformant');
  });

  it('the same target with the window free: judged, and passed', async () => {
    const { checks: results } = await run((await sandbox()).config);
    expect(results.get('ops-balance')?.state).toBe('passed');
  });
});

describe("a request with this run's own ids, refused 401 though correctly signed", () => {
  it("is the target's failure, as before: nobody else sent it", async () => {
    const target = await sandbox();
    // In front of the sandbox: Order Status, whose body names an order of this run, refused 401.
    const refusing = await proxy(target.baseUrl, (path) => path === '/api/v3/pg/order/status');
    const { checks: results, report } = await run({ ...target.config, baseUrl: refusing });
    const status = results.get('ops-order-status')!;
    expect(status.state).toBe('failed');
    expect(status.meta.failure?.message).toMatch(/expected HTTP 200, got 401$/);
    expect(status.meta.evidence[0]?.resent).toBeUndefined();
    expect(results.get('ops-balance')?.state).toBe('passed');
    expect(requirement(report, 'OPS-ORDER-STATUS')?.status).toBe('failed');
    expect(report.verdict).toBe('not-conformant');
  });
});

/** A proxy to `upstream` answering 401, as a refused signature, on the paths `refuse` names. */
async function proxy(upstream: string, refuse: (path: string) => boolean): Promise<string> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (refuse(req.url ?? '')) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"status":false,"code":401,"message":"signature does not match"}');
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'transfer-encoding'].includes(name)),
      );
      void fetch(upstream + req.url, {
        method: req.method ?? 'POST',
        headers: headers as Record<string, string>,
        body: Buffer.concat(chunks),
      })
        .then(async (answer) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()))
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
