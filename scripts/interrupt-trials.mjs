// Issue 40's reproduction of interrupted and frequent runs: one `serve`, N runs of the whole suite each
// interrupted (SIGINT and SIGTERM in turn) at a point drawn from the seed, then M clean runs.
// Says after each whether the merchant's webhook registration is the one before the run, and the verdicts.
// Usage: node scripts/interrupt-trials.mjs [TRIALS=14] [CLEAN=3] [SEED] [path/to/bin/svc-conformance.js]
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [trialsText = '14', cleanText = '3', seedText, binPath] = process.argv.slice(2);
const bin = binPath ?? fileURLToPath(new URL('../bin/svc-conformance.js', import.meta.url));
let seed = Number(seedText ?? Date.now() % 100_000);
console.log(`seed ${seed}`);
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
const dir = mkdtempSync(join(tmpdir(), 'interrupt-trials-'));
const EARLIER = 'http://127.0.0.1:9/earlier-receiver';

const serve = spawn(process.execPath, [bin, 'serve', '--quiet', '--config-out', join(dir, 's.json')], {
  stdio: ['ignore', 'pipe', 'ignore'],
});
await new Promise((resolve) => {
  let out = '';
  serve.stdout.on('data', (chunk) => ((out += chunk), /\n}\n$/.test(out) && resolve()));
});
const config = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));

/** The registration control request, its timestamp 30-230 s ahead (a run never sends one): it takes no run's pair. */
const sent = new Set();
async function control(payload) {
  const body = JSON.stringify(payload);
  for (let i = 0; i < 20; i++) {
    const timestamp = String(Math.floor(Date.now() / 1000) + 30 + Math.floor(random() * 200));
    if (sent.has(timestamp + body)) continue;
    sent.add(timestamp + body);
    const answer = await fetch(`${config.baseUrl}/sandbox/webhooks`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-API-KEY': config.merchant.apiKey,
        'X-TIMESTAMP': timestamp,
        'X-SIGNATURE': createHmac('sha256', config.merchant.secretKey)
          .update(body + timestamp)
          .digest('hex'),
      },
      body,
    });
    if (answer.status === 200) return (await answer.json()).data.url;
  }
  throw new Error('the control request was refused 20 times');
}

function run() {
  const args = ['run', '--config', join(dir, 's.json'), '--report-dir', join(dir, 'out')];
  const kit = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  kit.stdout.on('data', (chunk) => (stdout += chunk));
  kit.stderr.on('data', (chunk) => (stderr += chunk));
  return { kit, ended: new Promise((resolve) => kit.on('close', (code, by) => resolve({ code: code ?? by, stdout, stderr }))) };
}

let wrong = 0;
const trials = Number(trialsText);
for (let i = 1; i <= trials; i++) {
  await control({ url: EARLIER });
  const { kit, ended } = run();
  const at = 500 + Math.floor(random() * 7500);
  const signal = i % 2 === 1 ? 'SIGINT' : 'SIGTERM';
  const timer = setTimeout(() => kit.kill(signal), at);
  const { code, stderr } = await ended;
  clearTimeout(timer);
  const now = await control({});
  if (now !== EARLIER) wrong += 1;
  const line = stderr.split('\n').find((l) => l.includes('interrupted')) ?? '(ended before the signal)';
  console.log(`trial ${i}: ${signal} at ${at} ms, exit ${code}, registration ${now === EARLIER ? 'as before' : `WRONG: ${now}`}; ${line}`);
}
console.log(`${wrong} of ${trials} interrupted runs left the registration wrong`);
for (let i = 1; i <= Number(cleanText); i++) {
  await control({ url: EARLIER });
  const { code, stdout } = await run().ended;
  const verdict = stdout.split('\n').find((l) => /CONFORMANT|INCONCLUSIVE/.test(l)) ?? '';
  const failed = [...stdout.matchAll(/^ {2}✗ ([A-Z0-9]+-[A-Z0-9-]+)/gm)].map((m) => m[1]);
  const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
  const notJudged = report.requirements.filter((r) => r.status === 'skipped').map((r) => `${r.id} (${r.skipReason.slice(0, 60)}…)`);
  console.log(`clean run ${i}: exit ${code} ${verdict.trim()} ${failed.join(' ')}\n  not judged: ${notJudged.join(', ')}`);
}
serve.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
