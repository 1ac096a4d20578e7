/** Injected so a run and an in-process sandbox can share one virtual clock: waits then take no real time,
 * and the proof stays fast and exact. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`. An abort abandons the wait (it never resolves), so a deadline not needed holds no timer
   * that keeps the process alive. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** This clock's ms per real ms (absent: 1): judging real timing widens its jitter allowance by it,
   * since a real 50 ms stall reads as 1.5 s on a clock 30 times faster. */
  readonly factor?: number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => realSleep(ms, signal),
};

/** A real timer of `ms`, cleared when `signal` aborts. */
function realSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return;
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abandon);
      resolve();
    }, ms);
    const abandon = () => clearTimeout(timer);
    signal?.addEventListener('abort', abandon, { once: true });
  });
}

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

/** A real clock `factor` times faster: unlike the virtual clock, time flows by itself, so waits on things
 * elsewhere (a webhook retry) are measured as they would be, only sooner. */
export function scaledClock(factor: number, start = Date.now()): Clock {
  if (!(factor >= 1)) throw new RangeError('scaledClock: factor must be at least 1');
  const origin = performance.now();
  return {
    factor,
    now: () => Math.floor(start + (performance.now() - origin) * factor),
    sleep: (ms, signal) => realSleep(Math.max(0, ms) / factor, signal),
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
