// forAll: every case is sent first, side by side; a failure is then found and shrunk in order, so
// the counterexample is the same at any concurrency; a case generated again is not sent again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckFailure, isCheckFailure, type CheckContext } from './check.js';
import { settleInOrder } from './limiter.js';
import { forAll } from './property.js';

function context(concurrency: number, runs: number, replayPath?: string): CheckContext {
  return {
    seed: 4242,
    runs,
    concurrency,
    checkId: 'prop-check',
    sweep: (cases, task) => settleInOrder(cases, concurrency, task),
    ...(replayPath !== undefined ? { replayPath } : {}),
  } as Partial<CheckContext> as CheckContext;
}

/** A predicate that answers after a varying delay, so cases end out of order at concurrency > 1. */
function judged(fails: (n: number) => boolean) {
  const sent: number[] = [];
  const predicate = async (n: number) => {
    sent.push(n);
    await new Promise((resolve) => setTimeout(resolve, (n * 7) % 5));
    if (fails(n)) throw new CheckFailure(`${n} is too big`, { expected: 'at most 300' });
  };
  return { sent, predicate };
}

async function failureOf(run: Promise<void>): Promise<CheckFailure> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isCheckFailure(error)) throw new Error(`expected a CheckFailure, got ${String(error)}`);
  return error;
}

describe('forAll', () => {
  it('finds and shrinks the same counterexample, by the same path and requests, at concurrency 1 and 8', async () => {
    const one = judged((n) => n > 300);
    const eight = judged((n) => n > 300);
    const a = await failureOf(forAll(context(1, 40), 'REQ', fc.integer({ min: 0, max: 1000 }), one.predicate));
    const b = await failureOf(forAll(context(8, 40), 'REQ', fc.integer({ min: 0, max: 1000 }), eight.predicate));
    expect(a.details.counterexample).toBe(301);
    expect(b.details.counterexample).toBe(301);
    expect(b.details.replayPath).toBe(a.details.replayPath);
    expect(b.message).toBe(a.message);
    expect(b.details.reproduce).toBe(`svc-conformance run --seed 4242 --only prop-check --replay-path ${a.details.replayPath}`);
    expect([...eight.sent].sort()).toEqual([...one.sent].sort());
  });

  it('sends a case generated again only once, and judges every distinct case', async () => {
    const { sent, predicate } = judged(() => false);
    await forAll(context(8, 200), 'REQ', fc.constantFrom(1, 2, 3), predicate);
    expect(sent.sort()).toEqual([1, 2, 3]);
    const wide = judged(() => false);
    await forAll(context(8, 50), 'REQ', fc.integer({ min: 0, max: 1_000_000 }), wide.predicate);
    expect(new Set(wide.sent).size).toBe(wide.sent.length);
    expect(wide.sent.length).toBe(new Set(fc.sample(fc.integer({ min: 0, max: 1_000_000 }), { seed: 4242, numRuns: 50 })).size);
  });

  it('tells apart cases that JSON would write alike, and takes alike those that are', async () => {
    const seen: unknown[] = [];
    const record = (value: unknown) => {
      seen.push(value);
      return Promise.resolve();
    };
    class Box {
      constructor(readonly a: number) {}
    }
    const cases = [
      { a: 1 },
      { a: 1 },
      { a: 0 },
      { a: -0 },
      {},
      { a: undefined },
      { a: null },
      { a: Number.NaN },
      [1],
      [1, undefined],
      new Box(1),
      { b: [{ c: 'x' }] },
      { b: [{ c: 'x' }] },
    ];
    await forAll(context(1, 200), 'REQ', fc.constantFrom(...cases), record);
    // Every distinct case once: the two repeated ones were sent once each.
    expect(seen).toHaveLength(cases.length - 2);
    const zeros = seen.filter(
      (value): value is { a: number } => typeof value === 'object' && value !== null && 'a' in value && value.a === 0,
    );
    expect(zeros.map((zero) => Object.is(zero.a, -0)).sort()).toEqual([false, true]);
    expect(
      seen.some((value) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0),
    ).toBe(true);
    expect(seen.some((value) => typeof value === 'object' && value !== null && 'a' in value && value.a === undefined)).toBe(true);
  });

  it('replays the case at a path (and only its own shrinks), without sending the other cases', async () => {
    const first = judged((n) => n > 300);
    const failure = await failureOf(forAll(context(8, 40), 'REQ', fc.integer({ min: 0, max: 1000 }), first.predicate));
    const replay = judged((n) => n > 300);
    const again = await failureOf(
      forAll(context(8, 40, failure.details.replayPath), 'REQ', fc.integer({ min: 0, max: 1000 }), replay.predicate),
    );
    expect(replay.sent[0]).toBe(301);
    expect(replay.sent.every((n) => n <= 301)).toBe(true);
    expect(replay.sent.length).toBeLessThan(first.sent.length);
    expect(again.details.counterexample).toBe(301);
  });

  it("passes on an exception that is not a CheckFailure: the kit's own error", async () => {
    const run = forAll(context(8, 10), 'REQ', fc.integer(), () => Promise.reject(new TypeError('a bug in the check')));
    await expect(run).rejects.toThrow(TypeError);
  });
});
