import type { Clock } from '../core/clock.js';

/** The sandbox's timers on its clock, all stopped when it closes: nothing fires into a closed sandbox and no
 * real timer keeps the process alive. */
export class Timers {
  private readonly pending = new Set<ReturnType<typeof setTimeout>>();
  private closed = false;

  /** `clock`: a Clock to sleep on (a test's faster one), or undefined for real timers. */
  constructor(private readonly clock?: Clock) {}

  /** Runs `task` after `ms` on the sandbox's clock, unless the sandbox has closed by then. */
  after(ms: number, task: () => void): void {
    if (this.closed) return;
    if (this.clock === undefined) {
      const timer = setTimeout(
        () => {
          this.pending.delete(timer);
          if (!this.closed) task();
        },
        Math.max(0, ms),
      );
      this.pending.add(timer);
      return;
    }
    void this.clock.sleep(ms).then(() => {
      if (!this.closed) task();
    });
  }

  close(): void {
    this.closed = true;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
