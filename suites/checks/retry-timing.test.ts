// HOOK-RETRY's reading of time, as data: arrival times (ms on the run's clock) and X-TIMESTAMPs in,
// the verdict on the delays out. No clock runs here: each row is a schedule written in the test.
import { describe, expect, it } from 'vitest';
import { retryTiming, type RetryAttempt } from './retry-timing.js';

/** Attempts arriving at `seconds` (of the run's clock), each stamped with `stamps` if given. */
const attempts = (seconds: number[], stamps?: number[]): RetryAttempt[] =>
  seconds.map((s, i) => ({ receivedAt: 1_700_000_000_000 + s * 1000, timestamp: stamps?.[i] }));

const ROWS: Array<{ name: string; attempts: RetryAttempt[]; factor?: number; stall?: number; shrankAt?: number; took: number }> = [
  { name: 'a conforming sender, 1, 2, 4 s', attempts: attempts([0, 1, 3, 7], [100, 101, 103, 107]), took: 7 },
  {
    // What the stall allowance was for: the kit saw the 2nd retry late, so by arrival the 3rd came
    // sooner; the sender's own timestamps say it did not.
    name: 'a conforming sender whose 2nd retry the kit saw 1.5 s late (its own stall): the timestamps clear it',
    attempts: attempts([0, 1, 4.5, 7], [100, 101, 103, 107]),
    took: 7,
  },
  {
    name: 'a countdown sender, 8, 4, 2 s: both clocks agree',
    attempts: attempts([0, 8, 12, 14], [100, 108, 112, 114]),
    shrankAt: 2,
    took: 14,
  },
  { name: 'no whole-second timestamps: arrival alone, 1, 2, 1.5 s shrank', attempts: attempts([0, 1, 3, 4.5]), shrankAt: 3, took: 4.5 },
  { name: 'no whole-second timestamps: 1, 2, 1.6 s is within the real 0.25 s and a tenth', attempts: attempts([0, 1, 3, 4.6]), took: 4.6 },
  {
    name: 'on a clock 3 times faster, 0.25 real s is 0.75 of its seconds: 1, 2, 1.5 s is within it',
    attempts: attempts([0, 1, 3, 4.5]),
    factor: 3,
    took: 4.5,
  },
  {
    // Seen in an embedded run on a loaded machine (clock 8 times faster): the process paused ~0.45 real
    // s after the first attempt, so the sandbox's 1 s timer fired 3.7 s of its clock late and stamped so.
    name: "a conforming sender sharing the kit's process, which paused 3.7 s of its clock: 4.7, 2.2, 5.6 s by both clocks is not a shrink",
    attempts: attempts([0, 4.7, 6.9, 12.5], [100, 105, 107, 113]),
    factor: 8,
    stall: 3.7,
    took: 8.8,
  },
  {
    name: 'the same delays with no pause of the kit: the schedule shrank',
    attempts: attempts([0, 4.7, 6.9, 12.5], [100, 105, 107, 113]),
    factor: 8,
    shrankAt: 2,
    took: 12.5,
  },
  {
    name: 'the bound: the timestamps say 8 s though the retries were seen 40 s apart (the kit was held up)',
    attempts: attempts([0, 1, 3, 40], [100, 101, 103, 107]),
    took: 8,
  },
  // Each condition alone: where a delay is read from one clock only, and the bounds of each allowance.
  {
    name: 'a delay exactly a tenth and 0.25 s short of the one before is not shorter (2.5 s, then 2.0 s)',
    attempts: attempts([0, 1, 3.5, 5.5]),
    took: 5.5,
  },
  {
    name: 'no whole-second timestamps, the kit paused 2 s: 4, 2, 1.5 s by arrival is within its pause',
    attempts: attempts([0, 4, 6, 7.5]),
    stall: 2,
    took: 5.5,
  },
  {
    name: 'a timestamp missing on one attempt: the delays around it are read by arrival alone (4, 2, 1 s shrank)',
    attempts: [...attempts([0, 4], [100]), ...attempts([6, 7], [106, 107])],
    shrankAt: 2,
    took: 7,
  },
  {
    name: 'timestamps 4 s then 2 s apart are within their rounding (2 s), though arrival says 4, 1 s',
    attempts: attempts([0, 1, 5, 6], [100, 101, 105, 107]),
    took: 6,
  },
  {
    name: 'the same with the kit paused 1 s: allowed 1 s more by the timestamps too',
    attempts: attempts([0, 1, 5, 6], [100, 101, 105, 107]),
    stall: 1,
    took: 5,
  },
  { name: 'the bound without the last timestamp: by arrival', attempts: attempts([0, 1, 3, 7], [100, 101, 103]), took: 7 },
  {
    name: 'the last delay without its timestamp, the one before with it: arrival alone says 4, 1 s shrank',
    attempts: attempts([0, 1, 5, 6], [100, 101, 105]),
    shrankAt: 3,
    took: 6,
  },
  {
    name: 'the first attempt without its timestamp: the first delay is read by arrival alone (4, 1 s shrank)',
    attempts: [...attempts([0]), ...attempts([4, 5, 7], [104, 105, 107])],
    shrankAt: 2,
    took: 7,
  },
  {
    name: 'the bound without the first timestamp: by arrival',
    attempts: [...attempts([0]), ...attempts([1, 3, 7], [101, 103, 104])],
    took: 7,
  },
];

describe('retryTiming', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const timing = retryTiming(row.attempts, row.factor, row.stall);
      expect(timing.shrankAt).toBe(row.shrankAt);
      expect(timing.took).toBeCloseTo(row.took, 6);
    });
  }

  it('reads only the first three retries, and refuses fewer', () => {
    expect(retryTiming(attempts([0, 1, 3, 7, 7.5])).delays).toEqual([1, 2, 4]);
    expect(() => retryTiming(attempts([0, 1, 3]))).toThrow('retryTiming: needs 4 attempts, got 3');
  });
});
