// Each kind of reproduce line a report gives is run as a person would paste it (bash, curl, openssl,
// svc-conformance from bin/) against the faulty sandbox it came from, and must show the same failure.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Evidence, Report } from '../core/report.js';
import { startSandbox, type FaultName, type StartOptions } from '../sandbox/index.js';
import { redactor } from '../suites/redact.js';
import { cliEnv, runCli, spawnAsync } from './cli-harness.js';

const BIN = fileURLToPath(new URL('../bin/svc-conformance.js', import.meta.url));
const closers: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** A folder whose svc-conformance runs bin/ with this node: put first on PATH, as an installed kit is. */
function kitOnPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-repro-bin-'));
  const launcher = join(dir, 'svc-conformance');
  writeFileSync(launcher, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(launcher, 0o755);
  // The shell's clock, injected: `date +%s` says $LINE_NOW when a test sets it, so a line run right
  // after the kit's own request does not fall into that request's second (a replay to the sandbox).
  const date = join(dir, 'date');
  writeFileSync(
    date,
    `#!/bin/sh\nif [ "$1" = +%s ] && [ -n "$LINE_NOW" ]; then echo "$LINE_NOW"; else exec ${JSON.stringify(which('date'))} "$@"; fi\n`,
  );
  chmodSync(date, 0o755);
  return dir;
}

function which(name: string): string {
  const found = ['/usr/bin', '/bin'].map((dir) => join(dir, name)).find((path) => existsSync(path));
  if (found === undefined) throw new Error(`no ${name} in /usr/bin or /bin`);
  return found;
}

/** A moment a few seconds from now, each call a later one: every line a second of its own, inside the window. */
let secondsAhead = 1;
function lineNow(): Record<string, string> {
  return { LINE_NOW: String(Math.floor(Date.now() / 1000) + secondsAhead++) };
}
const PATH_WITH_KIT = `${kitOnPath()}:${cliEnv().PATH}`;

/** Runs a reproduce line in bash without blocking the in-process sandbox that answers it. */
function bash(
  line: string,
  env: Record<string, string> = {},
  cwd = process.cwd(),
): Promise<{ code: number; stdout: string; stderr: string }> {
  return spawnAsync('bash', ['-c', line], { cwd, env: { PATH: PATH_WITH_KIT, ...env }, timeoutMs: 20_000 });
}

/** The HTTP status curl -i printed (the last one: curl shows a 100 Continue first, if any). */
function curlStatus(output: string): number | undefined {
  const statuses = [...output.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((m) => Number(m[1]));
  return statuses.at(-1);
}

/** Every HTTP status curl -i printed, in order. */
function curlStatuses(output: string): number[] {
  return [...output.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((m) => Number(m[1]));
}

/** A faulty sandbox on loopback, its config in a file; payouts settle at once to keep runs short. */
async function faultySandbox(options: StartOptions): Promise<{ dir: string; configFile: string; config: ReturnType<typeof JSON.parse> }> {
  const sandbox = await startSandbox({ port: 0, settleSeconds: 0, ...options });
  closers.push(sandbox.close);
  const dir = mkdtempSync(join(tmpdir(), 'svc-repro-'));
  const configFile = join(dir, 'target.json');
  // The webhook observation waits this long for retries (real seconds): the least the config allows.
  const config = { ...sandbox.config, profile: { ...sandbox.config.profile, webhooks: { retryWithinSeconds: 1 } } };
  writeFileSync(configFile, JSON.stringify(config));
  return { dir, configFile, config };
}

/** Runs one requirement against the target and returns its first evidence, which must be a failure. */
async function failureOf(t: { dir: string; configFile: string }, requirement: string): Promise<Evidence> {
  const result = await runCli(['run', '--config', t.configFile, '--only', requirement, '--runs', '1', '--report-dir', join(t.dir, 'out')]);
  expect(result.stderr).not.toMatch(/kit error/);
  const report = JSON.parse(readFileSync(join(t.dir, 'out', 'report.json'), 'utf8')) as Report;
  const r = report.requirements.find((q) => q.id === requirement);
  expect(r?.status, `${requirement} should fail against this sandbox`).toBe('failed');
  return r!.evidence[0]!;
}

/** The secrets a reproduce line reads from the environment, as the config holds them. */
function secretsOf(config: { merchant: { secretKey: string }; otherMerchant: { secretKey: string } }): Record<string, string> {
  return { SVC_SECRET_KEY: config.merchant.secretKey, SVC_OTHER_SECRET_KEY: config.otherMerchant.secretKey, ...lineNow() };
}

describe.concurrent('a plain failure: the curl line and the replay line send it again', () => {
  it('PAYOUT-UNKNOWN against payout-unknown-200: both get the 200 that failed it', async () => {
    const t = await faultySandbox({ faults: ['payout-unknown-200'] });
    const evidence = await failureOf(t, 'PAYOUT-UNKNOWN');
    expect(evidence.exchanges[0]?.response?.status).toBe(200);
    const { curl, replay } = evidence.reproduce!;
    expect(curl).toBeDefined();
    expect(replay).toBeDefined();
    const sent = await bash(curl!, secretsOf(t.config));
    expect(sent.stderr).toBe('');
    expect(curlStatus(sent.stdout), sent.stdout).toBe(200);
    // Sent again later: a recorded timestamp and signature would now be refused as a replay (401).
    const again = await bash(curl!, secretsOf(t.config));
    expect(curlStatus(again.stdout), again.stdout).toBe(200);
    const replayed = await bash(replay!.replace(/--config \S+/, `--config ${t.configFile}`));
    expect(replayed.stdout).toMatch(/^HTTP 200$/m);
  });
});

describe.concurrent('a request sent wrong on purpose: the curl line sends the same defect, and there is no replay line', () => {
  const cases: Array<[fault: FaultName, requirement: string, defect: (curl: string) => void]> = [
    ['auth-signature-prefix-compare', 'AUTH-SIGNATURE-TRUNCATED', (curl) => expect(curl).toContain('SIG=${SIG:0:32}')],
    ['auth-accept-missing-signature', 'AUTH-MISSING-SIGNATURE', (curl) => expect(curl).not.toMatch(/-H "?X-SIGNATURE/i)],
    ['auth-timestamp-search', 'AUTH-TIMESTAMP-CHANGED', (curl) => expect(curl).toContain('TS="$((NOW-5))"')],
    ['auth-accept-milliseconds', 'AUTH-TIMESTAMP-MILLISECONDS', (curl) => expect(curl).toContain('TS="$((NOW*1000+250))"')],
    ['auth-ignore-signature', 'AUTH-WRONG-SECRET', (curl) => expect(curl).toContain('$SVC_OTHER_SECRET_KEY')],
    ['auth-no-window', 'AUTH-WINDOW-EXPIRED', (curl) => expect(curl).toContain('TS="$((NOW-900))"')],
  ];
  it.each(cases)('%s (%s): the curl line is answered as the failing request was', async (fault, requirement, defect) => {
    const t = await faultySandbox({ faults: [fault] });
    const evidence = await failureOf(t, requirement);
    const { curl, replay } = evidence.reproduce!;
    expect(replay).toBeUndefined();
    defect(curl!);
    // The defect is shown, never a secret or a signature.
    expect(curl).not.toMatch(/[0-9a-f]{32}/i);
    for (const secret of Object.values(secretsOf(t.config))) expect(curl).not.toContain(secret);
    const sent = await bash(curl!, secretsOf(t.config));
    expect(sent.stderr).toBe('');
    expect(curlStatus(sent.stdout), sent.stdout).toBe(evidence.exchanges[0]!.response!.status);
    expect(curlStatus(sent.stdout)).not.toBe(401);
  });
});

/** Every failure of one requirement's evidence, by the check that saw it. */
async function failuresOf(t: { dir: string; configFile: string }, requirement: string): Promise<Map<string, Evidence>> {
  await failureOf(t, requirement);
  const report = JSON.parse(readFileSync(join(t.dir, 'out', 'report.json'), 'utf8')) as Report;
  return new Map(report.requirements.find((q) => q.id === requirement)!.evidence.map((e) => [e.check, e]));
}

describe.concurrent('a request that creates a record: the line sends it under a fresh id, so it is not refused as a duplicate', () => {
  it('AUTH-FAILURE-NO-EFFECT against auth-ignore-signature: Create Order and Transaction Initiation, altered, are taken again each time', async () => {
    const t = await faultySandbox({ faults: ['auth-ignore-signature'] });
    const evidence = await failuresOf(t, 'AUTH-FAILURE-NO-EFFECT');
    for (const [check, status] of [
      ['auth-failure-no-effect', 201],
      ['auth-failure-no-payout', 200],
    ] as const) {
      const { curl, replay } = evidence.get(check)!.reproduce!;
      expect(replay).toBeUndefined();
      expect(evidence.get(check)!.exchanges[0]!.response!.status).toBe(status);
      for (let time = 1; time <= 2; time++) {
        const sent = await bash(curl!, secretsOf(t.config));
        expect(sent.stderr).toBe('');
        expect(curlStatus(sent.stdout), `${check}, sent a ${time === 1 ? 'first' : 'second'} time: ${sent.stdout}`).toBe(status);
      }
    }
  });

  it('AUTH-FAILURE-NO-EFFECT against auth-failure-creates-order: the refused create, then the 409 it leaves, under one fresh order_id', async () => {
    const t = await faultySandbox({ faults: ['auth-failure-creates-order'] });
    const { curl, replay } = (await failuresOf(t, 'AUTH-FAILURE-NO-EFFECT')).get('auth-failure-no-effect')!.reproduce!;
    expect(replay).toBeUndefined();
    for (let time = 1; time <= 2; time++) {
      const sent = await bash(curl!, secretsOf(t.config));
      expect(sent.stderr).toBe('');
      expect(curlStatuses(sent.stdout), sent.stdout).toEqual([401, 409]);
    }
  });

  it('AUTH-FAILURE-NO-EFFECT against auth-ignore-signature: the altered Order Cancel acts on a fresh order the script creates first, not the one the run cancelled', async () => {
    const t = await faultySandbox({ faults: ['auth-ignore-signature'] });
    const { curl, replay } = (await failuresOf(t, 'AUTH-FAILURE-NO-EFFECT')).get('auth-failure-no-cancel')!.reproduce!;
    expect(replay).toBeUndefined();
    for (let time = 1; time <= 2; time++) {
      const sent = await bash(curl!, secretsOf(t.config));
      expect(sent.stderr).toBe('');
      // The create, then the cancel with the altered signature taken (200), not "already CANCELLED" (422).
      expect(curlStatuses(sent.stdout), sent.stdout).toEqual([201, 200]);
    }
  });

  it('a Create Order that failed otherwise: its replay line creates under a fresh order_id each time', async () => {
    const t = await faultySandbox({ faults: ['order-create-202'] });
    const evidence = await failureOf(t, 'ORDER-SUCCESS-STATUS');
    expect(evidence.exchanges[0]!.response!.status).toBe(202);
    const { replay, curl } = evidence.reproduce!;
    for (let time = 1; time <= 2; time++) {
      const replayed = await bash(replay!.replace(/--config \S+/, `--config ${t.configFile}`));
      expect(replayed.stdout, `sent a ${time === 1 ? 'first' : 'second'} time`).toMatch(/^HTTP 202$/m);
      const sent = await bash(curl!, secretsOf(t.config));
      expect(curlStatus(sent.stdout), sent.stdout).toBe(202);
    }
  });
});

/** A webhook receiver of the test's own, where the sandbox delivers once the run has given its registration back. */
async function ownReceiver(): Promise<{ url: string; received: Array<{ headers: IncomingHttpHeaders; event?: string }> }> {
  const received: Array<{ headers: IncomingHttpHeaders; event?: string }> = [];
  const listener = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      let event: string | undefined;
      try {
        event = (JSON.parse(body) as { event?: string }).event;
      } catch {
        event = undefined;
      }
      received.push({ headers: request.headers, ...(event !== undefined ? { event } : {}) });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => listener.close(() => resolve())));
  return { url: `http://127.0.0.1:${(listener.address() as AddressInfo).port}/hooks`, received };
}

/** Waits (5 s at most) until the receiver has a delivery the test is waiting for. */
async function until(found: () => boolean): Promise<void> {
  for (let waited = 0; !found() && waited < 50; waited++) await new Promise((r) => setTimeout(r, 100));
}

describe.concurrent('a webhook delivery: the trigger line makes the target send the same delivery again', () => {
  it('HOOK-EVENTS-FIRED against hook-silent-failures: the event that never came is triggered, and does not come again', async () => {
    const { url, received } = await ownReceiver();
    // No webhook URL registered after the run: the line's --to is what makes a delivery reach a receiver.
    const t = await faultySandbox({ faults: ['hook-silent-failures'] });
    const evidence = await failureOf(t, 'HOOK-EVENTS-FIRED');
    const { trigger, curl, replay } = evidence.reproduce!;
    // The requests that should have fired it would only be refused as duplicates now: no curl, no replay.
    expect(curl).toBeUndefined();
    expect(replay).toBeUndefined();
    expect(trigger).toMatch(/^svc-conformance trigger payout\.failed --config \S+ --to /m);
    const fired = await bash(trigger!.replace(/--config \S+/, `--config ${t.configFile}`).replace(/--to http\S+/, `--to ${url}`));
    expect(fired.code, fired.stderr).toBe(0);
    // A later event that does come, so the absence of the first is seen without waiting for a schedule.
    const control = await bash(`svc-conformance trigger payout.processing --config ${t.configFile} --to ${url}`);
    expect(control.code, control.stderr).toBe(0);
    await until(() => received.some((d) => d.event === 'payout.processing'));
    expect(received.map((d) => d.event)).toContain('payout.processing');
    expect(received.map((d) => d.event)).not.toContain('payout.failed');
  });

  it('HOOK-DELIVERY-HEADERS against hook-no-event-id: the delivery trigger causes lacks X-EVENT-ID too', async () => {
    const { url: webhookUrl, received: deliveries } = await ownReceiver();
    const received = {
      get length() {
        return deliveries.length;
      },
      at: (i: number) => deliveries.at(i)?.headers,
    };
    const t = await faultySandbox({ faults: ['hook-no-event-id'] });
    const evidence = await failureOf(t, 'HOOK-DELIVERY-HEADERS');
    const { trigger, curl, replay } = evidence.reproduce!;
    expect(curl).toBeUndefined();
    expect(replay).toBeUndefined();
    // The delivery as received is the evidence: the header the target left out is missing there.
    expect(Object.keys(evidence.exchanges[0]!.request.headers).map((h) => h.toLowerCase())).not.toContain('x-event-id');
    const before = received.length;
    const fired = await bash(trigger!.replace(/--config \S+/, `--config ${t.configFile}`).replace(/--to http\S+/, `--to ${webhookUrl}`));
    expect(fired.code, fired.stderr).toBe(0);
    await until(() => received.length > before);
    expect(received.length, `${trigger}\n${fired.stdout}${fired.stderr}`).toBeGreaterThan(before);
    expect(received.at(-1)!['x-signature']).toBeDefined();
    expect(received.at(-1)!['x-event-id']).toBeUndefined();
    // trigger put the registration back as it found it: none.
    const after = await bash(`svc-conformance trigger payout.processing --config ${t.configFile}`);
    expect(after.stderr).toMatch(/no webhook URL is registered/);
  });
});

describe.concurrent('the embedded sandbox: the cited config is in the report folder, and the serve line brings it back', () => {
  it('writes sandbox.json beside the reports, and `serve` on the printed line answers at its baseUrl again', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-repro-embedded-'));
    mkdirSync(join(cwd, 'out'));
    const result = await runCli(['run', '--only', 'AUTH-ACCEPT', '--runs', '1', '--report-dir', 'out'], { cwd, env: {} });
    expect(result.code).toBe(0);
    const written = join(cwd, 'out', 'sandbox.json');
    expect(existsSync(written)).toBe(true);
    // The demo keys are public, but a report folder is uploaded and scanned: the file names them redacted.
    const config = JSON.parse(readFileSync(written, 'utf8'));
    expect(config.merchant.secretKey).toMatch(/^\[redacted/);
    const serveLine = /`(svc-conformance serve --port \d+ --config-out out\/sandbox\.json)`/.exec(result.stdout)?.[1];
    expect(serveLine, result.stdout).toBeDefined();
    // The embedded sandbox stopped with the run: nothing answers at the cited baseUrl until serve runs.
    const replay = `svc-conformance replay --config out/sandbox.json --path /api/v3/banking/payment/status --body '{"svc_wallet_id":"${config.merchant.walletId}","debit_account_type":"svc_wallet","payout_order_id":"${config.fixtures.payouts.SUCCESS}"}'`;
    expect((await bash(replay, {}, cwd)).stdout).not.toMatch(/^HTTP 200$/m);
    const serve = spawn('bash', ['-c', `exec ${serveLine} --quiet`], {
      cwd,
      env: { PATH: PATH_WITH_KIT },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    closers.push(() => void serve.kill('SIGTERM'));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      serve.stdout.on('data', (chunk) => (out += chunk) && /\n}\n$/.test(out) && resolve());
      serve.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    // serve wrote the same config, its keys put back: replay signs with them.
    const whole = JSON.parse(readFileSync(written, 'utf8'));
    expect(JSON.parse(redactor(whole)(JSON.stringify(whole)))).toEqual(config);
    expect((await bash(replay, {}, cwd)).stdout).toMatch(/^HTTP 200$/m);
  });
});

// Last and one test at a time (the groups above run at once, each mostly waiting on its child
// processes and the webhook observation): the script's curls must overlap on their own, not beside the other tests' work.
describe('a race: the script sends the raced requests at once again, so the race can show', () => {
  // The script's curls are processes of their own, started one after another: the faults' window is
  // widened from 5 ms so that they overlap on a loaded machine too (the race is the fault's, not timing luck).
  const RACE_WINDOW_MS = 300;

  /** Runs the script until the race shows, four times at most (it need not show on every try); each try's statuses. */
  async function tries(curl: string, config: Parameters<typeof secretsOf>[0], shown: (statuses: number[]) => boolean): Promise<number[][]> {
    const seen: number[][] = [];
    while (seen.length < 4 && !seen.some(shown)) {
      const sent = await bash(curl, secretsOf(config));
      expect(sent.stderr).toBe('');
      seen.push(curlStatuses(sent.stdout));
    }
    return seen;
  }

  it.each([
    ['dup-race', 'DUP-CONCURRENT', 201],
    ['ops-initiate-race', 'OPS-INITIATE-CONCURRENT', 200],
  ] as Array<[FaultName, string, number]>)(
    '%s (%s): the 8 creates under one fresh id, more than one of them taken',
    async (fault, requirement, success) => {
      const t = await faultySandbox({ faults: [fault], raceWindowMs: RACE_WINDOW_MS });
      const evidence = await failureOf(t, requirement);
      const { curl, replay } = evidence.reproduce!;
      expect(replay).toBeUndefined();
      const raced = (statuses: number[]) => statuses.filter((s) => s === success).length > 1;
      const seen = await tries(curl!, t.config, raced);
      for (const statuses of seen) expect(statuses).toHaveLength(8);
      expect(seen.some(raced), JSON.stringify(seen)).toBe(true);
    },
  );

  it('ops-cancel-race (OPS-CANCEL-CONCURRENT): a fresh order created first, then the 8 cancels of it at once, more than one answered 200', async () => {
    const t = await faultySandbox({ faults: ['ops-cancel-race'], raceWindowMs: RACE_WINDOW_MS });
    const { curl, replay } = (await failureOf(t, 'OPS-CANCEL-CONCURRENT')).reproduce!;
    expect(replay).toBeUndefined();
    const raced = (statuses: number[]) => statuses.slice(1).filter((s) => s === 200).length > 1;
    const seen = await tries(curl!, t.config, raced);
    for (const statuses of seen) expect(statuses[0]).toBe(201);
    for (const statuses of seen) expect(statuses).toHaveLength(9);
    expect(seen.some(raced), JSON.stringify(seen)).toBe(true);
  });
});
