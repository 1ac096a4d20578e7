import { constants, type Stats } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Clock } from '../core/clock.js';
import { exitStatusOf, type InterruptSignal, type InterruptSource, type Interrupts } from './interrupt.js';

/** Everything a command touches outside itself, so tests can run commands in-process. */
export interface Io {
  // Properties, not methods: commands pass `io.stdout` on as a plain function (a relay, a quieted copy).
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin(): Promise<Buffer>;
  stdinIsTTY: boolean;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Where SIGINT, SIGTERM, SIGHUP and a closed output (EPIPE) come from; without it a command is never interrupted. */
  onInterrupt?: InterruptSource;
  /** The clock acknowledgement windows run on; absent, real time. Tests set it to close a window at once. */
  clock?: Clock;
  /** Set by main() for the command it runs: where the command registers what it holds (cli/interrupt.ts). */
  interrupts?: Interrupts;
  /** Set by main() for a command that `stopsOnSignal`: aborted by the first SIGINT or SIGTERM, its normal end. */
  stop?: AbortSignal;
}

export function processIo(): Io {
  // The running command's interrupt listener; none before main() starts one or after it ends.
  let current: ((signal: InterruptSignal) => void) | undefined;
  // Output piped into a reader that stopped early (`| head`): the rest has nowhere to go. It ends the
  // command as a signal does, so what it holds (a client's process group, a registration) is undone first.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      if (current !== undefined) current('EPIPE');
      else process.exit(exitStatusOf('EPIPE'));
    });
  }
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    stdinIsTTY: Boolean(process.stdin.isTTY),
    env: process.env,
    cwd: process.cwd(),
    onInterrupt(interrupted) {
      let cleaning = false;
      const listener = (signal: InterruptSignal) => {
        if (cleaning) {
          // A second Ctrl-C while the first one's cleanup runs: the user wants out now. A second
          // EPIPE (the cleanup's line to a closed stderr too) is no such wish: the cleanup goes on.
          if (signal !== 'EPIPE') process.exit(exitStatusOf(signal));
          return;
        }
        cleaning = true;
        // Whatever the command still had in flight (a run's remaining checks) ends with the process.
        const exit = () => process.exit(exitStatusOf(signal));
        void interrupted(signal).then((outcome) => (outcome === 'stopped' ? void (cleaning = false) : exit()), exit);
      };
      const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
      for (const signal of signals) process.on(signal, listener);
      current = listener;
      return () => {
        for (const signal of signals) process.off(signal, listener);
        if (current === listener) current = undefined;
      };
    },
  };
}

/** Bad usage, bad config or bad input: one line on stderr, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'SVC_USAGE';
}

/** `work`'s value; what it throws (bad input it was handed) becomes a UsageError naming the command. */
export function asUsage<T>(command: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads a file (or stdin for "-") as UTF-8 text, turning every failure into a UsageError that names it. */
export async function readText(io: Io, command: string, option: string, path: string): Promise<string> {
  const bytes =
    path === '-'
      ? await io.readStdin()
      : await readFile(resolve(io.cwd, path)).catch((error: NodeJS.ErrnoException) => {
          throw new UsageError(`${command}: cannot read ${option} ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
        });
  try {
    return utf8.decode(bytes);
  } catch {
    throw new UsageError(`${command}: ${path === '-' ? 'stdin' : path} is not UTF-8 text; the interface's bodies are UTF-8 JSON`);
  }
}

/** The body from --file, or from stdin when it is piped; a terminal on stdin would just hang, so say so. */
export async function readBody(io: Io, command: string, file: string | undefined): Promise<string> {
  if (file !== undefined) return readText(io, command, '--file', file);
  if (io.stdinIsTTY) throw new UsageError(`${command}: no body given: pass --file BODY.json, or pipe the body on stdin`);
  return readText(io, command, 'stdin', '-');
}

/** A file the command writes when its work is done (--har, --config-out), `info` as found now (default: stat): one
 * it cannot write is said before the work, not after. It is written by renaming over it, which fails on a folder. */
export async function usableOutputFile(
  command: string,
  option: string,
  { path, shown, example }: { path: string; shown: string; example: string },
  info?: Stats,
): Promise<void> {
  info ??= await stat(path).catch(() => undefined);
  if (info?.isDirectory())
    throw new UsageError(`${command}: --${option} ${shown} is a folder; give a file name, e.g. --${option} ${join(shown, example)}`);
  try {
    await access(dirname(path), constants.W_OK);
  } catch {
    throw new UsageError(`${command}: cannot write --${option} ${shown}: its folder does not exist or is not writable`);
  }
}
