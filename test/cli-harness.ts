import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../cli/main.js';
import type { Clock } from '../core/clock.js';
import type { InterruptSource } from '../cli/interrupt.js';
import type { Io } from '../cli/io.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command in-process with a captured Io: fast, and the same code path as the binary. */
export async function runCli(
  argv: string[],
  options: { stdin?: string; env?: Record<string, string>; cwd?: string; onInterrupt?: InterruptSource; clock?: Clock } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    readStdin: () => Promise.resolve(Buffer.from(options.stdin ?? '', 'utf8')),
    stdinIsTTY: options.stdin === undefined,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    ...(options.onInterrupt !== undefined ? { onInterrupt: options.onInterrupt } : {}),
    ...(options.clock !== undefined ? { clock: options.clock } : {}),
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

export const BIN = fileURLToPath(new URL('../bin/svc-conformance.js', import.meta.url));

/**
 * Variables of the job the tests run in that the CLI acts on: inside GitHub Actions, a CLI that
 * inherited them would write to the real job summary and annotate the kit's own job.
 */
const JOB_VARIABLES = ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY'] as const;

/**
 * The environment of a spawned CLI: PATH, and what the test gives it. Nothing else is inherited,
 * the job's GitHub variables included; a test that wants them sets them on purpose.
 */
export function cliEnv(env: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', ...env };
}

/** The whole environment of the tests, less the job's GitHub variables: for a child that needs the rest. */
export function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of JOB_VARIABLES) delete env[name];
  return env;
}

/** Runs the real executable (built by `npm run build`), as a user or a CI script would. */
export function runBin(argv: string[], options: { stdin?: string; env?: Record<string, string> } = {}): CliResult {
  const result = spawnSync(process.execPath, [BIN, ...argv], {
    input: options.stdin ?? '',
    encoding: 'utf8',
    env: cliEnv(options.env),
    timeout: 20_000,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs a program without blocking the test's event loop (servers in the test keep serving), with a
 * time limit after which it is killed and the test told what it printed.
 */
export function spawnAsync(
  command: string,
  args: readonly string[],
  options: { env: Record<string, string>; cwd?: string; timeoutMs: number },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? process.cwd(), env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish in ${options.timeoutMs} ms\n${stdout}\n${stderr}`));
    }, options.timeoutMs);
    // 'close', not 'exit': a child can exit before its last output is read, and a busy test would see it cut.
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** Runs the real executable without blocking the test's event loop. */
export function runBinAsync(
  argv: string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return spawnAsync(process.execPath, [BIN, ...argv], {
    env: cliEnv(options.env),
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    timeoutMs: options.timeoutMs ?? 120_000,
  });
}

/** A `serve` started from bin/ (built): its banner and config as printed, and its stderr so far. */
export interface ServedSandbox {
  child: ReturnType<typeof spawn>;
  /** Everything serve printed until its config was complete. */
  stdout: string;
  /** serve's request and delivery log, growing while it runs. */
  stderr(): string;
  /** The log once it matches `pattern`. */
  stderrMatching(pattern: RegExp): Promise<string>;
}

/** Starts `svc-conformance serve ARGS` and resolves once it has printed its whole config. */
export function spawnServe(args: string[]): Promise<ServedSandbox> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env: inheritedEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  /** Resolves once stderr matches: what serve logs of a delivery comes when the delivery is answered, not at a set time. */
  const stderrMatching = (pattern: RegExp) =>
    new Promise<string>((matched) => {
      const look = () => {
        if (!pattern.test(stderr)) return false;
        child.stderr.off('data', look);
        matched(stderr);
        return true;
      };
      if (!look()) child.stderr.on('data', look);
    });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (/\n}\n$/.test(stdout)) resolve({ child, stdout, stderr: () => stderr, stderrMatching });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}
