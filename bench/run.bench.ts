// npm run bench (part 2): `svc-conformance run` on the embedded sandbox, and against a target 50 ms
// away (a loopback proxy) beside its floor: requests / concurrency × round trip.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../sandbox/index.js';
import { startDelayProxy } from './delay-proxy.js';
import { figure, repeat, type Target } from './stats.js';

const BIN = fileURLToPath(new URL('../../bin/svc-conformance.js', import.meta.url));
const TIMES = 3;
const CONCURRENCY = 8;
const ONE_WAY_MS = 25;

/** Seconds `svc-conformance run` takes with these arguments; a run that is not conformant fails the bench. */
async function run(args: string[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const started = performance.now();
  // Not spawnSync: the remote run's sandbox and proxy live in this process's event loop.
  const child = spawn(process.execPath, [BIN, 'run', '--seed', '1', '--report-dir', dir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`svc-conformance run ${args.join(' ')} exited ${code}:\n${output}`);
  return (performance.now() - started) / 1000;
}

/** A full run against the sandbox behind the delay proxy, as a multiple of its floor; the webhooks and the
 *  revisit aside, as both wait on purpose (issue 42's measure). */
async function remoteRun(): Promise<{ ratio: number; floorSeconds: number }> {
  let requests = 0;
  const sandbox = await startSandbox({ port: 0, record: () => requests++ });
  const proxy = await startDelayProxy(sandbox.baseUrl, ONE_WAY_MS);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-config-'));
  try {
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ ...sandbox.config, baseUrl: proxy.baseUrl }));
    const seconds = await run(['--config', config, '--concurrency', String(CONCURRENCY), '--skip', 'HOOK-,revisit-']);
    const floorSeconds = ((requests / CONCURRENCY) * 2 * ONE_WAY_MS) / 1000;
    return { ratio: seconds / floorSeconds, floorSeconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await proxy.close();
    await sandbox.close();
  }
}

const runs20 = await repeat(TIMES, () => run(['--runs', '20']));
const runs500 = await repeat(TIMES, () => run(['--runs', '500']));
const remote: Array<{ ratio: number; floorSeconds: number }> = [];
const ratios = await repeat(TIMES, async () => {
  const measured = await remoteRun();
  remote.push(measured);
  return measured.ratio;
});
const floor = remote[0]!.floorSeconds;
const WITHIN_1_5X: Target = { text: '≤ 1.50x', met: (m) => m <= 1.5 };

console.log(
  [
    figure('svc-conformance run --runs 20 (embedded sandbox)', runs20, ' s', { text: '≤ 3.0 s', met: (m) => m <= 3 }, 1),
    figure('svc-conformance run --runs 500 (embedded sandbox)', runs500, ' s', { text: 'under 10 s', met: (m) => m < 10 }, 1),
    figure(`run, 50 ms round trip / floor (${floor.toFixed(2)} s), webhooks and revisit aside`, ratios, 'x', WITHIN_1_5X),
  ].join('\n'),
);
