// Commands register how to undo what they hold outside themselves; on a signal or EPIPE, main() undoes
// it all, newest first and bounded, and exits non-zero. Commands never listen to signals.

/** What ends a command early: a signal, or EPIPE, a write to an output whose reader went away (`| head -1`). */
export type InterruptSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'EPIPE';

/** Ctrl-C and kill: 130 (documented). A closed output: 141 (128 + SIGPIPE) like any tool cut off by `| head`,
 * so `set -o pipefail` sees the verdict never arrived. */
export function exitStatusOf(signal: InterruptSignal): number {
  return { SIGINT: 130, SIGTERM: 130, SIGHUP: 129, EPIPE: 141 }[signal];
}

/** The process's signals (processIo), or a test's hand; `interrupted` resolves once cleanup is done and said, or
 * to 'stopped' when the command took the signal as its normal end (`stopsOnSignal`): the process goes on. */
export type InterruptSource = (interrupted: (signal: InterruptSignal) => Promise<void | 'stopped'>) => () => void;

/** What a held thing's cleanup is said as: done (past tense), or when it failed or ran out of time. */
export interface Held {
  done: string;
  failed: string;
}

/** Undoes one thing held; it may return a promise (awaited) and what it resolves to may be said. */
type Undo = () => unknown;

export interface Interrupts {
  /** Aborted, its reason the signal's name, once the command is interrupted. */
  readonly signal: AbortSignal;
  /** Registers an idempotent undo (a string it resolves to replaces `what.done`); returns the release
   * for when the command undid it itself. */
  hold(what: Held, undo: Undo): () => void;
}

/** How long one cleanup may take: a target that does not answer must not keep an interrupted kit alive. */
export const CLEANUP_BOUND_MS = 5_000;

export class InterruptRegistry implements Interrupts {
  private readonly controller = new AbortController();
  private readonly held: Array<{ what: Held; undo: Undo }> = [];
  readonly signal: AbortSignal = this.controller.signal;

  constructor(private readonly boundMs = CLEANUP_BOUND_MS) {}

  hold(what: Held, undo: Undo): () => void {
    const entry = { what, undo };
    this.held.push(entry);
    return () => {
      // Once interrupted the cleanup owns what was held, and says it: a command that reaches its own
      // cleanup at the same moment (its client just stopped) does not take it back. Its undo runs twice then.
      if (this.signal.aborted) return;
      const at = this.held.indexOf(entry);
      if (at !== -1) this.held.splice(at, 1);
    };
  }

  /** Aborts the signal, then undoes what is still held, newest first; returns what each cleanup came to. */
  async interrupt(signal: InterruptSignal): Promise<string[]> {
    this.controller.abort(signal);
    const said: string[] = [];
    // Newest first: a run restores the target's registration before it closes the sandbox that is its target.
    for (let entry = this.held.pop(); entry !== undefined; entry = this.held.pop()) {
      const outcome = await within(this.boundMs, entry.undo);
      // An undo may say what it came to instead (it found nothing of its own to put back).
      said.push(outcome.finished ? (typeof outcome.value === 'string' ? outcome.value : entry.what.done) : entry.what.failed);
    }
    return said;
  }
}

/** Whether `work` finished within `ms` (not when it threw or ran out of time), and what it returned. */
async function within(ms: number, work: Undo): Promise<{ finished: boolean; value?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ finished: false }>((resolveLate) => (timer = setTimeout(() => resolveLate({ finished: false }), ms)));
  const done = (async () => ({ finished: true, value: await work() }))().catch(() => ({ finished: false }));
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Interrupts that never come: for a command run outside main() (a library caller, a unit test). */
const NEVER: Interrupts = { signal: new AbortController().signal, hold: () => () => {} };

/** The command's interrupts (main() gives every command its own), or ones that never come. */
export function interruptsOf(io: { interrupts?: Interrupts }): Interrupts {
  return io.interrupts ?? NEVER;
}

/** The one line an interrupted command ends with. */
export function interruptedLine(command: string, signal: InterruptSignal, said: readonly string[]): string {
  const cause = signal === 'EPIPE' ? 'EPIPE: its output was closed' : signal;
  return `svc-conformance ${command}: interrupted (${cause}): ${said.length > 0 ? said.join(', ') : 'nothing was held, nothing to clean up'}\n`;
}
