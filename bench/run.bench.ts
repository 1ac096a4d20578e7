// npm run bench (part 2): a full default run of the suites against the embedded sandbox, and a bare
// undici loop sending the same requests, in the same process. The ratio is the suite's overhead:
// the runner, checks, evidence, observers and the report.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { buildReport } from '../core/verdict.js';
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import type { RecordedExchange } from '../sandbox/options.js';
import { catalog } from '../suites/catalog.js';
import type { TargetConfig } from '../suites/config.js';
import { runNumberAt } from '../suites/ids.js';
import { runChecks } from '../suites/runner.js';
import { SECTIONS } from '../suites/sections.js';

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
const results = await runChecks(settingsFor(suiteTarget), SECTIONS);
buildReport({
  results, catalog: catalog(), target: { baseUrl: suiteTarget.baseUrl, environment: 'sandbox', embeddedSandbox: true },
  seed: 1, runNumber: 0, runs: 20, strict: false, startedAt: new Date(), durationMs: 0, version: 'bench',
});
const suiteMs = performance.now() - suiteStart;
await suiteTarget.close();

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

function settingsFor(sandbox: RunningSandbox) {
  return { config: sandbox.config as TargetConfig, seed: 1, runs: 20, runNumber: runNumberAt(Date.now()), allowProduction: false, timeoutMs: 10_000 };
}
