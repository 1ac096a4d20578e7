// The client verify-client judges, as a process: started in a process group of its own with the
// sandbox's coordinates, its output passed on marked and redacted, stopped with all it started.
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { visible } from '../common/visible.js';
import { TARGET_ENV_NAMES } from '../suites/config.js';
import { UsageError, type Io } from './io.js';

export interface ClientOutcome {
  exitCode: number | null;
  /** How the client's run ended, when not with status 0: reported, not judged. */
  note?: string;
}

/** A running client command: its outcome once it ends, and a way to end it. */
export interface RunningClient {
  outcome: Promise<ClientOutcome>;
  /** Stops the client (its whole process group); the outcome then carries `note`. */
  stop(note: string): void;
  /** Stops the whole process group, SIGTERM then SIGKILL after a grace; resolves once the client has ended. */
  terminate(): Promise<void>;
  readonly exited: boolean;
}

/** The longest line of a client's output passed on; the rest of it is counted, not kept. */
const MAX_RELAYED_LINE = 16 * 1024;
/** How long an interrupted client's process group has to end on SIGTERM before it gets SIGKILL. */
const TERMINATE_GRACE_MS = 2_000;

/** Relays a client's output marked and redacted; a line over MAX_RELAYED_LINE is cut, so memory stays bounded. */
export function relayLines(
  write: (text: string) => void,
  redact: (text: string) => string,
): { data: (chunk: Buffer) => void; end: () => void } {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let dropped = 0;
  const append = (part: string) => {
    const room = MAX_RELAYED_LINE - pending.length;
    pending += part.slice(0, room);
    dropped += Math.max(0, part.length - room);
  };
  const emit = () => {
    write(`  │ ${visible(redact(pending))}${dropped > 0 ? ` … [${dropped} more characters of this line not shown]` : ''}\n`);
    pending = '';
    dropped = 0;
  };
  const take = (text: string) => {
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      append(text.slice(start, newline));
      emit();
      start = newline + 1;
    }
    append(text.slice(start));
  };
  return {
    data: (chunk) => take(decoder.write(chunk)),
    end: () => {
      take(decoder.end());
      if (pending !== '' || dropped > 0) emit();
    },
  };
}

/** Runs the client with the sandbox's coordinates, in a process group of its own so a timeout stops what it started too. */
export function runClient(
  argv: string[],
  io: Io,
  redact: (text: string) => string,
  env: Record<string, string>,
  timeoutSeconds: number,
): RunningClient {
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: io.cwd,
    env: { ...withoutTargetVariables(io.env), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const group = processGroup(child);
  let exited = false;
  let stoppedNote: string | undefined;
  const timer = setTimeout(() => {
    stoppedNote ??= `the client did not finish within ${timeoutSeconds} s and was stopped; its requests until then are judged`;
    group.kill();
  }, timeoutSeconds * 1000);
  const ended = () => {
    exited = true;
    clearTimeout(timer);
  };
  const whenExited = () => {
    ended();
    // Whatever the client left running (a server, a sleep) goes with it; its pipes then close.
    group.kill();
  };
  const outcome = endOf(child, io, redact, argv[0]!, whenExited, () => stoppedNote);
  void outcome.then(ended, ended);
  return {
    outcome,
    stop(note) {
      if (exited) return;
      stoppedNote = note;
      group.kill();
    },
    async terminate() {
      // Asked to stop (Ctrl-C, kill): a chance to shut down cleanly, then no more chances.
      stoppedNote = 'the kit was interrupted';
      group.signal('SIGTERM');
      const until = Date.now() + TERMINATE_GRACE_MS;
      while (group.alive() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      group.kill();
      await outcome.catch(() => {});
    },
    get exited() {
      return exited;
    },
  };
}

/** The outcome once the client exited and its pipes are drained (briefly), so its last words are relayed too;
 * `stoppedNote` says how the kit stopped it, if it did. */
function endOf(
  child: ChildProcessByStdio<null, Readable, Readable>,
  io: Io,
  redact: (text: string) => string,
  program: string,
  whenExited: () => void,
  stoppedNote: () => string | undefined,
): Promise<ClientOutcome> {
  const out = relayLines(io.stdout, redact);
  const err = relayLines(io.stderr, redact);
  child.stdout.on('data', out.data);
  child.stderr.on('data', err.data);
  return new Promise<ClientOutcome>((resolve, reject) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'ENOENT' ? 'no such program' : error.message;
      reject(new UsageError(`verify-client: cannot start \`${program}\`: ${reason}`));
    });
    child.on('exit', (code) => {
      whenExited();
      // A failure reading the pipes fails the outcome rather than vanishing in the event emitter.
      Promise.all([drained(child.stdout), drained(child.stderr)]).then(() => {
        out.end();
        err.end();
        const note = stoppedNote();
        if (note !== undefined) resolve({ exitCode: null, note });
        else if (code !== 0) resolve({ exitCode: code, note: `the client exited with status ${code}` });
        else resolve({ exitCode: 0 });
      }, reject);
    });
  });
}

/** Signals to the process group the child leads (or the child alone, where there is no group). */
function processGroup(child: ChildProcess) {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      child.kill(name);
    }
  };
  return {
    signal,
    kill: () => signal('SIGKILL'),
    alive(): boolean {
      try {
        process.kill(-child.pid!, 0);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** Resolves when a pipe has been read to its end, or after a second (a grandchild may hold it open). */
function drained(pipe: Readable): Promise<void> {
  return new Promise((resolveDrain) => {
    const done = () => {
      clearTimeout(timer);
      pipe.destroy();
      resolveDrain();
    };
    const timer = setTimeout(done, 1000);
    if (pipe.readableEnded) done();
    else pipe.once('end', done).once('close', done);
  });
}

/** The environment without P-CFG's variables: the client's coordinates are the sandbox's alone, and the
 * job's deployment secrets are not the client's to print. */
function withoutTargetVariables(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !TARGET_ENV_NAMES.includes(name)));
}
