// P-CLI: runs are independent. Against one reference sandbox that refuses every replayed (timestamp,
// signature) pair (P-AUTH-4, on), three runs back to back and two at once, all with the same seed
// (so their fixture reads and Balance Inquiries are the very same bodies), all judge it conformant:
// no run fails the target for refusing another run's request as a replay, or for a wallet another
// run moved. (Before: the 2nd and 3rd runs failed 4-8 MUSTs, two at once 8 and 19.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaledClock, type Clock } from '../core/clock.js';
import { virtualClock } from '../core/clock-test-support.js';
import { buildReport } from '../core/verdict.js';
import type { Report } from '../core/report.js';
import { DEFAULT_VARIANT, startSandbox, type RunningSandbox } from '../sandbox/index.js';
import { catalog } from '../suites/catalog.js';
import type { TargetConfig } from '../suites/config.js';
import { runNumberAt } from '../suites/settings.js';
import { runChecks } from '../suites/run-test-support.js';
import { SECTIONS } from '../suites/sections.js';
import { EMBEDDED_CLOCK_FACTOR } from '../suites/embedded.js';

const SEED = 20261125;
// The sandbox and the runs share the embedded run's faster clock, as `run` shares it with its own sandbox.
const fast = scaledClock(EMBEDDED_CLOCK_FACTOR);
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, settleSeconds: 0, clock: fast, variant: { ...DEFAULT_VARIANT, replay: 'refuse' } });
});
afterAll(() => sandbox.close());

/**
 * One whole run (webhooks aside, unless asked: their retries take real seconds), judged as `run --strict`
 * judges; on `clock` when the target shares one with it.
 */
async function run(target: RunningSandbox = sandbox, only?: string[], withWebhooks = false, clock: Clock = fast): Promise<Report> {
  const { webhooks, ...rest } = target.config;
  const config = withWebhooks ? { ...rest, webhooks } : rest;
  const startedAt = new Date();
  const settings = {
    config: config as TargetConfig,
    seed: SEED,
    runs: 5,
    runNumber: runNumberAt(startedAt.getTime()),
    ...(only ? { only } : {}),
    clock,
  };
  const results = await runChecks(settings, SECTIONS);
  return buildReport({
    results,
    catalog: catalog(),
    target: { baseUrl: target.baseUrl, environment: 'sandbox', embeddedSandbox: false },
    seed: SEED,
    runNumber: settings.runNumber,
    runs: 5,
    strict: true,
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    version: 'test',
  });
}

/**
 * A sandbox whose merchant wallet something else keeps moving, whatever the run sends: another payout
 * (not the run's, of an amount of its own) leaves it each time the sandbox answers a Balance Inquiry.
 */
async function busyWallet(): Promise<{ sandbox: RunningSandbox; stop: () => Promise<void> }> {
  const started: { sandbox?: RunningSandbox } = {};
  let n = 0;
  const sandbox = await startSandbox({
    port: 0,
    settleSeconds: 0,
    clock: fast,
    record: (x) => {
      const wallet = started.sandbox?.app.store.wallets.get(started.sandbox.config.merchant.walletId);
      if (wallet !== undefined && x.path === '/api/v3/banking/balance') wallet.balanceMinor -= 100 + ((n++ * 7_919) % 5_000);
    },
  });
  started.sandbox = sandbox;
  return { sandbox, stop: () => sandbox.close() };
}

const failed = (report: Report) =>
  report.requirements.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.evidence[0]?.message ?? ''}`);
const judged = (report: Report) => report.requirements.filter((r) => r.status !== 'skipped').map((r) => r.id);

describe('runs against one target are independent', () => {
  it('three runs back to back, one seed: each conformant, each judging as much as the first', async () => {
    const reports: Report[] = [];
    for (let i = 0; i < 3; i++) reports.push(await run());
    for (const report of reports) {
      expect(failed(report)).toEqual([]);
      expect(report.verdict).toBe('conformant');
      expect(judged(report)).toEqual(judged(reports[0]!));
    }
    // What the runs had in common: the same fixture reads, sent again and again in the same seconds' reach.
    expect(judged(reports[0]!)).toEqual(expect.arrayContaining(['PAYOUT-STATE-SUCCESS', 'OPS-BALANCE', 'OPS-BALANCE-DEBITED']));
  }, 60_000);

  it('two runs at once, one seed: both conformant; a balance another run moved is not judged, never failed', async () => {
    const [a, b] = await Promise.all([run(), run()]);
    for (const report of [a, b]) {
      expect(failed(report)).toEqual([]);
      expect(report.verdict).toBe('conformant');
      for (const r of report.requirements.filter((q) => q.status === 'skipped' && /^OPS-BALANCE/.test(q.id))) {
        // Another run's payouts moved it, or its identical balance reads used up a target's replay window.
        expect(r.skipReason).toMatch(/^not judged: (other activity on the wallet|replay window used up by other runs)/);
      }
    }
  }, 60_000);

  it('a wallet something else keeps moving: the balance rules are not judged, never failed', async () => {
    // Another payout leaves the wallet between any two reads of its balance: the run's quiet looks (no
    // request of its own out) see it move, so what its payouts do not explain is not its target's.
    const busy = await busyWallet();
    try {
      const report = await run(busy.sandbox, ['OPS-BALANCE-DEBITED', 'OPS-BALANCE-UNCHANGED-ON-FAILURE']);
      expect(failed(report)).toEqual([]);
      const balance = report.requirements.filter((r) => /^OPS-BALANCE-/.test(r.id));
      expect(balance.map((r) => [r.id, r.status])).toEqual([
        ['OPS-BALANCE-DEBITED', 'skipped'],
        ['OPS-BALANCE-UNCHANGED-ON-FAILURE', 'skipped'],
      ]);
      for (const r of balance)
        expect(r.skipReason).toMatch(
          /^not judged: other activity on the wallet: the balance went from [\d.]+ to [\d.]+, (\d+ ms later|read again at once) while no request of the run's was out/,
        );
      expect(report.verdict).toBe('conformant');
    } finally {
      await busy.stop();
    }
  }, 60_000);

  it("two runs at once watching one merchant's webhooks: the one whose registration was taken is inconclusive, never failed", async () => {
    // The merchant has one webhook URL: each run registers its own receiver, and the other's events go there.
    // The sandbox and both runs share the embedded run's faster clock (suites/embedded.ts): the retries'
    // 1 + 2 + 4 s pass in an eighth of that, judged on that clock as `run` judges its embedded sandbox.
    const clock = scaledClock(EMBEDDED_CLOCK_FACTOR);
    const shared = await startSandbox({ port: 0, settleSeconds: 1, clock });
    try {
      const reports = await Promise.all([run(shared, ['HOOK-'], true, clock), run(shared, ['HOOK-'], true, clock)]);
      for (const report of reports) {
        expect(failed(report)).toEqual([]);
        expect(['conformant', 'inconclusive']).toContain(report.verdict);
        for (const reason of report.reasons ?? [])
          expect(reason).toMatch(/another run against this target took it, so deliveries went elsewhere/);
      }
    } finally {
      await shared.close();
    }
  }, 60_000);

  // The other side: a target whose debits are wrong on every payout is failed, every miss named. (Emulated: the sandbox debits the amount; the hook corrects it.)
  it.each<[string, (amountMinor: number) => number]>([
    ['a debit of 1.00 whatever the amount', (amount) => amount - 100],
    ['a debit cut to whole units', (amount) => amount % 100],
    ['a fee of 0.50 on every payout', () => -50],
    ['every payout debited twice', (amount) => -amount],
  ])(
    'a target with %s: OPS-BALANCE-DEBITED fails',
    async (_name, correction) => {
      // `record` runs per request, so only once the sandbox has been started and `faulty` set.
      // On a clock of their own: the quiet looks after each miss take no real time, and nothing else pays.
      const clock = virtualClock();
      const faulty: RunningSandbox = await startSandbox({
        port: 0,
        settleSeconds: 0,
        clock: clock.now,
        record: (x) => {
          const wallet = faulty.app.store.wallets.get(faulty.config.merchant.walletId);
          if (wallet === undefined || x.path !== '/api/v3/banking/payment/initiate' || x.status >= 300) return;
          const amount = Math.round(Number((JSON.parse(x.body) as { amount: number | string }).amount) * 100);
          if (amount <= wallet.balanceMinor + amount) wallet.balanceMinor += correction(amount);
        },
      });
      try {
        const report = await run(faulty, ['OPS-BALANCE-DEBITED'], false, clock);
        expect(report.requirements.find((r) => r.id === 'OPS-BALANCE-DEBITED')).toMatchObject({
          status: 'failed',
          evidence: [
            {
              message: expect.stringMatching(
                /\(P-OPS-4\); no quiet look at the wallet saw anything else move it, so the \d misses are the target's \(P-MONEY-1\)$/,
              ),
            },
          ],
        });
        expect(report.verdict).toBe('not-conformant');
      } finally {
        await faulty.close();
      }
    },
    60_000,
  );
});
