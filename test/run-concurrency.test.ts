// A run is the same for a seed at any concurrency: two whole runs of every section against a sandbox
// with faults, one request at a time and eight in flight, send the same requests and write the same
// report. An end-to-end test of the runner (suites/runner.test.ts tests its scheduling with fake
// checks): two whole runs take seconds, so it runs with `npm run test:e2e`.
import { afterAll, describe, expect, it } from 'vitest';
import { virtualClock } from '../core/clock-test-support.js';
import { buildReport } from '../core/verdict.js';
import { startSandbox } from '../sandbox/index.js';
import type { RecordedExchange } from '../sandbox/options.js';
import { catalog } from '../suites/catalog.js';
import { runNumberAt } from '../suites/settings.js';
import { runChecks } from '../suites/run-test-support.js';
import { SECTIONS } from '../suites/sections.js';

const RUN_NUMBER = runNumberAt(Date.now());

describe('a run is the same for a seed at any concurrency', () => {
  const sandboxes: Array<{ close(): Promise<void> }> = [];
  afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

  async function recordRun(concurrency: number) {
    const clock = virtualClock();
    const received: RecordedExchange[] = [];
    // Faults that fail sweeps, properties (shrunk), the duplicates and the wallet lane: evidence to
    // compare. (Not dup-race: how many of a race's creates land in its window is timing, by design.)
    const faults = [
      'errors-null-field-accepted',
      'errors-missing-field-500',
      'order-reject-currencies',
      'auth-failure-html',
      'dup-allowed',
      'ops-failed-debits',
    ] as const;
    const sandbox = await startSandbox({
      port: 0,
      settleSeconds: 0,
      clock: clock.now,
      record: (x) => received.push(x),
      faults: [...faults],
    });
    sandboxes.push(sandbox);
    const runNumber = RUN_NUMBER;
    // Without webhooks: their observation waits on deliveries, which a virtual clock cannot time.
    const { webhooks: _, ...config } = sandbox.config;
    const run = { clock, config, seed: 7, runs: 5, runNumber, salt: 'C0DE', concurrency };
    const results = await runChecks(run, SECTIONS);
    const report = buildReport({
      results,
      catalog: catalog(),
      target: { baseUrl: 'http://target', environment: 'sandbox', embeddedSandbox: false },
      seed: 7,
      runNumber,
      runs: 5,
      strict: true,
      startedAt: new Date(0),
      durationMs: 0,
      version: 'test',
    });
    // What a request is, apart from when it was sent (its timestamp and so its signature), and apart
    // from the ids the sandbox hands out in arrival order (a checkout page's path carries its svc_order_id;
    // a spare wallet opened for a check is named by the sandbox). Each once: how often an identical read
    // is repeated (a Balance Inquiry looked at again while a payout settled) is timing, not the seed.
    const requests = [
      ...new Set(
        received.map(
          (x) =>
            `${x.method} ${x.path.replace(/^\/checkout\/SVC-\d+$/, '/checkout/SVC-…')} ${x.body.replace(/WAL-SBX-SPARE-W-\d+/g, 'WAL-SBX-SPARE-W-…')}`,
        ),
      ),
    ].sort();
    return { requests, report, base: sandbox.baseUrl };
  }

  it('sends the same requests and writes the same report at concurrency 1 and 8', async () => {
    const one = await recordRun(1);
    const eight = await recordRun(8);
    expect(eight.requests.length).toBeGreaterThan(250);
    expect(eight.requests).toEqual(one.requests);
    const shape = (run: typeof one) =>
      run.report.requirements.map((r) => ({
        id: r.id,
        status: r.status,
        evidence: r.evidence.map((e) => ({
          check: e.check,
          // A record's svc_order_id is the sandbox's count of orders so far: arrival order again.
          message: e.message.replace(/SVC-\d+/g, 'SVC-…'),
          requests: (e.exchanges ?? []).map((x) => `${x.label} ${x.request.body.replace(/WAL-SBX-SPARE-W-\d+/g, 'WAL-SBX-SPARE-W-…')}`),
        })),
      }));
    expect(shape(eight)).toEqual(shape(one));
    // The comparison is of something: the faults left evidence in several requirements.
    expect(shape(eight).filter((r) => r.status === 'failed').length).toBeGreaterThanOrEqual(5);
  }, 60_000);
});
