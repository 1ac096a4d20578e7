import { describe, expect, it } from 'vitest';
import { nestedDeeperThan } from './json-depth.js';

/** An array `depth` levels deep (the root is level 1), its innermost holding `leaf`. */
function nested(depth: number, leaf: unknown = 1): unknown {
  let value: unknown = [leaf];
  for (let level = 1; level < depth; level++) value = level % 2 ? { k: value, s: 'x' } : [0, value];
  return value;
}

describe('nestedDeeperThan', () => {
  it('counts the root as level 1 and every object or array inside as one more; scalars add none', () => {
    expect(nestedDeeperThan(nested(3), 3)).toBe(false);
    expect(nestedDeeperThan(nested(4), 3)).toBe(true);
    expect(nestedDeeperThan(nested(3, {}), 3)).toBe(true);
    expect(nestedDeeperThan(nested(3, null), 3)).toBe(false);
    expect(nestedDeeperThan('text', 0)).toBe(false);
    expect(nestedDeeperThan({}, 0)).toBe(true);
  });

  it('finds the deep branch beside shallow ones, and walks a value far past the stack without overflowing', () => {
    expect(nestedDeeperThan({ a: 1, b: [2, { c: nested(5) }], d: null }, 7)).toBe(true);
    expect(nestedDeeperThan({ a: 1, b: [2, { c: nested(5) }], d: null }, 8)).toBe(false);
    expect(nestedDeeperThan(nested(100_000), 32)).toBe(true);
    expect(nestedDeeperThan(nested(100_000), 100_000)).toBe(false);
  });
});
