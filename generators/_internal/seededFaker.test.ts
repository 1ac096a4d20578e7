import { describe, expect, it } from 'vitest';
import { drawWith, localeById, splitMix32 } from './seededFaker.js';

describe('splitMix32, the randomizer each seeded faker draw runs on', () => {
  const sequence = (seed: number | number[], length: number): number[] => {
    const random = splitMix32();
    random.seed(seed);
    return Array.from({ length }, () => random.next());
  };

  it('gives the same numbers for a seed, whatever was drawn before, and others for another seed', () => {
    const random = splitMix32();
    random.seed(99);
    for (let i = 0; i < 50; i++) random.next();
    random.seed(7);
    expect([random.next(), random.next()]).toEqual(sequence(7, 2));
    expect(sequence(7, 8)).not.toEqual(sequence(8, 8));
    expect(sequence([7, 1], 8)).not.toEqual(sequence([7, 2], 8));
  });

  it('draws evenly from [0, 1): ten buckets of 20,000 numbers each hold about a tenth', () => {
    const numbers = sequence(12345, 20_000);
    expect(numbers.every((n) => n >= 0 && n < 1)).toBe(true);
    const buckets = new Array<number>(10).fill(0);
    for (const n of numbers) buckets[Math.floor(n * 10)]! += 1;
    // Chi-square with 9 degrees of freedom: above 27.9 happens by chance once in a thousand.
    const chiSquare = buckets.reduce((sum, count) => sum + (count - 2_000) ** 2 / 2_000, 0);
    expect(chiSquare).toBeLessThan(27.9);
  });

  it('makes successive seeds as unlike as distant ones (fast-check draws seeds next to each other)', () => {
    const firsts = Array.from({ length: 1_000 }, (_, seed) => sequence(seed, 1)[0]!);
    expect(new Set(firsts.map((n) => Math.floor(n * 100))).size).toBeGreaterThan(90);
  });
});

describe("a locale's faker", () => {
  it("draws the locale's own data, the same for the same seed", () => {
    const german = localeById('de').faker;
    const first = drawWith(german, 42, (f) => [f.person.lastName(), f.location.city()]);
    expect(drawWith(german, 42, (f) => [f.person.lastName(), f.location.city()])).toEqual(first);
    const surnames = german.rawDefinitions.person?.last_name?.generic ?? [];
    expect(surnames).toContain(first[0]);
  });
});
