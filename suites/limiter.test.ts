import { describe, expect, it } from 'vitest';
import { Limiter, settleInOrder } from './limiter.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Limiter', () => {
  it('runs at most max tasks at once, and every task', async () => {
    const limiter = new Limiter(2);
    let now = 0;
    let most = 0;
    const done = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        limiter.run(async () => {
          now += 1;
          most = Math.max(most, now, limiter.inFlight);
          await pause(2);
          now -= 1;
          return i;
        }),
      ),
    );
    expect(done).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(2);
    expect(limiter.inFlight).toBe(0);
  });

  it('gives the slot back however a task ends: a value, a rejection, a throw before its promise', async () => {
    const limiter = new Limiter(1);
    const thrown = new Error('thrown before any promise');
    const outcomes = await Promise.allSettled([
      limiter.run(() => Promise.resolve('value')),
      limiter.run(() => Promise.reject(new Error('rejected'))),
      limiter.run(() => {
        throw thrown;
      }),
      limiter.run(() => Promise.resolve('after')),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason))).toEqual(['value', new Error('rejected'), thrown, 'after']);
    expect(limiter.inFlight).toBe(0);
    // A task from plain JavaScript that returns a value, not a promise, is taken as await takes it.
    await expect(limiter.run((() => 42) as unknown as () => Promise<number>)).resolves.toBe(42);
    expect(limiter.inFlight).toBe(0);
    // With the slot free, a throw is a rejection, not an exception out of run.
    await expect(
      limiter.run(() => {
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    expect(limiter.inFlight).toBe(0);
  });

  it('starts a task asked ahead before those waiting without it, and the others in the order they asked', async () => {
    const limiter = new Limiter(1);
    const order: string[] = [];
    let release = () => {};
    const task = (name: string) => () => {
      order.push(name);
      return Promise.resolve();
    };
    const first = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    const rest = [
      limiter.run(task('a')),
      limiter.run(task('b')),
      limiter.run(task('lane 1'), { ahead: true }),
      limiter.run(task('c')),
      limiter.run(task('lane 2'), { ahead: true }),
    ];
    release();
    await Promise.all([first, ...rest]);
    expect(order).toEqual(['lane 1', 'lane 2', 'a', 'b', 'c']);
    expect(limiter.inFlight).toBe(0);
  });

  it('refuses a limit that is not a whole number of at least 1', () => {
    expect(() => new Limiter(0)).toThrow(/at least 1/);
    expect(() => new Limiter(1.5)).toThrow(/whole number/);
  });
});

describe('settleInOrder', () => {
  it("returns results in the items' order, whatever order they end in", async () => {
    expect(await settleInOrder([30, 1, 10], 3, async (ms, i) => (await pause(ms), i))).toEqual([0, 1, 2]);
  });

  it("throws the first failure in the items' order, not the first in time, after every task has ended", async () => {
    const ended: number[] = [];
    const failing = settleInOrder([20, 1, 5], 3, async (ms, i) => {
      await pause(ms);
      ended.push(i);
      if (i > 0) throw new Error(`item ${i}`);
    });
    await expect(failing).rejects.toThrow('item 1');
    expect(ended.sort()).toEqual([0, 1, 2]);
    const laterFirst = settleInOrder([20, 1], 2, async (ms, i) => {
      await pause(ms);
      throw new Error(`item ${i}`);
    });
    await expect(laterFirst).rejects.toThrow('item 0');
  });
});
