import { describe, expect, it } from 'vitest';
import { DEFAULT_VARIANT, allVariants, type SandboxVariant } from './options.js';

// The values each choice of a variant may take, written here rather than read from allVariants().
const VALUES: { [K in keyof SandboxVariant]: readonly SandboxVariant[K][] } = {
  createStatus: [200, 201],
  verify: ['raw', 'canonical'],
  replay: ['allow', 'refuse'],
  toleranceSeconds: [300, 900],
  debitAt: ['initiation', 'settlement'],
  otherMethod: [405, 404],
  longIds: ['keep', 'refuse'],
};

describe('allVariants', () => {
  it('is a pairwise cover: each value of every choice meets each value of every other choice in some variant', () => {
    const variants = allVariants();
    const keys = Object.keys(VALUES) as (keyof SandboxVariant)[];
    const missing: string[] = [];
    for (const [a, first] of keys.entries())
      for (const second of keys.slice(a + 1))
        for (const x of VALUES[first])
          for (const y of VALUES[second])
            if (!variants.some((v) => v[first] === x && v[second] === y)) missing.push(`${first}=${x} with ${second}=${y}`);
    expect(missing).toEqual([]);
  });

  it('certifies the default variant and no two alike', () => {
    const variants = allVariants();
    expect(variants).toContainEqual(DEFAULT_VARIANT);
    expect(new Set(variants.map((v) => JSON.stringify(v))).size).toBe(variants.length);
  });
});
