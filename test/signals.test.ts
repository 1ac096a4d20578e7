// Ctrl-C and kill (issue 22, point 1). Before: verify-client interrupted exited 130 with the client,
// its child and its listener still running (the port held); run interrupted left the target's
// webhook registration pointing at the kit's dead receiver, and the previous run's reports in the
// folder, still verifying. After: what a command holds is undone, one line says what, exit 130.
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InterruptSignal } from '../cli/interrupt.js';
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import { MERCHANT_A } from '../sandbox/tenants.js';
import { BIN, cliEnv, runCli } from './cli-harness.js';

/** What tests started: each is ended after its test, whatever happened in it. */
interface Leftovers {
  kits: ChildProcess[];
  scratches: string[];
}
/** The sequential tests' leftovers, ended after each of them. */
const sequential: Leftovers = { kits: [], scratches: [] };
afterEach(() => endLeftovers(sequential));

/**
 * A concurrent test's own leftovers, ended when it finishes: the file's afterEach would end those of
 * the tests still running beside it.
 */
function ownLeftovers(onTestFinished: (end: () => void) => void): Leftovers {
  const own: Leftovers = { kits: [], scratches: [] };
  onTestFinished(() => endLeftovers(own));
  return own;
}

const scratch = (leftovers: Leftovers = sequential) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-signals-'));
  leftovers.scratches.push(dir);
  return dir;
};

const spawnKit = (args: string[], cwd: string, leftovers: Leftovers = sequential): ChildProcessByStdio<null, Readable, Readable> => {
  const kit = spawn(process.execPath, [BIN, ...args], { cwd, env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  leftovers.kits.push(kit);
  return kit;
};

// Whatever a test left running goes with it, also when the kit's own cleanup failed (the case under
// test): the kit, then each client's process group (the kit starts it as a group of its own, so its
// id is the client's pid) and the client's child, by the ids the client wrote first thing.
function endLeftovers({ kits, scratches }: Leftovers): void {
  for (const kit of kits.splice(0)) if (kit.exitCode === null && kit.signalCode === null) kit.kill('SIGKILL');
  for (const dir of scratches.splice(0)) {
    let pids: number[];
    try {
      pids = readFileSync(join(dir, 'client.pids'), 'utf8').trim().split(' ').map(Number);
    } catch {
      continue;
    }
    const [client, child] = pids;
    for (const target of [-client!, client!, child!]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Already gone: the kit's cleanup worked.
      }
    }
  }
}

/**
 * A client that starts a child (one that ignores SIGTERM, so only the kit's SIGKILL ends it) and a
 * listener, says so, and then waits: what a backend script that runs a worker and a server does.
 * It writes its and its child's ids first, so the test can end them whatever the kit does.
 */
const CLIENT = `
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
writeFileSync('client.pids', process.pid + ' ' + child.pid);
const server = createServer((req, res) => res.end('busy')).listen(0, '127.0.0.1', () => {
  console.log('ready child=' + child.pid + ' port=' + server.address().port);
});
`;

/** Gone, or a zombie nobody reaped yet (this container's PID 1 does not reap orphans): it runs no more. */
function stillRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Whether nothing listens on the port any more (a connection is refused). Not "can the test listen on it
 *  again": once freed, an ephemeral port may be taken at once by another test's outgoing connection. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolvePort) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolvePort(false)));
    socket.once('error', () => resolvePort(true));
  });
}

/** verify-client of `client` in a scratch folder, the built CLI as a real process, until the client says ready. */
async function verifyClientStarted(client: string, leftovers: Leftovers) {
  const dir = scratch(leftovers);
  writeFileSync(join(dir, 'client.mjs'), client);
  const kit = spawnKit(['verify-client', '--report-dir', 'out', '--', process.execPath, 'client.mjs'], dir, leftovers);
  let stdout = '';
  let stderr = '';
  kit.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    kit.on('exit', (code, by) => resolveExit({ code, signal: by })),
  );
  const ready = await new Promise<{ child: number; port: number }>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`the client did not say ready within 10 s:\n${stdout}\n${stderr}`)), 10_000);
    kit.stdout.on('data', (chunk) => {
      stdout += chunk;
      const seen = /ready child=(\d+) port=(\d+)/.exec(stdout);
      if (seen) {
        clearTimeout(timer);
        resolveReady({ child: Number(seen[1]), port: Number(seen[2]) });
      }
    });
  });
  expect(stillRuns(ready.child)).toBe(true);
  expect(await portFree(ready.port)).toBe(false);
  return { dir, kit, exited, ready, stdout: () => stdout, stderr: () => stderr };
}

// Each test's kit, client and child are its own processes in a folder of its own: they run at once, so
// the kit's 2 s grace before SIGKILL (the child ignores SIGTERM) is waited once, not once per test.
describe.concurrent('verify-client interrupted, the built CLI as a real process', () => {
  // SIGHUP is the terminal closed under the kit. Before: Node's default, death by SIGHUP, the client left running.
  it.for<[NodeJS.Signals, number]>([
    ['SIGINT', 130],
    ['SIGTERM', 130],
    ['SIGHUP', 129],
  ])(
    "%s: exit %i, the client's child and its listener gone, one line saying so",
    { timeout: 20_000 },
    async ([signal, status], { onTestFinished }) => {
      const { dir, kit, exited, ready, stdout, stderr } = await verifyClientStarted(CLIENT, ownLeftovers(onTestFinished));
      const sentAt = Date.now();
      kit.kill(signal);
      const timer = setTimeout(() => kit.kill('SIGKILL'), 10_000);
      const { code } = await exited;
      clearTimeout(timer);
      expect(code).toBe(status);
      expect(Date.now() - sentAt).toBeLessThan(6_000);
      expect(stderr()).toContain(
        `svc-conformance verify-client: interrupted (${signal}): stopped the client's process group, closed the recording sandbox, left no reports in out\n`,
      );
      expect(stillRuns(ready.child)).toBe(false);
      expect(await portFree(ready.port)).toBe(true);
      // No verdict of an interrupted run, on the console or on disk.
      expect(stdout()).not.toMatch(/conformant/);
      expect(existsSync(join(dir, 'out', 'report.json'))).toBe(false);
    },
  );

  // `verify-client -- ./backend.sh | head -1`. Before: exit 0 without a verdict, and the client's
  // listener and its TERM-ignoring child left running. 141 is what `| head` gives any Unix tool.
  it('its output closed (EPIPE): exit 141, the same cleanup, one line saying so', async ({ onTestFinished }) => {
    // A client that keeps talking, as backends do: the kit passes it on, and so writes to the closed pipe.
    const { dir, kit, exited, ready, stdout, stderr } = await verifyClientStarted(
      CLIENT + "setInterval(() => console.log('working'), 50);\n",
      ownLeftovers(onTestFinished),
    );
    kit.stdout.destroy();
    const timer = setTimeout(() => kit.kill('SIGKILL'), 10_000);
    const { code } = await exited;
    clearTimeout(timer);
    expect(code).toBe(141);
    expect(stderr()).toContain(
      "svc-conformance verify-client: interrupted (EPIPE: its output was closed): stopped the client's process group, closed the recording sandbox, left no reports in out\n",
    );
    expect(stillRuns(ready.child)).toBe(false);
    expect(await portFree(ready.port)).toBe(true);
    expect(stdout()).not.toMatch(/conformant/);
    expect(existsSync(join(dir, 'out', 'report.json'))).toBe(false);
  }, 20_000);
});

describe('run interrupted, the built CLI as a real process', () => {
  it('SIGTERM mid-run: exit 130, the embedded sandbox closed, the previous reports removed, one line', async () => {
    const dir = scratch();
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'report.json'), JSON.stringify({ tool: { name: 'svc-conformance', version: '0' }, verdict: 'conformant' }));
    const kit = spawnKit(['run', '--report-dir', 'out'], dir);
    let stdout = '';
    let stderr = '';
    kit.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolveExit) => kit.on('exit', resolveExit));
    // Interrupted once the embedded sandbox listens.
    await new Promise<void>((resolveStarted, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`run did not start the embedded sandbox within 15 s:\n${stdout}\n${stderr}`)),
        15_000,
      );
      kit.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (/reference sandbox at http:\/\/[\d.:]+/.test(stdout)) {
          clearTimeout(timer);
          resolveStarted();
        }
      });
    });
    const baseUrl = /reference sandbox at (http:\/\/[\d.:]+)/.exec(stdout)![1]!;
    kit.kill('SIGTERM');
    const timer = setTimeout(() => kit.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    expect(code).toBe(130);
    expect(stderr).toMatch(/^svc-conformance run: interrupted \(SIGTERM\): [^\n]+\n$/m);
    expect(stderr).toContain('closed the embedded sandbox');
    expect(stderr).toContain('removed the previous reports in out');
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    expect(await portFree(Number(new URL(baseUrl).port))).toBe(true);
  }, 30_000);
});

describe("run interrupted while it holds the target's webhook registration", () => {
  let sandbox: RunningSandbox;
  const EARLIER = 'http://127.0.0.1:9/earlier-receiver';
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, settleSeconds: 0 });
  });
  afterAll(() => sandbox.close());

  /** `run --only HOOK-`, interrupted once its receiver has taken the registration (bounded: 10 s). */
  async function interruptedHoldingRegistration(dir: string, meanwhile: () => void = () => {}) {
    sandbox.app.webhooks.register(MERCHANT_A.id, EARLIER);
    let interrupt: ((signal: InterruptSignal) => Promise<unknown>) | undefined;
    const running = runCli(['run', '--config', 'target.json', '--only', 'HOOK-', '--report-dir', 'reports'], {
      cwd: dir,
      onInterrupt: (handler) => ((interrupt = handler), () => {}),
    });
    for (let i = 0; i < 200 && sandbox.app.webhooks.urlOf(MERCHANT_A.id) === EARLIER; i++) await new Promise((r) => setTimeout(r, 50));
    const taken = sandbox.app.webhooks.urlOf(MERCHANT_A.id);
    expect(taken).not.toBe(EARLIER);
    meanwhile();
    await interrupt!('SIGINT');
    return { result: await running, taken };
  }

  it('restores the registration, removes the previous reports (they no longer verify), exit 130', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'target.json'), JSON.stringify(sandbox.config));
    // The previous run: conformant, and its report verifies.
    const previous = await runCli(['run', '--config', 'target.json', '--only', 'AUTH-MISSING-KEY', '--report-dir', 'reports'], {
      cwd: dir,
    });
    expect(previous.code).toBe(0);
    expect((await runCli(['verify-report', 'reports', '--allow-unsigned'], { cwd: dir })).code).toBe(0);

    const { result, taken } = await interruptedHoldingRegistration(dir);

    expect(result.code).toBe(130);
    // One line; its parts in the order they were done (a registration answered during the cleanup comes last).
    expect(result.stderr).toMatch(/^svc-conformance run: interrupted \(SIGINT\): [^\n]+\n$/);
    expect(result.stderr).toContain("restored the target's webhook registration and closed the kit's webhook receiver");
    expect(result.stderr).toContain('removed the previous reports in reports');
    expect(sandbox.app.webhooks.urlOf(MERCHANT_A.id)).toBe(EARLIER);
    expect(await portFree(Number(new URL(taken!).port))).toBe(true);
    expect(existsSync(join(dir, 'reports', 'report.json'))).toBe(false);
    const verified = await runCli(['verify-report', 'reports', '--allow-unsigned'], { cwd: dir });
    expect(verified.code).not.toBe(0);
  }, 30_000);

  it('leaves a registration someone else made during the run, and says so instead of "restored"', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'target.json'), JSON.stringify(sandbox.config));
    const THEIRS = 'http://127.0.0.1:9/registered-meanwhile';
    const { result } = await interruptedHoldingRegistration(dir, () => sandbox.app.webhooks.register(MERCHANT_A.id, THEIRS));
    expect(result.code).toBe(130);
    expect(result.stderr).toContain(
      "left the target's webhook registration to whoever changed it during the run, closed the kit's webhook receiver",
    );
    expect(result.stderr).not.toContain('restored');
    expect(sandbox.app.webhooks.urlOf(MERCHANT_A.id)).toBe(THEIRS);
  }, 30_000);
});

describe('verify-receiver interrupted while a delivery waits for its answer', () => {
  it('exit 130, one line, and no verdict written or printed', async () => {
    const dir = scratch();
    // A receiver that never answers: the kit is mid-delivery when it is interrupted.
    let delivered!: () => void;
    const firstDelivery = new Promise<void>((resolveDelivery) => (delivered = resolveDelivery));
    const receiver = createHttpServer(() => delivered());
    await new Promise<void>((resolveListen) => receiver.listen(0, '127.0.0.1', resolveListen));
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/webhooks`;
    try {
      let interrupt: ((signal: InterruptSignal) => Promise<unknown>) | undefined;
      const running = runCli(['verify-receiver', '--url', url, '--report-dir', 'out'], {
        cwd: dir,
        onInterrupt: (handler) => ((interrupt = handler), () => {}),
      });
      await firstDelivery;
      await interrupt!('SIGTERM');
      const result = await running;
      expect(result.code).toBe(130);
      expect(result.stderr).toBe('svc-conformance verify-receiver: interrupted (SIGTERM): left no reports in out\n');
      expect(result.stdout).not.toMatch(/conformant/);
      expect(existsSync(join(dir, 'out', 'report.json'))).toBe(false);
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  }, 15_000);
});

describe('a judging command clears the previous reports when it starts', () => {
  const NOTHING_LISTENS = 'http://127.0.0.1:9/webhooks';

  // The kit's own earlier reports, genuine ones, each recognised and removed: test/report-dir.test.ts.
  it("leaves a folder alone whose report.json is not one of the kit's (a --report-dir . beside other tools' files)", async () => {
    const dir = scratch();
    const theirs = { 'report.json': JSON.stringify({ tool: 'another-tool' }), 'junit.xml': '<testsuites name="theirs"/>' };
    for (const [name, text] of Object.entries(theirs)) writeFileSync(join(dir, name), text);
    const result = await runCli(['verify-receiver', '--url', NOTHING_LISTENS, '--report-dir', dir]);
    expect(result.code).toBe(2);
    for (const [name, text] of Object.entries(theirs)) expect(readFileSync(join(dir, name), 'utf8')).toBe(text);
  });
});

// Before the command listens (the kit's modules still loading, a second or so), a signal took Node's
// default: death by SIGTERM (a shell's 143), no line. The launcher is tried with a stand-in for the
// built command that says when it is loading, or when it has ended, and then keeps the process alive.
describe('the launcher, while the command loads and after it has ended', () => {
  /** bin/svc-conformance.js as installed, beside a dist/pkg/cli.js that is `command`. */
  function launcherWith(command: string): string {
    const dir = scratch();
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'dist', 'pkg'), { recursive: true });
    writeFileSync(join(dir, 'bin', 'svc-conformance.js'), readFileSync(BIN, 'utf8'));
    writeFileSync(join(dir, 'dist', 'pkg', 'cli.js'), command);
    return join(dir, 'bin', 'svc-conformance.js');
  }

  async function signalled(launcher: string, when: RegExp, signal: NodeJS.Signals) {
    const kit = spawn(process.execPath, [launcher, 'run', '--config', 'x.json'], { env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    sequential.kits.push(kit);
    let stdout = '';
    let stderr = '';
    kit.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<{ code: number | null; by: NodeJS.Signals | null }>((resolveExit) =>
      kit.on('close', (code, by) => resolveExit({ code, by })),
    );
    kit.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (when.test(stdout)) kit.kill(signal);
    });
    return { ...(await exited), stderr: () => stderr };
  }

  it.for<[NodeJS.Signals, number]>([
    ['SIGTERM', 130],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ])('%s while it loads: exit %i and the one line, as from a command that held nothing', async ([signal, status]) => {
    const loading = launcherWith("process.stdout.write('loading\\n');\nsetInterval(() => {}, 1000);\nawait new Promise(() => {});\n");
    const { code, by, stderr } = await signalled(loading, /loading/, signal);
    expect([code, by]).toEqual([status, null]);
    expect(stderr()).toBe(`svc-conformance run: interrupted (${signal}): nothing was held, nothing to clean up\n`);
  });

  it('after the command has ended (its handles still closing): the status it gave, no line', async () => {
    const ended = launcherWith(
      "export async function main() { setInterval(() => {}, 1000); setImmediate(() => process.stdout.write('ended\\n')); return 1; }\n",
    );
    const { code, by, stderr } = await signalled(ended, /ended/, 'SIGTERM');
    expect([code, by]).toEqual([1, null]);
    expect(stderr()).toBe('');
  });
});
