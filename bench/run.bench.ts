// npm run bench (part 2): a full default run of the suites against the embedded sandbox, and a bare
// undici loop sending the same requests, in the same process. The ratio is the suite's overhead:
// vitest, checks, evidence, observers and the report.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { buildReport } from '../reports/build.js';
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import type { RecordedExchange } from '../sandbox/options.js';
import { catalog } from '../suites/catalog.js';
import type { TargetConfig } from '../suites/config.js';
import { runNumberAt } from '../suites/ids.js';
import { runSuites } from '../suites/run.js';
import type { Check } from '../suites/check.js';
import { createRunState, executeCheck, newMeta } from '../suites/context.js';

const BIN = fileURLToPath(new URL('../../bin/svc-conformance.js', import.meta.url));

// 1. What a user sees: `svc-conformance run` with no target, wall clock, default settings.
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const started = performance.now();
const cli = spawnSync(process.execPath, [BIN, 'run', '--seed', '1', '--report-dir', dir], { encoding: 'utf8' });
const cliSeconds = (performance.now() - started) / 1000;
if (cli.status !== 0) throw new Error(`the default run did not pass:\n${cli.stdout}\n${cli.stderr}`);

// 2. The suite in-process, recording every request the sandbox receives. Payouts settle at once
//    here, so waiting for a settlement does not count as overhead.
const recorded: RecordedExchange[] = [];
const suiteTarget = await startSandbox({ port: 0, settleSeconds: 0, record: (x) => recorded.push(x) });
const suiteStart = performance.now();
const suiteRun = await runSuites(settingsFor(suiteTarget), () => {});
buildReport({
  results: suiteRun.results, catalog: catalog(), target: { baseUrl: suiteTarget.baseUrl, environment: 'sandbox', embeddedSandbox: true },
  seed: 1, runNumber: 0, runs: 20, strict: false, startedAt: new Date(), durationMs: 0, version: 'bench',
});
const suiteMs = performance.now() - suiteStart;
await suiteTarget.close();

// 2b. The same checks without vitest, to split the overhead into vitest's start-up and the checks' own.
const directTarget = await startSandbox({ port: 0, settleSeconds: 0 });
const directStart = performance.now();
const sections = ['authentication', 'signature', 'environments', 'errors', 'orders', 'duplicates', 'payouts', 'operations'];
const modules = await Promise.all(sections.map((name) => import(`../suites/checks/${name}.js`) as Promise<Record<string, unknown>>));
const checks = modules.flatMap((m) => Object.values(m).find(Array.isArray) as Check[]);
const state = createRunState(settingsFor(directTarget));
for (const check of checks) await executeCheck(check, state, newMeta(check));
const directMs = performance.now() - directStart;
await state.client.close();
await directTarget.close();

// 3. A bare undici loop sending the same requests, one after another, to a fresh sandbox.
const loopTarget = await startSandbox({ port: 0, settleSeconds: 0 });
const agent = new Agent({ connections: 8 });
const loopStart = performance.now();
for (const x of recorded) {
  const response = await request(loopTarget.baseUrl + x.path, {
    method: x.method as 'POST',
    headers: Object.fromEntries(x.headers.filter(([name]) => name !== 'host' && name !== 'content-length')),
    ...(x.method === 'GET' ? {} : { body: x.body }),
    dispatcher: agent,
  });
  await response.body.text();
}
const loopMs = performance.now() - loopStart;
await agent.close();
await loopTarget.close();

console.log(`full default run (svc-conformance run, embedded sandbox)   ${cliSeconds.toFixed(1)} s   (target: under 60 s)`);
console.log(`suite in-process, ${recorded.length} requests                       ${suiteMs.toFixed(0).padStart(6)} ms`);
console.log(`bare undici loop, same ${recorded.length} requests                  ${loopMs.toFixed(0).padStart(6)} ms`);
console.log(`ratio suite / loop                                        ${(suiteMs / loopMs).toFixed(2)}x   (target: under 1.50x)`);
console.log(`  of which the checks without vitest                        ${directMs.toFixed(0).padStart(6)} ms = ${(directMs / loopMs).toFixed(2)}x the loop`);
console.log(`  and vitest's start-up, worker and per-test reporting      ${(suiteMs - directMs).toFixed(0).padStart(6)} ms`);

function settingsFor(sandbox: RunningSandbox) {
  return { config: sandbox.config as TargetConfig, seed: 1, runs: 20, runNumber: runNumberAt(Date.now()), allowProduction: false, timeoutMs: 10_000 };
}
