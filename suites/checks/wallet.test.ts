// When a balance that missed is the target's fault (wallet.ts): REPRODUCED tries, each with an amount
// of its own, missing the same way. A fault does that on every payout; another run paying its own
// amounts in the very moments this run pays (two runs at once, one seed) does it only by rare chance.
import { describe, expect, it } from 'vitest';
import { minorUnitOf, type Decimal } from '../../schemas/amounts.js';
import { CURRENCIES } from '../../schemas/types.js';
import type { CheckContext } from '../check.js';
import {
  MAX_TRIES,
  Misses,
  missWays,
  ownAmount,
  REPRODUCED,
  RETRY_PAUSE_SPAN_MS,
  retryPauseMs,
  SANDBOX_OUTCOME_ENDINGS,
  type MissShape,
} from './wallet.js';

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

/** An amount as ownAmount draws one for a 2-decimal currency: 1.01 to 1.99, never round, never ending in 13 or 42. */
function ownCents(next: () => number): number {
  let units = 101 + (next() % 99);
  if (units % 10 === 0) units += 1;
  return SANDBOX_OUTCOME_ENDINGS.includes(units % 100) ? units + 1 : units;
}

/** The try at which MAX_TRIES tries of distinct own amounts, moved as `moved` says, were first reproduced. */
function faultReproducedAt(next: () => number, moved: (amount: number) => number, refused = false): number | undefined {
  const amounts = new Set<number>();
  while (amounts.size < MAX_TRIES) amounts.add(ownCents(next));
  return reproducedAt([...amounts].map((a) => tryOf(a, moved(a), refused ? 0 : a)));
}

const halfUp = (x: number) => Math.floor(x + 0.5);

describe('a miss is the target’s when reproduced', () => {
  it.each<[string, (amount: number) => number, boolean]>([
    ['a fee of 0.50', (a) => a + 50, false],
    ['a debit taken twice', (a) => 2 * a, false],
    ['a debit never taken', () => 0, false],
    ['a debit of 1.00 whatever the amount', () => 100, false],
    ['a debit cut to whole units', (a) => Math.floor(a / 100) * 100, false],
    ['a debit rounded up to whole units', (a) => Math.ceil(a / 100) * 100, false],
    ['a debit rounded to tenths', (a) => Math.round(a / 10) * 10, false],
    ['a refused payout debited with a fee of 0.25', (a) => a + 25, true],
  ])('%s: reproduced on the third try, whatever the amounts', (_name, moved, refused) => {
    const next = draws(7);
    for (let run = 0; run < 200; run++) expect(faultReproducedAt(next, moved, refused)).toBe(REPRODUCED);
  });

  it.each<[string, (amount: number) => number]>([
    ['a fee of 1% rounded to the cent', (a) => a + halfUp(a / 100)],
    ['the amount read as minor units', (a) => halfUp(a / 100)],
    ['a fee of 1% cut to the cent', (a) => a + Math.floor(a / 100)],
  ])('%s (one of two changes over the band of own amounts): reproduced within the tries, whatever the amounts', (_name, moved) => {
    const next = draws(11);
    for (let run = 0; run < 200; run++) expect(faultReproducedAt(next, moved)).toBeLessThanOrEqual(MAX_TRIES);
  });

  it('a fee of 2% rounded to the cent (one of three changes): reproduced in most runs', () => {
    const next = draws(13);
    let caught = 0;
    for (let run = 0; run < 1_000; run++) if (faultReproducedAt(next, (a) => a + halfUp((a * 2) / 100)) !== undefined) caught += 1;
    expect(caught / 1_000).toBeGreaterThan(0.8);
  });

  it.each(CURRENCIES)(
    'ownAmount in %s: 1 and a fraction (2 to 99 without decimals), never round, never a sandbox outcome ending',
    (currency) => {
      let n = 0;
      const ctx = { ids: { nonce: () => `N-${currency}-${++n}` } } as unknown as CheckContext;
      const seen = new Set<string>();
      // Judged in plain code and asserted once: 8,000 expect calls cost this file most of its time.
      const wrong: string[] = [];
      for (let i = 0; i < 2_000; i++) {
        const amount = ownAmount(ctx, currency);
        const units = Number(amount.units);
        const inRange =
          amount.scale === 0 ? units >= 2 && units <= 99 : units > 10 ** amount.scale && units < 2 * 10 ** amount.scale && units % 10 !== 0;
        if (amount.scale !== minorUnitOf(currency) || !inRange || SANDBOX_OUTCOME_ENDINGS.includes(units % 100))
          wrong.push(`${units} at scale ${amount.scale}`);
        seen.add(String(units));
      }
      expect(wrong).toEqual([]);
      // Drawn from about a hundred values or more, so two runs at once rarely meet on one.
      expect(seen.size).toBeGreaterThan(80);
    },
  );

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
    // Two runs at once, one seed, run their balance checks in step: the first try of each sees the
    // other's payout. The pause before each later try (up to RETRY_PAUSE_SPAN_MS, drawn per run) puts
    // them out of step: a try's reads and payout take a few ms, so a later try meets the other run's
    // about once in 25; counted here as once in 10. Before: two tries alike of three, every try met,
    // blamed the target about once in twenty runs (the CI run that failed a conformant sandbox).
    const RUNS = 10_000;
    const rate = (laterMet: number, blames: (tries: readonly MissShape[]) => boolean) => {
      const next = draws(20261126);
      let blamed = 0;
      for (let run = 0; run < RUNS; run++) {
        const tries: MissShape[] = [];
        for (let n = 0; n < MAX_TRIES; n++) {
          const mine = ownCents(next);
          const theirs = ownCents(next);
          tries.push(tryOf(mine, n === 0 || next() / 2 ** 32 < laterMet ? mine + theirs : mine));
        }
        // A try the other run did not meet is exact: the check passes there.
        const exact = tries.findIndex((t) => t.after.balance.units === t.before.balance.units - t.amount.units);
        if (blames(exact < 0 ? tries : tries.slice(0, exact))) blamed += 1;
      }
      return blamed / RUNS;
    };
    const now = (tries: readonly MissShape[]) => reproducedAt(tries) !== undefined;
    const before = (tries: readonly MissShape[]) => twoAlike(tries.slice(0, 3));
    expect(rate(0.1, now)).toBeLessThan(1 / 5_000);
    // The measure sees what it is about: two alike of three, each try met, as before.
    expect(rate(1, before)).toBeGreaterThan(1 / 50);
  });

  it('the pause before a later try: drawn per run over the whole span, so two runs in step fall out of it', () => {
    let n = 0;
    const run = (tag: string) => ({ ids: { nonce: () => `${tag}-${++n}` } }) as unknown as CheckContext;
    const [a, b] = [run('A1F3'), run('B07C')];
    const pauses = Array.from({ length: 2_000 }, () => [retryPauseMs(a), retryPauseMs(b)] as const);
    for (const [x, y] of pauses) for (const p of [x, y]) expect(p >= 0 && p < RETRY_PAUSE_SPAN_MS).toBe(true);
    // Within 10 ms of each other (about two tries' length) in fewer than 1 in 10 pairs.
    expect(pauses.filter(([x, y]) => Math.abs(x - y) < 10).length / pauses.length).toBeLessThan(0.1);
    expect(Math.max(...pauses.map(([x]) => x))).toBeGreaterThan(RETRY_PAUSE_SPAN_MS * 0.9);
  });
});

/** Whether two tries of different amounts missed one way: the old rule. */
function twoAlike(tries: readonly MissShape[]): boolean {
  const ways = tries.map((t) => new Set(missWays(t).map((w) => w.way)));
  return tries.some((t, i) =>
    tries.some((u, j) => j > i && u.amount.units !== t.amount.units && [...ways[i]!].some((w) => ways[j]!.has(w))),
  );
}
