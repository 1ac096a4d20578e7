// HOOK-RETRY's reading of time (P-HOOK-3): delays between attempts, whether they shrank, how long the
// first retries took. Pure: arrival times, X-TIMESTAMPs and the kit's longest pause come in.
import { MIN_RETRIES } from '../../core/webhooks.js';

/** Real seconds a delay measured by arrival may fall short of the one before (beyond a tenth of it)
 *  without counting as shorter: network jitter and the kit's own scheduling on a busy machine. */
export const ARRIVAL_JITTER_SECONDS = 0.25;
/** X-TIMESTAMP is whole seconds, so two delays read from it differ by up to 2 s from rounding alone. */
const STAMP_ROUNDING_SECONDS = 2;

export interface RetryAttempt {
  /** When it arrived, ms on the run's clock. */
  receivedAt: number;
  /** Its X-TIMESTAMP, when that is whole UNIX seconds. */
  timestamp?: number | undefined;
}

export interface RetryTiming {
  /** The delays before each of the first MIN_RETRIES retries, seconds by arrival. */
  delays: number[];
  /** The retry (1 for the first) whose delay is shorter than the one before, by both clocks; undefined if none. */
  shrankAt?: number;
  /** Seconds from the first attempt to the MIN_RETRIES-th retry: by arrival, or by the sender's timestamps if they say sooner. */
  took: number;
}

/** A delay shrank only when arrival (past jitter) and X-TIMESTAMP (past rounding) both say so; a pause
 *  of the kit's own (`stallSeconds`) can delay an in-process sender too, so it widens the allowance. */
export function retryTiming(attempts: readonly RetryAttempt[], factor = 1, stallSeconds = 0): RetryTiming {
  if (attempts.length <= MIN_RETRIES) throw new RangeError(`retryTiming: needs ${MIN_RETRIES + 1} attempts, got ${attempts.length}`);
  const first = attempts.slice(0, MIN_RETRIES + 1);
  const delays = first.slice(1).map((d, i) => (d.receivedAt - first[i]!.receivedAt) / 1000);
  const stamped = first.slice(1).map((d, i) => {
    const [now, before] = [d.timestamp, first[i]!.timestamp];
    return now !== undefined && before !== undefined ? now - before : undefined;
  });
  const jitter = ARRIVAL_JITTER_SECONDS * factor + stallSeconds;
  const shrank = delays.findIndex((delay, i) => {
    if (i === 0 || delay >= delays[i - 1]! * 0.9 - jitter) return false;
    const [now, before] = [stamped[i], stamped[i - 1]];
    return now === undefined || before === undefined || now < before - STAMP_ROUNDING_SECONDS - stallSeconds;
  });
  const last = first[MIN_RETRIES]!;
  const byArrival = (last.receivedAt - first[0]!.receivedAt) / 1000 - stallSeconds;
  const bySender = last.timestamp !== undefined && first[0]!.timestamp !== undefined ? last.timestamp - first[0]!.timestamp + 1 : undefined;
  return {
    delays,
    ...(shrank !== -1 ? { shrankAt: shrank + 1 } : {}),
    took: bySender === undefined ? byArrival : Math.min(byArrival, bySender),
  };
}
