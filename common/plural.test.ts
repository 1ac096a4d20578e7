import { describe, expect, it } from 'vitest';
import { plural } from './plural.js';

describe('plural', () => {
  it.each([
    [0, 'requirement', undefined, '0 requirements'],
    [1, 'requirement', undefined, '1 requirement'],
    [2, 'check', undefined, '2 checks'],
    [1, 'delivery', 'deliveries', '1 delivery'],
    [15, 'delivery', 'deliveries', '15 deliveries'],
  ] as const)('%d %s → %s', (n, one, many, expected) => expect(plural(n, one, many)).toBe(expected));
});
