/**
 * Time as the kit uses it: what time it is, and waiting. Injected so that a run against an
 * in-process sandbox can share one virtual clock with it: waiting for the next second, for a payout
 * to settle or for a Retry-After then takes no real time, and the proof stays fast and exact.
 */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /**
   * How many of this clock's ms pass in one real ms (absent: 1). A judgement of real timing (the
   * gaps between webhook retries) widens its allowance for scheduling jitter by it, since a real
   * stall of 50 ms reads as 1.5 s on a clock 30 times faster.
   */
  readonly factor?: number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

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

/**
 * A real clock that runs `factor` times faster: a second of it passes in 1/factor of a real one, and
 * so does every sleep. Time flows by itself (unlike the virtual clock), so a wait for something that
 * happens elsewhere (a webhook delivery, a retry 4 s later) is measured as it would be, only sooner.
 * The proof shares one between the sandbox and the run.
 */
export function scaledClock(factor: number, start = Date.now()): Clock {
  if (!(factor >= 1)) throw new RangeError('scaledClock: factor must be at least 1');
  const origin = performance.now();
  return {
    factor,
    now: () => Math.floor(start + (performance.now() - origin) * factor),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms) / factor)),
  };
}
