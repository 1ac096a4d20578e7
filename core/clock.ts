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
  /** Only on a clock the run owns with its target (the embedded sandbox's): moves time on at once, so
   *  the revisit need not wait for what it reads to be old enough. */
  jump?(ms: number): void;
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
