import { setMaxListeners } from 'node:events';
import type { Clock } from '../core/clock.js';

/** The sandbox's timers on its clock, all stopped when it closes: nothing fires into a closed sandbox and no
 * real timer keeps the process alive. */
export class Timers {
  private readonly closing = new AbortController();

  constructor(private readonly clock: Clock) {
    // Each pending timer listens to the one signal and stops listening when it fires: many at once, no leak.
    setMaxListeners(0, this.closing.signal);
  }

  /** Runs `task` after `ms` on the sandbox's clock, unless the sandbox has closed by then. */
  after(ms: number, task: () => void): void {
    const { signal } = this.closing;
    if (signal.aborted) return;
    // An abort abandons the wait and clears its real timer; a clock that ignores the signal is caught here.
    void this.clock.sleep(ms, signal).then(() => {
      if (!signal.aborted) task();
    });
  }

  close(): void {
    this.closing.abort();
  }
}
