// A run: checks side by side within the run's concurrency, lanes one after another, a check
// that must run alone with nothing else in flight, results in the listed order, and the same
// requests and report for a seed whatever the concurrency (test/run-concurrency.test.ts: two whole runs).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../core/clock-test-support.js';
import type { CheckResult } from '../core/report.js';
import { CheckFailure, defineCheck, type Check, type CheckContext } from './check.js';
import { operationOf, type TargetConfig } from './config.js';
import { EMBEDDED_CLOCK_FACTOR } from './embedded.js';
import { payoutBody } from './requests.js';
import { ConformanceRun } from './run.js';
import { startSandbox } from '../sandbox/index.js';
import { authEffectChecks } from './checks/auth-effects.js';
import { longPayoutIdChecks } from './checks/edges-ids.js';
import { modelChecks } from './checks/model.js';
import { moneyChecks } from './checks/money.js';
import { operationChecks, WALLET } from './checks/operations.js';
import { runChecks } from './run-test-support.js';
import type { Section } from './sections.js';

const config = {
  baseUrl: 'http://127.0.0.1:9',
  environment: 'sandbox',
  merchant: { apiKey: 'pk_test_runner', secretKey: 'sk_test_runner', walletId: 'WAL-1' },
} as TargetConfig;
const settings = (concurrency: number) => ({ config, seed: 1, runs: 1, runNumber: 1, timeoutMs: 1_000, concurrency });

/** Fake checks that send nothing: each records when it ran, and how many others were running then. */
function timeline() {
  const running = new Set<string>();
  const events: Array<{ id: string; at: 'start' | 'end'; others: string[] }> = [];
  const check = (id: string, ms: number, extra: Partial<Check> = {}): Check =>
    defineCheck({
      id,
      requirement: 'AUTH-ACCEPT',
      title: id,
      ...extra,
      async run() {
        events.push({ id, at: 'start', others: [...running] });
        running.add(id);
        await new Promise((resolve) => setTimeout(resolve, ms));
        running.delete(id);
        events.push({ id, at: 'end', others: [...running] });
      },
    });
  return { check, events };
}

const ids = (results: readonly CheckResult[]) => results.map((r) => r.meta.check);

/** A check that sweeps `count` items side by side, doing `each` for each. */
function sweeping(id: string, count: number, each: (i: number, ctx: CheckContext) => Promise<unknown>): Check {
  return defineCheck({
    id,
    requirement: 'AUTH-ACCEPT',
    title: id,
    async run(ctx) {
      await ctx.sweep(
        Array.from({ length: count }, (_, i) => i),
        (i) => each(i, ctx),
      );
    },
  });
}

describe('a run of checks', () => {
  it('runs checks side by side, up to the concurrency, and returns them in their listed order', async () => {
    const { check, events } = timeline();
    const sections: Section[] = [
      { name: 'A', checks: [check('a1', 40), check('a2', 5)] },
      { name: 'B', checks: [check('b1', 5), check('b2', 5), check('b3', 5)] },
    ];
    const told: string[] = [];
    const results = await runChecks(settings(3), sections, { onSectionEnd: (name) => told.push(name) });
    expect(ids(results)).toEqual(['a1', 'a2', 'b1', 'b2', 'b3']);
    expect(results.every((r) => r.state === 'passed')).toBe(true);
    // Section B ends before A's slow check, yet is told after it: the console reads in order.
    expect(told).toEqual(['A', 'B']);
    const most = Math.max(...events.filter((e) => e.at === 'start').map((e) => e.others.length + 1));
    expect(most).toBe(3);
  });

  it("a failure carries its check's requirement, or the one it names, and a stable code", async () => {
    const thrown: CheckFailure[] = [];
    const failing = (id: string, named?: string) =>
      defineCheck({
        id,
        requirement: 'AUTH-ACCEPT',
        title: id,
        run() {
          const failure = new CheckFailure(`${id} broke`, {}, named);
          thrown.push(failure);
          throw failure;
        },
      });
    const results = await runChecks(settings(1), [{ name: 'A', checks: [failing('own'), failing('named', 'ERR-ENVELOPE')] }]);
    expect(results.map((r) => [r.state, r.meta.failure?.message])).toEqual([
      ['failed', 'own broke'],
      ['failed', 'named broke'],
    ]);
    expect(thrown.map((f) => [f.code, f.requirement])).toEqual([
      ['SVC_CHECK_FAILED', 'AUTH-ACCEPT'],
      ['SVC_CHECK_FAILED', 'ERR-ENVELOPE'],
    ]);
  });

  it('at concurrency 1 runs one check at a time, in the listed order', async () => {
    const { check, events } = timeline();
    const sections: Section[] = [{ name: 'A', checks: [check('a1', 10), check('a2', 1), check('a3', 5)] }];
    await runChecks(settings(1), sections);
    expect(events.map((e) => `${e.at} ${e.id}`)).toEqual(['start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3']);
  });

  it('runs the checks of a lane one after another, in order, beside the others', async () => {
    const { check, events } = timeline();
    const sections: Section[] = [
      { name: 'A', checks: [check('free1', 30), check('w1', 10, { lane: 'wallet' }), check('free2', 30)] },
      { name: 'B', checks: [check('w2', 10, { lane: 'wallet' }), check('w3', 1, { lane: 'wallet' })] },
    ];
    const results = await runChecks(settings(8), sections);
    expect(ids(results)).toEqual(['free1', 'w1', 'free2', 'w2', 'w3']);
    const lane = events.filter((e) => e.id.startsWith('w'));
    expect(lane.map((e) => `${e.at} ${e.id}`)).toEqual(['start w1', 'end w1', 'start w2', 'end w2', 'start w3', 'end w3']);
    expect(lane.every((e) => !e.others.some((o) => o.startsWith('w')))).toBe(true);
    // …while the free checks ran beside the lane.
    expect(events.find((e) => e.id === 'w2' && e.at === 'start')!.others.length).toBeGreaterThan(0);
  });

  it("runs a lane's checks that only add to it (addsOnly) side by side, after its others, never beside them", async () => {
    const { check, events } = timeline();
    const adds = { lane: 'wallet', addsOnly: true };
    const sections: Section[] = [
      { name: 'A', checks: [check('p1', 20, adds), check('w1', 10, { lane: 'wallet' }), check('free', 5)] },
      { name: 'B', checks: [check('p2', 20, adds), check('w2', 10, { lane: 'wallet' })] },
    ];
    const results = await runChecks(settings(8), sections);
    expect(ids(results)).toEqual(['p1', 'w1', 'free', 'p2', 'w2']);
    const lane = events.filter((e) => e.id !== 'free').map((e) => `${e.at} ${e.id}`);
    expect(lane).toEqual(['start w1', 'end w1', 'start w2', 'end w2', 'start p1', 'start p2', 'end p1', 'end p2']);
    expect(events.find((e) => e.id === 'p2' && e.at === 'start')!.others).toContain('p1');
    // One at a time, in that order too: the lane's state goes through the same history at any concurrency.
    events.length = 0;
    await runChecks(settings(1), sections);
    expect(events.filter((e) => e.at === 'start').map((e) => e.id)).toEqual(['w1', 'free', 'w2', 'p1', 'p2']);
  });

  it("runs a check marked alone with nothing else running, and a team's checks after the kit's", async () => {
    const { check, events } = timeline();
    const sections: Section[] = [
      { name: 'A', checks: [check('a1', 10), check('race', 10, { alone: true }), check('a2', 10)] },
      { name: 'Team', team: true, checks: [check('t1', 5), check('t2', 5)] },
    ];
    const results = await runChecks(settings(8), sections);
    expect(ids(results)).toEqual(['a1', 'race', 'a2', 't1', 't2']);
    for (const e of events.filter((x) => x.id === 'race')) expect(e.others).toEqual([]);
    expect(events.filter((e) => e.id === 'race' && e.at === 'start')[0]!.others).toEqual([]);
    const firstTeamStart = events.findIndex((e) => e.id.startsWith('t'));
    const lastKitEnd = events.map((e, i) => (!e.id.startsWith('t') && e.at === 'end' ? i : -1)).reduce((a, b) => Math.max(a, b));
    expect(firstTeamStart).toBeGreaterThan(lastKitEnd);
    // Nothing of the kit's was running when a team check started.
    expect(events.filter((e) => e.id.startsWith('t') && e.at === 'start').every((e) => e.others.every((o) => o.startsWith('t')))).toBe(
      true,
    );
  });

  it('never has more requests in flight than the concurrency, sweeps included', async () => {
    let inFlight = 0;
    let most = 0;
    const { check } = timeline();
    const sweeps = sweeping('s1', 10, async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
    });
    await runChecks(settings(3), [{ name: 'A', checks: [sweeps, check('x', 1)] }]);
    expect(most).toBe(3);
  });

  it("sends a lane's requests before the queue of the others': its checks wait on each one", async () => {
    const sent: string[] = [];
    // Nothing listens on the config's port: each request is refused at once, and told in turn.
    const run = settings(4);
    // Three checks beside the lane, each sweeping with 4 requests in flight: a queue of 8 and more.
    const lane = defineCheck({
      id: 'lane',
      requirement: 'AUTH-ACCEPT',
      title: 'lane',
      lane: 'wallet',
      async run(ctx) {
        for (let i = 0; i < 3; i++) await ctx.send({ label: `lane ${i}`, path: '/x' });
      },
    });
    const sends = (id: string) => sweeping(id, 8, (i, ctx) => ctx.send({ label: `${id} ${i}`, path: '/x' }));
    await runChecks(run, [{ name: 'A', checks: [sends('s1'), sends('s2'), sends('s3'), lane] }], {
      onExchange: (x) => sent.push(x.label),
    });
    expect(sent).toHaveLength(27);
    // Each of the lane's requests waits for one slot, not behind the queue (then it came 20th or later).
    expect(sent.indexOf('lane 2')).toBeLessThan(12);
  });
});

describe('a run on the embedded sandbox', () => {
  it('keeps --max-time in real seconds on its faster clock: the deadline lies factor times further ahead on it', async () => {
    const run = await ConformanceRun.open({ target: { embedded: {} }, maxTimeSeconds: 10 });
    try {
      const clock = run.settings.clock!;
      expect(clock.factor).toBe(EMBEDDED_CLOCK_FACTOR);
      const ahead = run.settings.deadlineAt! - clock.now();
      // 10 real seconds are 80 s of a clock 8 times faster (less what passed while the sandbox started).
      expect(ahead).toBeGreaterThan(10_000 * EMBEDDED_CLOCK_FACTOR - 5_000);
      expect(ahead).toBeLessThanOrEqual(10_000 * EMBEDDED_CLOCK_FACTOR);
    } finally {
      await run.close();
    }
  });

  it("ends the sandbox's sleeps when it closes: a payout still to settle holds no timer after the run", async () => {
    const clock = manualClock();
    const run = await ConformanceRun.open({ target: { embedded: {} }, clock });
    const { config } = run;
    const initiation = operationOf(config, 'transactionInitiation')!;
    const payout = payoutBody(config.merchant.walletId, 'SESSION-SLEEP-1', 10, 'INR');
    const answer = await run.state.client.send({ label: 'a payout', path: initiation.path, payload: payout });
    expect(answer.response?.status).toBe(200);
    // Its settlement waits on the clock (the sandbox settles a payout seconds later).
    expect(clock.sleeping).toBeGreaterThan(0);
    await run.close();
    expect(clock.sleeping).toBe(0);
  });

  it('lets dozens of sleeps wait at once without node warning of a listener leak', async () => {
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.name);
    process.on('warning', warned);
    const clock = manualClock();
    const run = await ConformanceRun.open({ target: { embedded: {} }, clock });
    try {
      const initiation = operationOf(run.config, 'transactionInitiation')!;
      for (let n = 0; n < 12; n++) {
        const payout = payoutBody(run.config.merchant.walletId, `SESSION-MANY-${n}`, 10, 'INR');
        expect((await run.state.client.send({ label: 'a payout', path: initiation.path, payload: payout })).response?.status).toBe(200);
      }
      expect(clock.sleeping).toBeGreaterThanOrEqual(12);
      // node emits its warnings on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', warned);
      await run.close();
    }
  });
});

describe('a run whose correctly signed requests are all refused', () => {
  /** A target answering every request `status` with the error envelope; it counts what it was sent. */
  async function target(status: number) {
    const bodies = new Set<string>();
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        bodies.add(body);
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status: false, code: status, message: 'no' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const sent = () => [...bodies].map((b) => (JSON.parse(b) as { payout_order_id: string }).payout_order_id);
    return { baseUrl: `http://127.0.0.1:${port}`, sent, close: () => new Promise((resolve) => server.close(resolve)) };
  }
  const sending = (id: string, requirement: string): Check =>
    defineCheck({
      id,
      requirement,
      title: id,
      async run(ctx) {
        await ctx.send({ label: id, path: '/api/v3/banking/payment/status', payload: { payout_order_id: id } });
      },
    });
  const sections: Section[] = [
    { name: 'Records', checks: Array.from({ length: 40 }, (_, i) => sending(`dup-${i}`, 'DUP-SEQUENTIAL')) },
    { name: 'Authentication', checks: [sending('auth-last', 'AUTH-ACCEPT')] },
  ];

  it('holds back all but authentication once 30 were refused, saying why', async () => {
    const refusing = await target(401);
    try {
      const results = await runChecks({ ...settings(1), config: { ...config, baseUrl: refusing.baseUrl } }, sections);
      const held = results.filter((r) => r.meta.skipped?.startsWith('not run: the run stopped sending once 30'));
      expect(held.map((r) => r.meta.check)).toEqual(Array.from({ length: 10 }, (_, i) => `dup-${i + 30}`));
      expect(results.find((r) => r.meta.check === 'auth-last')?.state).toBe('passed');
      // The held checks sent nothing; authentication's, and the signature-scheme probe, did.
      expect(refusing.sent().filter((id) => /^dup-(3\d)$/.test(id))).toEqual([]);
      expect(refusing.sent()).toContain('auth-last');
    } finally {
      await refusing.close();
    }
  });

  it('holds back nothing from a target that takes them', async () => {
    const taking = await target(200);
    try {
      const results = await runChecks({ ...settings(1), config: { ...config, baseUrl: taking.baseUrl } }, sections);
      expect(results.filter((r) => r.state === 'skipped')).toEqual([]);
      expect(taking.sent().filter((id) => id.startsWith('dup-'))).toHaveLength(40);
    } finally {
      await taking.close();
    }
  });
});

describe('the wallet lane of the kit at 8 in flight', () => {
  it('passes a correct target: no check that compares the balance runs beside one that only adds to it', async () => {
    const sandbox = await startSandbox({ port: 0, settleSeconds: 0 });
    try {
      const { webhooks: _, ...config } = sandbox.config;
      const lane = [...operationChecks, ...authEffectChecks, ...moneyChecks, ...longPayoutIdChecks, ...modelChecks].filter(
        (c) => c.lane === WALLET,
      );
      expect(lane.some((c) => c.addsOnly === true) && lane.some((c) => c.addsOnly !== true)).toBe(true);
      const results = await runChecks({ ...settings(8), config, runs: 3 }, [{ name: 'Wallet', checks: lane }]);
      expect(
        results.filter((r) => r.state !== 'passed').map((r) => `${r.meta.check}: ${r.state} ${r.meta.failure?.message ?? ''}`),
      ).toEqual([]);
    } finally {
      await sandbox.close();
    }
  }, 30_000);
});
