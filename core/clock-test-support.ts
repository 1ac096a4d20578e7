// Clocks only tests use: one that moves when slept on, and one that moves when the test says.
import type { Clock } from './clock.js';

/** A clock that moves only when someone sleeps on it (ms since the epoch, starting at `start`). */
export function virtualClock(start = Date.now()): Clock {
  let now = start;
  return {
    now: () => now,
    async sleep(ms) {
      now += Math.max(0, ms);
      // Let whatever else is pending run first, as a real wait would.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** A clock that only a test moves: `advance` wakes, in order, every sleep whose time has come. */
export interface ManualClock extends Clock {
  advance(ms: number): Promise<void>;
  /** Sleeps waiting for their time (abandoned ones not counted): what the code under test waits on. */
  readonly sleeping: number;
}

/** A clock that stands still until the test advances it, to control a schedule without waiting for it. */
export function manualClock(start = Date.now()): ManualClock {
  let now = start;
  const sleepers = new Set<{ at: number; wake: () => void }>();
  return {
    now: () => now,
    get sleeping() {
      return sleepers.size;
    },
    sleep(ms, signal) {
      return new Promise((resolve) => {
        if (signal?.aborted) return;
        const sleeper = { at: now + Math.max(0, ms), wake: resolve };
        sleepers.add(sleeper);
        signal?.addEventListener('abort', () => sleepers.delete(sleeper), { once: true });
      });
    },
    async advance(ms) {
      const until = now + Math.max(0, ms);
      for (;;) {
        const next = [...sleepers].filter((s) => s.at <= until).sort((a, b) => a.at - b.at)[0];
        if (next === undefined) break;
        sleepers.delete(next);
        now = next.at;
        next.wake();
        // What the sleep woke runs before the clock moves on, as it would in real time.
        await new Promise((resolve) => setImmediate(resolve));
      }
      now = until;
    },
  };
}
