// npm run bench (part 2): the suites' own speed. Each figure is measured 3 times in this run (the
// suite's against the loop 7 times) and shown as min, median and max against its target, as a ratio to a
// baseline measured beside it:
//   - the suite in-process (its Webhooks section timed apart) against a bare undici loop sending the
//     same requests, equally concurrent, to the sandbox in the suite's own thread (and, shown apart,
//     on a core of its own), and, shown, against a fair client sending them as any client must;
//   - a full run through a loopback proxy adding 25 ms each way (50 ms round trip), against its
//     floor: requests / concurrency x round trip;
//   - `svc-conformance run --runs 20/100/500` on the embedded sandbox, wall clock, and how the
//     property checks' cost grows from 100 cases to 500;
//   - the sandbox's requests per second against a bare Node server's and a fair one's (HMAC, JSON);
//     `--only throughput` runs this part alone, `--only suite` the first.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildReport } from '../core/verdict.js';
import { startSandbox } from '../sandbox/index.js';
import type { RecordedExchange } from '../sandbox/options.js';
import { catalog } from '../suites/catalog.js';
import type { TargetConfig } from '../suites/config.js';
import { runNumberAt } from '../suites/settings.js';
import { runChecks } from '../suites/run.js';
import { SECTIONS } from '../suites/sections.js';
import { startDelayProxy } from './delay-proxy.js';
import { figure, median, repeat } from './stats.js';
import { clientRequests, drive, prepareRequests, sandboxThroughput, sendAll, sendAllAsClient, startServerWorker } from './throughput.js';

const BIN = fileURLToPath(new URL('../../bin/svc-conformance.js', import.meta.url));
const TIMES = 3;
const CONCURRENCY = 8;
const ONE_WAY_MS = 25;
/** Rounds of the serving figures (4.), the three servers taken in turn in each. */
const SERVING_TIMES = 5;

function settings(config: TargetConfig) {
  return { config, seed: 1, runs: 20, runNumber: runNumberAt(Date.now()), concurrency: CONCURRENCY };
}

if (process.argv.slice(2).join(' ') === '--only throughput') {
  console.log((await servingFigures()).join('\n'));
  process.exit(0);
}

// 1. The suite in-process (payouts settle at once, so no settlement wait counts as overhead), then
//    the same requests sent by a bare undici loop to a fresh sandbox, as many in flight: one at a
//    time against the suite at --concurrency 1 (the kit's own cost per request), 8 against 8. The
//    Webhooks section is left out of this figure: its checks wait for the sandbox's retries (1, 2 and
//    4 real seconds), which no loop of requests waits for; it is timed apart (1b). Both sandboxes
//    record what they are sent, so recording costs the same on both sides. Two layouts:
//    - the sandbox in the suite's own thread: the target is set on this one, and its CPU time
//      against the loop's is shown beside it (the work itself, whatever else the machine runs).
//    - the sandbox on a core of its own (a worker thread, warmed as the throughput bench warms it),
//      as a target deployed apart is: shown, not judged. At 8 in flight the loop is then bound by the
//      sandbox, so this one says how the suite's own work compares with the sandbox's, not with the
//      loop's: a faster sandbox raises it, a slower one hides the suite's cost.
//    With the sandbox in the suite's thread, the same requests are also sent by a fair client (as the
//    sandbox has a fair server beside its bare one): canonical JSON written from each payload, each
//    HMAC computed, the suites' transport with its deadline, each answer decoded and parsed. Shown,
//    not judged: the suite against it, and it against the bare loop (what no client can do without).
/** Headers of a recorded request that the replaying transport sets itself. */
const TRANSPORT_HEADERS = new Set(['host', 'content-length', 'connection']);
const WEBHOOKS = SECTIONS.filter((section) => section.name === 'Webhooks');
const REQUEST_SECTIONS = SECTIONS.filter((section) => !WEBHOOKS.includes(section));
let requestCount = 0;
type Layout = 'same thread' | 'own core';
/** The suite's CPU time over the loop's in each overheadAt with the sandbox in this thread, 8 in flight. */
const cpuRatios: number[] = [];
/**
 * With the sandbox in this thread: the suite's time over the fair client's (sendAllAsClient: what
 * any client must do for each request, and nothing more), by concurrency; and the fair client's over
 * the bare loop's, 8 in flight: the share of the bare loop's ratio that no client can avoid.
 */
const clientRatios = new Map<number, number[]>();
const floorRatios: number[] = [];

interface BenchTarget {
  baseUrl: string;
  config: TargetConfig;
  /** What the sandbox received from the suite, to replay. */
  take(): Promise<RecordedExchange[]>;
  close(): Promise<void>;
}

async function benchSandbox(layout: Layout): Promise<BenchTarget> {
  if (layout === 'own core') {
    const server = await startServerWorker({ kind: 'sandbox', settleSeconds: 0, record: true });
    await drive(server.baseUrl, prepareRequests(1_000));
    await server.record();
    return { baseUrl: server.baseUrl, config: server.config!, take: () => server.take(), close: () => server.close() };
  }
  const recorded: RecordedExchange[] = [];
  const sandbox = await startSandbox({ port: 0, settleSeconds: 0, record: (x) => recorded.push(x) });
  return { baseUrl: sandbox.baseUrl, config: sandbox.config, take: () => Promise.resolve(recorded), close: () => sandbox.close() };
}

/** Wall time and CPU time (this process's, every thread) of `work`, ms. */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const cpuSince = process.cpuUsage();
  const started = performance.now();
  await work();
  const { user, system } = process.cpuUsage(cpuSince);
  return { ms: performance.now() - started, cpuMs: (user + system) / 1000 };
}

async function overheadAt(layout: Layout, concurrency: number): Promise<number> {
  const suiteTarget = await benchSandbox(layout);
  const suite = await timed(async () => {
    const results = await runChecks({ ...settings(suiteTarget.config), concurrency }, REQUEST_SECTIONS);
    buildReport({
      results,
      catalog: catalog(),
      target: { baseUrl: suiteTarget.baseUrl, environment: 'sandbox', embeddedSandbox: true },
      seed: 1,
      runNumber: 0,
      runs: 20,
      strict: false,
      startedAt: new Date(),
      durationMs: 0,
      version: 'bench',
    });
  });
  const recorded = await suiteTarget.take();
  await suiteTarget.close();

  const loopTarget = await benchSandbox(layout);
  const replayed = recorded.map((x) => ({
    method: x.method as 'GET' | 'POST',
    path: x.path,
    body: x.body,
    // What the transport sets is left to it: the Host, the length, and Connection (the suite's undici
    // added "keep-alive"; replayed as the caller's own header, it kept undici opening a connection per
    // request one at a time, even on a pool as large as the suite's: 520 for 814).
    headers: Object.fromEntries(x.headers.filter(([name]) => !TRANSPORT_HEADERS.has(name))),
  }));
  const loop = await timed(() => sendAll(loopTarget.baseUrl, replayed, concurrency));
  await loopTarget.close();
  requestCount = recorded.length;
  if (layout === 'same thread') {
    const built = clientRequests(replayed, suiteTarget.config);
    const clientTarget = await benchSandbox(layout);
    const client = await timed(() => sendAllAsClient(clientTarget.baseUrl, built, concurrency));
    await clientTarget.close();
    clientRatios.set(concurrency, [...(clientRatios.get(concurrency) ?? []), suite.ms / client.ms]);
    if (concurrency === CONCURRENCY) floorRatios.push(client.ms / loop.ms);
  }
  // On a busy machine wall time is mostly the other processes' share; CPU time is the work itself.
  if (layout === 'same thread' && concurrency === CONCURRENCY) cpuRatios.push(suite.cpuMs / loop.cpuMs);
  return suite.ms / loop.ms;
}
// Warm the JIT and the module cache: the first run pays for both.
await overheadAt('same thread', CONCURRENCY);
await overheadAt('own core', CONCURRENCY);
cpuRatios.length = 0;
clientRatios.clear();
floorRatios.length = 0;
// Each figure 7 times, the four taken in turn each round: a ratio of two runs a second apart moves by
// a tenth on this machine from one measure to the next, and a slow minute then spreads over every figure.
const SUITE_TIMES = 7;
const overheads = new Map<string, number[]>();
for (let round = 0; round < SUITE_TIMES; round++) {
  for (const layout of ['same thread', 'own core'] as const) {
    for (const concurrency of [1, CONCURRENCY]) {
      const key = `${layout} ${concurrency}`;
      overheads.set(key, [...(overheads.get(key) ?? []), await overheadAt(layout, concurrency)]);
    }
  }
}
for (const values of overheads.values()) values.sort((a, b) => a - b);

/** The lines of 1. */
function suiteFigures(): string[] {
  const target = { text: '≤ 1.50x', met: (m: number) => m <= 1.5 };
  const suite = (layout: Layout, concurrency: number, where: string) =>
    figure(
      `suite, no webhooks / bare undici loop${where} (${concurrency === 1 ? `${requestCount} requests, one at a time` : `${concurrency} in flight`})`,
      overheads.get(`${layout} ${concurrency}`)!,
      'x',
      layout === 'same thread' ? target : undefined,
    );
  return [
    suite('same thread', 1, ''),
    suite('same thread', CONCURRENCY, ''),
    figure(
      `  the same, CPU time / the loop's (${CONCURRENCY} in flight)`,
      cpuRatios.sort((a, b) => a - b),
      'x',
    ),
    ...[1, CONCURRENCY].map((concurrency) =>
      figure(
        `suite, no webhooks / fair client loop (${concurrency === 1 ? 'one at a time' : `${concurrency} in flight`})`,
        clientRatios.get(concurrency)!.sort((a, b) => a - b),
        'x',
      ),
    ),
    figure(
      `  fair client loop / bare undici loop (${CONCURRENCY} in flight)`,
      floorRatios.sort((a, b) => a - b),
      'x',
    ),
    suite('own core', 1, ', sandbox on its own core'),
    suite('own core', CONCURRENCY, ', sandbox on its own core'),
  ];
}
if (process.argv.slice(2).join(' ') === '--only suite') {
  console.log(suiteFigures().join('\n'));
  process.exit(0);
}

// 1b. The Webhooks section alone, in-process: mostly the sandbox's real retry schedule.
const webhookSeconds = await repeat(TIMES, async () => {
  const target = await startSandbox({ port: 0, settleSeconds: 0 });
  const started = performance.now();
  await runChecks(settings(target.config), WEBHOOKS);
  const seconds = (performance.now() - started) / 1000;
  await target.close();
  return seconds;
});

// 2. Across a network: the embedded sandbox (payouts settle in 2 s, as served) behind the delay proxy.
const latency: number[] = [];
let floorSeconds = 0;
for (let i = 0; i < TIMES; i++) {
  let count = 0;
  const target = await startSandbox({ port: 0, record: () => count++ });
  const proxy = await startDelayProxy(target.baseUrl, ONE_WAY_MS);
  const started = performance.now();
  await runChecks(settings({ ...(target.config as TargetConfig), baseUrl: proxy.baseUrl }), SECTIONS);
  const seconds = (performance.now() - started) / 1000;
  await proxy.close();
  await target.close();
  floorSeconds = ((count / CONCURRENCY) * (2 * ONE_WAY_MS)) / 1000;
  latency.push(seconds / floorSeconds);
}

// 3. What a user waits for: `svc-conformance run --runs N` with no target, wall clock.
const byRuns = new Map<number, number[]>();
for (const runs of [20, 100, 500]) {
  byRuns.set(
    runs,
    await repeat(TIMES, () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
      const started = performance.now();
      const cli = spawnSync(process.execPath, [BIN, 'run', '--seed', '1', '--runs', String(runs), '--report-dir', dir], {
        encoding: 'utf8',
      });
      if (cli.status !== 0) throw new Error(`run --runs ${runs} did not pass:\n${cli.stdout}\n${cli.stderr}`);
      return (performance.now() - started) / 1000;
    }),
  );
}

// 3b. How a property's cost grows with --runs: the property checks alone, in-process, at 100 and
//     500 cases (linear growth: 5x; sweeps among them cost the same at both, so a little less).
async function propertySeconds(runs: number): Promise<number> {
  const target = await startSandbox({ port: 0, settleSeconds: 0 });
  const started = performance.now();
  await runChecks({ ...settings(target.config), runs, only: ['ERR-', 'ORDER-GENERATED'] }, SECTIONS);
  const seconds = (performance.now() - started) / 1000;
  await target.close();
  return seconds;
}
const growth = await repeat(TIMES, async () => (await propertySeconds(500)) / (await propertySeconds(100)));

// 4. The sandbox against two Node servers, each in a worker thread of its own: a bare one, and a fair
//    one that also verifies each request's HMAC and parses its JSON, as any real target must. Both
//    ratios come from the same measurements. Driven by a lean driver (wire-driver.ts) that keeps each
//    server busy: the share of the time each was busy is shown, since a rate the driver limited is
//    the driver's, not the server's. The rounds take the servers in turn, so a slow minute of the
//    machine spreads over all three. Where Linux tells a thread's CPU time, each server's CPU time a
//    request is shown too, and the fair server's against the sandbox's: the same comparison as the
//    rates, but of each server thread's own work, whatever else the two cores were doing (the rates
//    move by a fifth from round to round on this machine). V8's helper threads (concurrent garbage
//    collection) are not in it: a server that allocates more costs more than its thread shows.
async function servingFigures(): Promise<string[]> {
  const servingBare: number[] = [];
  const servingFair: number[] = [];
  const perSecond = { sandbox: [] as number[], bare: [] as number[], fair: [] as number[] };
  const busy = { sandbox: [] as number[], bare: [] as number[], fair: [] as number[] };
  const cpu = { sandbox: [] as number[], bare: [] as number[], fair: [] as number[] };
  const cpuFair: number[] = [];
  for (let i = 0; i < SERVING_TIMES; i++) {
    const measured = await sandboxThroughput(6_000, i);
    servingBare.push(measured.perSecond.sandbox / measured.perSecond.bare);
    servingFair.push(measured.perSecond.sandbox / measured.perSecond.fair);
    for (const kind of ['sandbox', 'bare', 'fair'] as const) {
      perSecond[kind].push(measured.perSecond[kind]);
      busy[kind].push(measured.busy[kind]);
      const used = measured.cpuPerRequest[kind];
      if (used !== undefined) cpu[kind].push(used);
    }
    const { sandbox, fair } = measured.cpuPerRequest;
    if (sandbox !== undefined && fair !== undefined) cpuFair.push(fair / sandbox);
  }
  const cpuText = (kind: 'sandbox' | 'bare' | 'fair') =>
    cpu[kind].length === SERVING_TIMES ? `, ${Math.round(median(cpu[kind].sort((a, b) => a - b)))} µs of its CPU a request` : '';
  servingBare.sort((a, b) => a - b);
  servingFair.sort((a, b) => a - b);
  return [
    ...(['sandbox', 'bare', 'fair'] as const).map(
      (kind) =>
        `${figure(
          `requests per second, ${kind === 'sandbox' ? 'sandbox' : `${kind} Node server`}`,
          perSecond[kind].sort((a, b) => a - b),
          '/s',
          undefined,
          0,
        )}  (its thread busy ${Math.round(median(busy[kind].sort((a, b) => a - b)) * 100)}% of the time${cpuText(kind)})`,
    ),
    figure("sandbox requests per second / bare Node server's", servingBare, 'x'),
    figure("sandbox requests per second / HMAC-verifying, JSON-parsing server's", servingFair, 'x', {
      text: '≥ 0.70x',
      met: (m) => m >= 0.7,
    }),
    ...(cpuFair.length === SERVING_TIMES
      ? [
          figure(
            "  the same in CPU time: the fair server's a request / the sandbox's",
            cpuFair.sort((a, b) => a - b),
            'x',
          ),
        ]
      : []),
  ];
}
const serving = await servingFigures();

latency.sort((a, b) => a - b);
const lines = [
  ...suiteFigures(),
  figure('Webhooks section alone, in-process (real retry waits)', webhookSeconds, ' s', undefined, 1),
  figure(`full run, 50 ms round trip / floor (${floorSeconds.toFixed(2)} s)`, latency, 'x', { text: '≤ 2.00x', met: (m) => m <= 2 }),
  ...[...byRuns].map(([runs, seconds]) =>
    figure(
      `svc-conformance run --runs ${runs} (embedded sandbox)`,
      seconds,
      ' s',
      runs === 500 ? { text: 'under 10 s', met: (m) => m < 10 } : runs === 20 ? { text: '≤ 3.0 s', met: (m) => m <= 3 } : undefined,
      1,
    ),
  ),
  figure('property checks at --runs 500 / at --runs 100 (linear: 5x)', growth, 'x', { text: '≤ 5.00x', met: (m) => m <= 5 }),
  ...serving,
];
console.log(lines.join('\n'));
