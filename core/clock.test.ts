// The clocks tests drive: a manual clock wakes each sleep exactly when advanced past its time, in
// order, and a sleep abandoned through its signal neither wakes nor counts as waiting.
import { describe, expect, it } from 'vitest';
import { systemClock } from './clock.js';
import { manualClock } from './clock-test-support.js';

describe('manualClock', () => {
  it('stands still until advanced, then wakes each sleep at its own time, earliest first', async () => {
    const clock = manualClock(1_000);
    const woke: Array<[string, number]> = [];
    void clock.sleep(300).then(() => woke.push(['b', clock.now()]));
    void clock.sleep(100).then(() => woke.push(['a', clock.now()]));
    void clock.sleep(2_000).then(() => woke.push(['c', clock.now()]));
    expect(clock.sleeping).toBe(3);
    await clock.advance(299);
    expect(woke).toEqual([['a', 1_100]]);
    await clock.advance(1);
    expect(woke).toEqual([
      ['a', 1_100],
      ['b', 1_300],
    ]);
    expect(clock.now()).toBe(1_300);
    expect(clock.sleeping).toBe(1);
  });

  it('forgets a sleep whose signal aborted: it never wakes and is not counted as waiting', async () => {
    const clock = manualClock(0);
    const abandoned = new AbortController();
    let woke = false;
    void clock.sleep(10, abandoned.signal).then(() => (woke = true));
    abandoned.abort();
    expect(clock.sleeping).toBe(0);
    await clock.advance(100);
    expect(woke).toBe(false);
  });
});

describe('systemClock', () => {
  it('clears the timer of an abandoned sleep, so it holds nothing open', async () => {
    const abandoned = new AbortController();
    let woke = false;
    void systemClock.sleep(20, abandoned.signal).then(() => (woke = true));
    abandoned.abort();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(woke).toBe(false);
  });
});
