// The receiver corpus (examples/receivers): the conforming receivers pass verify-receiver --strict,
// and each broken one fails exactly the requirements of the one rule it breaks. Each receiver is a
// real process on loopback, judged by the command in-process; the command's refusals follow.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock, type ManualClock } from '../core/clock-test-support.js';
import type { Report } from '../core/report.js';
import { ACK_WITHIN_MS } from '../core/webhooks.js';
import { MERCHANT_A, MERCHANT_A_LIVE, MERCHANT_B } from '../sandbox/tenants.js';
import { createServer } from 'node:net';
import { runBinAsync, runCli } from './cli-harness.js';

const ROOT = new URL('..', import.meta.url).pathname;
const running: ChildProcess[] = [];
afterAll(() => running.forEach((child) => child.kill('SIGKILL')));

/** Starts an example receiver on a free port; resolves to its URL once it says it listens. */
function startReceiver(command: string[]): Promise<string> {
  const child = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', SVC_SECRET_KEY: MERCHANT_A.secretKey, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.on('exit', (code) => reject(new Error(`${command.join(' ')} exited ${code}: ${err}`)));
  });
}

/** The genuine events the judge delivers at once (the redelivery follows only an acknowledgement). */
const GENUINE_DELIVERIES = 4;

/**
 * Closes the acknowledgement window on `clock` once only the genuine deliveries are still waiting
 * for their answer (every forgery answered, its window abandoned): a receiver that holds them past
 * 10 s is judged without the test waiting 10 real seconds.
 */
async function closeWindowWhenOnlyGenuineWait(clock: ManualClock): Promise<void> {
  const giveUpAt = Date.now() + 15_000;
  while (clock.sleeping !== GENUINE_DELIVERIES) {
    if (Date.now() > giveUpAt)
      throw new Error(`${clock.sleeping} deliveries wait for an answer, not the ${GENUINE_DELIVERIES} genuine ones`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await clock.advance(ACK_WITHIN_MS);
}

async function verifyReceiver(
  url: string,
  strict: boolean,
  clock?: ManualClock,
): Promise<{ code: number; report: Report; output: string; files: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-receiver-'));
  const judging = runCli(['verify-receiver', ...(strict ? ['--strict'] : []), '--url', url, '--report-dir', dir], {
    ...(clock !== undefined ? { clock } : {}),
  });
  if (clock !== undefined) await closeWindowWhenOnlyGenuineWait(clock);
  const result = await judging;
  const files = readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  return {
    code: result.code,
    report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report,
    output: result.stdout + result.stderr,
    files,
  };
}

const failed = (report: Report) =>
  report.requirements
    .filter((r) => r.status === 'failed')
    .map((r) => r.id)
    .sort();

/** `onManualClock`: judged on a clock the test moves (the receiver's defect is a schedule). */
const CORPUS: Array<{ file: string; command: string[]; rule?: string; fails: string[]; onManualClock?: true }> = [
  { file: 'good-receiver.mjs', command: ['node', 'examples/receivers/good-receiver.mjs'], fails: [] },
  { file: 'good_receiver.py', command: ['python3', 'examples/receivers/good_receiver.py'], fails: [] },
  {
    file: 'any-signature-receiver.mjs',
    command: ['node', 'examples/receivers/any-signature-receiver.mjs'],
    rule: 'P-HOOK-7',
    fails: ['RECEIVER-REFUSE-OTHER-SECRET', 'RECEIVER-REFUSE-SIGNATURE'],
  },
  {
    file: 'no-window-receiver.py',
    command: ['python3', 'examples/receivers/no-window-receiver.py'],
    rule: 'P-HOOK-7',
    fails: ['RECEIVER-REFUSE-TIMESTAMP'],
  },
  {
    file: 'reserializing-receiver.py',
    command: ['python3', 'examples/receivers/reserializing-receiver.py'],
    rule: 'P-HOOK-6',
    fails: ['RECEIVER-ACK'],
  },
  {
    file: 'redelivery-409-receiver.mjs',
    command: ['node', 'examples/receivers/redelivery-409-receiver.mjs'],
    rule: 'P-HOOK-8',
    fails: ['RECEIVER-REDELIVERY'],
  },
  {
    file: 'slow-ack-receiver.mjs',
    command: ['node', 'examples/receivers/slow-ack-receiver.mjs'],
    rule: 'P-HOOK-6',
    fails: ['RECEIVER-ACK-FAST', 'RECEIVER-ACK-IN-TIME'],
    onManualClock: true,
  },
];

describe.concurrent('verify-receiver on the example receivers', () => {
  for (const example of CORPUS) {
    const good = example.fails.length === 0;
    it(`${example.file}: ${good ? 'CONFORMANT under --strict' : `fails ${example.rule} only (${example.fails.join(', ')})`}`, async () => {
      const url = await startReceiver(example.command);
      const clock = example.onManualClock ? manualClock() : undefined;
      const { code, report, output, files } = await verifyReceiver(url, good, clock);
      expect(failed(report), output).toEqual(example.fails);
      expect(code).toBe(good ? 0 : 1);
      expect(report.verdict).toBe(good ? 'conformant' : 'not-conformant');
      expect(report.receiver).toMatchObject({ url, deliveries: expect.any(Number) });
      for (const id of example.fails) expect(report.requirements.find((r) => r.id === id)!.profile).toContain(example.rule);
      // P-HOOK-9 is for verify-client to judge (not in this command's catalog); everything else was judged.
      expect(report.requirements.map((r) => r.id)).not.toContain('RECEIVER-CONFIRMS-STATUS');
      expect(
        report.requirements
          .filter((r) => r.status === 'skipped')
          .map((r) => r.id)
          .sort(),
      ).toEqual(example.file.startsWith('slow') ? ['RECEIVER-ACK', 'RECEIVER-REDELIVERY'] : []);
      if (good) expect(report.coverage).toEqual({ judged: 9, total: 9, notJudged: [] });
      for (const secret of [MERCHANT_A.secretKey, MERCHANT_B.secretKey, MERCHANT_A_LIVE.secretKey]) {
        expect(output + files).not.toContain(secret);
        expect(output + files).not.toContain(Buffer.from(secret).toString('base64'));
      }
    }, 30_000);
  }
});

describe('verify-receiver refuses, exit 2 in one line', () => {
  it('when nothing listens at the URL, or the URL is not one (verify-client --webhook-url too)', async () => {
    const nothing = await runCli([
      'verify-receiver',
      '--url',
      'http://127.0.0.1:9/webhooks',
      '--report-dir',
      mkdtempSync(join(tmpdir(), 'svc-receiver-')),
    ]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toBe(
      'svc-conformance verify-receiver: nothing listens at http://127.0.0.1:9/webhooks (connection refused); start the receiver first, or check the URL\n',
    );
    const ftp = await runCli(['verify-receiver', '--url', 'ftp://127.0.0.1/x']);
    expect(ftp).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^svc-conformance verify-receiver: --url cannot be used: it is ftp, not http or https/),
    });
    const userinfo = await runCli([
      'verify-client',
      '--webhook-url',
      'http://admin:hunter2@127.0.0.1:4020/webhooks',
      '--',
      'node',
      '-e',
      '',
    ]);
    expect(userinfo).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^svc-conformance verify-client: --webhook-url cannot be used: it carries a user name or password/),
    });
    expect(userinfo.stderr + userinfo.stdout).not.toContain('hunter2');
    const plain = await startReceiver(['node', 'examples/receivers/good-receiver.mjs']);
    const tls = await runCli([
      'verify-receiver',
      '--url',
      plain.replace('http:', 'https:'),
      '--report-dir',
      mkdtempSync(join(tmpdir(), 'svc-receiver-')),
    ]);
    expect(tls).toMatchObject({
      code: 2,
      stderr: `svc-conformance verify-receiver: ${plain.replace('http:', 'https:')} answers, but no TLS handshake: is the URL http?\n`,
    });
    const missing = await runCli(['verify-receiver']);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringMatching(/--url URL is required/) });
  });
});

/** A port nothing listens on now (the receiver takes it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function verifyClientReceiver(command: string[], strict = true): Promise<{ code: number; report: Report; output: string }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-client-receiver-'));
  const url = `http://127.0.0.1:${port}/webhooks`;
  const result = await runBinAsync(
    ['verify-client', ...(strict ? ['--strict'] : []), '--report-dir', dir, '--webhook-url', url, '--', 'env', `PORT=${port}`, ...command],
    { cwd: ROOT, timeoutMs: 60_000 },
  );
  return {
    code: result.code,
    report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report,
    output: result.stdout + result.stderr,
  };
}

describe.concurrent('verify-client --webhook-url: the receiver a client starts, and whether it confirms before acting (P-HOOK-9)', () => {
  it('good-receiver.mjs: starts a payout, confirms every event with Payout Status, CONFORMANT under --strict', async () => {
    const { code, report, output } = await verifyClientReceiver(['node', 'examples/receivers/good-receiver.mjs']);
    expect(failed(report), output).toEqual([]);
    expect(code).toBe(0);
    expect(report.requirements.find((r) => r.id === 'RECEIVER-CONFIRMS-STATUS')?.status).toBe('passed');
    expect(report.requirements.find((r) => r.id === 'RECEIVER-REFUSE-SIGNATURE')?.status).toBe('passed');
    expect(output).toMatch(/\[sandbox\] \S+ webhook payout\.success evt_\S+ attempt 1 200 \d+ms/);
    expect(output).not.toContain(MERCHANT_A.secretKey);
  }, 60_000);

  it('trusting-receiver.mjs: acts on the events without asking; fails P-HOOK-9 (and with it P-CLIENT-8), SHOULD rules', async () => {
    const { code, report, output } = await verifyClientReceiver(['node', 'examples/receivers/trusting-receiver.mjs']);
    expect(failed(report), output).toEqual(['CLIENT-VERIFY-PAYOUT', 'RECEIVER-CONFIRMS-STATUS']);
    expect(
      report.requirements.find((r) => r.id === 'RECEIVER-CONFIRMS-STATUS')?.evidence[0]?.exchanges[0]?.request.headers['X-SIGNATURE'],
    ).toBe('[redacted]');
    expect(code).toBe(1);
  }, 60_000);

  it("good_receiver.py: confirms the kit's events; with no payout of its own, P-HOOK-9 has nothing to judge", async () => {
    const { code, report, output } = await verifyClientReceiver(['python3', 'examples/receivers/good_receiver.py']);
    expect(failed(report), output).toEqual([]);
    expect(code).toBe(0);
    expect(report.requirements.find((r) => r.id === 'RECEIVER-CONFIRMS-STATUS')?.status).toBe('skipped');
  }, 60_000);

  it('exit 2 in one line when the client ends before anything listens at the URL, or something else already listens there', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/webhooks`;
    const ended = await runBinAsync(['verify-client', '--webhook-url', url, '--', 'node', '-e', ''], { cwd: ROOT, timeoutMs: 30_000 });
    expect(ended.code).toBe(2);
    expect(ended.stderr).toBe(
      `svc-conformance verify-client: the client ended before anything listened at ${url}; does COMMAND start the receiver, on the port of --webhook-url?\n`,
    );
    // A receiver left over from an earlier run would be judged in place of COMMAND's own.
    const stale = await startReceiver(['node', 'examples/receivers/good-receiver.mjs']);
    const taken = await runBinAsync(
      ['verify-client', '--webhook-url', stale, '--', 'node', 'examples/receivers/any-signature-receiver.mjs'],
      { cwd: ROOT, timeoutMs: 30_000 },
    );
    expect(taken.code).toBe(2);
    expect(taken.stderr).toBe(
      `svc-conformance verify-client: something already listens at ${stale} before COMMAND started; stop it, or give COMMAND and --webhook-url another port\n`,
    );
  }, 60_000);
});
