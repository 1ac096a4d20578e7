// When a balance that missed is the target's fault (wallet.ts): REPRODUCED tries, each with an amount
// of its own, missing the same way. A fault does that on every payout; another run paying its own
// amounts in the very moments this run pays (two runs at once, one seed) does it only by rare chance.
import { describe, expect, it } from 'vitest';
import { minorUnitOf, type Decimal } from '../../schemas/amounts.js';
import { CURRENCIES } from '../../schemas/types.js';
import type { CheckContext } from '../check.js';
import { MAX_TRIES, Misses, missWays, ownAmount, REPRODUCED, SANDBOX_OUTCOME_ENDINGS, type MissShape } from './wallet.js';

const cents = (units: number): Decimal => ({ units: BigInt(units), scale: 2 });
const START = 100_000_000;

/** A try of `amount` cents that moved the balance by `moved` cents, a debit of `expected` being right. */
function tryOf(amount: number, moved: number, expected = amount): MissShape {
  return { amount: cents(amount), expected: cents(expected), before: { balance: cents(START) }, after: { balance: cents(START - moved) } };
}

/** The try at which the misses were first reproduced (1-based), or undefined. */
function reproducedAt(tries: readonly MissShape[]): number | undefined {
  const misses = new Misses<MissShape>();
  const at = tries.findIndex((t) => misses.add(t, missWays(t)) !== undefined);
  return at < 0 ? undefined : at + 1;
}

/** A seeded generator of 32-bit values (mulberry32): the same draws on every run of the test. */
function draws(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** An amount as ownAmount draws one for a 2-decimal currency: 1.01 to 9.99, never round, never ending in 13 or 42. */
function ownCents(next: () => number, most = 999): number {
  let units = 101 + (next() % (most - 100));
  if (units % 10 === 0) units += 1;
  return SANDBOX_OUTCOME_ENDINGS.includes(units % 100) ? units + 1 : units;
}

describe('a miss is the target’s when reproduced', () => {
  it.each<[string, (amount: number) => number, number]>([
    ['a fee of 0.50', (a) => a + 50, 0],
    ['a debit taken twice', (a) => 2 * a, 0],
    ['a debit never taken', () => 0, 0],
    ['a debit of 1.00 whatever the amount', () => 100, 0],
    ['a debit cut to whole units', (a) => Math.floor(a / 100) * 100, 0],
    ['a debit rounded up to whole units', (a) => Math.ceil(a / 100) * 100, 0],
    ['a debit rounded to tenths', (a) => Math.round(a / 10) * 10, 0],
    ['a refused payout debited with a fee of 0.25', (a) => a + 25, 1],
  ])('%s: reproduced on the third try, whatever the amounts', (_name, moved, refused) => {
    const next = draws(7);
    for (let run = 0; run < 200; run++) {
      const amounts = new Set<number>();
      while (amounts.size < MAX_TRIES) amounts.add(ownCents(next));
      const tries = [...amounts].map((a) => tryOf(a, moved(a), refused ? 0 : a));
      expect(reproducedAt(tries)).toBe(REPRODUCED);
    }
  });

  it.each(CURRENCIES)('ownAmount in %s: 1 to 10 (2 to 999 without decimals), never round, never a sandbox outcome ending', (currency) => {
    let n = 0;
    const ctx = { ids: { nonce: () => `N-${currency}-${++n}` } } as unknown as CheckContext;
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const amount = ownAmount(ctx, currency);
      const units = Number(amount.units);
      expect(amount.scale).toBe(minorUnitOf(currency));
      if (amount.scale === 0) expect(units).toBeGreaterThanOrEqual(2);
      else expect(units % 10).not.toBe(0);
      expect(units).toBeLessThan(amount.scale === 0 ? 1_000 : 10 * 10 ** amount.scale);
      expect(units).toBeGreaterThan(amount.scale === 0 ? 1 : 10 ** amount.scale);
      expect(SANDBOX_OUTCOME_ENDINGS).not.toContain(units % 100);
      seen.add(String(units));
    }
    // Drawn from hundreds of values, so two runs at once rarely meet on one.
    expect(seen.size).toBeGreaterThan(500);
  });

  it('two tries alike and a third not: not yet reproduced', () => {
    // Another run paid 2.97 in the moments of each of the first two tries (the CI run that failed a
    // conformant sandbox before: "an earlier try with another amount missed the same way").
    expect(reproducedAt([tryOf(150, 150 + 297), tryOf(188, 188 + 297), tryOf(121, 121 + 417), tryOf(166, 166 + 250)])).toBeUndefined();
  });

  it('one amount three times proves nothing: the tries must differ in amount', () => {
    expect(reproducedAt([tryOf(150, 200), tryOf(150, 200), tryOf(150, 200)])).toBeUndefined();
    expect(reproducedAt([tryOf(150, 200), tryOf(150, 200), tryOf(151, 201), tryOf(152, 202)])).toBe(4);
  });

  it('a scale is only notation: 1.5 and 1.50 are one amount, 0.5 and 0.50 one fee', () => {
    const misses = new Misses<string>();
    const at = (units: bigint, scale: number, moved: bigint): MissShape => ({
      amount: { units, scale },
      expected: { units, scale },
      before: { balance: { units: 1000n, scale: 0 } },
      after: { balance: { units: 1000n * 10n ** BigInt(scale) - moved, scale } },
    });
    expect(misses.add('a', missWays(at(15n, 1, 20n)))).toBeUndefined(); // 1.5 moved 2.0
    expect(misses.add('b', missWays(at(150n, 2, 200n)))).toBeUndefined(); // 1.50 moved 2.00: the same amount
    expect(misses.add('c', missWays(at(2500n, 3, 3000n)))).toBeUndefined(); // 2.500 moved 3.000: 0.5 off
    expect(misses.add('d', missWays(at(31n, 1, 36n)))).toEqual(['a', 'c', 'd']); // 3.1 moved 3.6: 0.5 off, a third amount
  });

  it('another run paying its own amounts in the same moments: blamed on the target in fewer than 1 run in 5,000', () => {
    // Two runs at once, one seed, run their balance checks in step: each try of one sees the other's
    // payout of the same try. Before: amounts of 1.01 to 1.99 and two tries alike blamed the target
    // about once in twenty runs (the CI run that failed a conformant sandbox).
    const RUNS = 10_000;
    const rate = (most: number, blames: (tries: readonly MissShape[]) => boolean) => {
      const next = draws(20261126);
      let blamed = 0;
      for (let run = 0; run < RUNS; run++) {
        const tries: MissShape[] = [];
        for (let n = 0; n < MAX_TRIES; n++) {
          const [mine, theirs] = [ownCents(next, most), ownCents(next, most)];
          tries.push(tryOf(mine, mine + theirs));
        }
        if (blames(tries)) blamed += 1;
      }
      return blamed / RUNS;
    };
    const now = (tries: readonly MissShape[]) => reproducedAt(tries) !== undefined;
    const before = (tries: readonly MissShape[]) => twoAlike(tries.slice(0, 3));
    expect(rate(999, now)).toBeLessThan(1 / 5_000);
    // The measure sees what it is about: the old rule, on the old amounts and on the new.
    expect(rate(199, before)).toBeGreaterThan(1 / 50);
    expect(rate(999, before)).toBeGreaterThan(1 / 500);
  });
});

/** Whether two tries of different amounts missed one way: the old rule. */
function twoAlike(tries: readonly MissShape[]): boolean {
  const ways = tries.map((t) => new Set(missWays(t).map((w) => w.way)));
  return tries.some((t, i) =>
    tries.some((u, j) => j > i && u.amount.units !== t.amount.units && [...ways[i]!].some((w) => ways[j]!.has(w))),
  );
}
