import { describe, expect, it } from 'vitest';
import { runHints } from './verdict.js';
import type { CheckResult } from './report.js';

const result = (answered: number, refused401: number): CheckResult => ({
  meta: { check: 'c', requirement: 'R', title: 't', evidence: [], findings: [], plainlySigned: { answered, refused401 } },
  state: refused401 > 0 ? 'failed' : 'passed',
  durationMs: 0,
});

describe('runHints: one cause said once', () => {
  it('names the keys when every plainly signed request was refused 401', () => {
    expect(runHints([result(2, 2), result(3, 3)])).toEqual([expect.stringMatching(/^every one of the 5 correctly signed requests was refused with 401: check that merchant\.apiKey/)]);
  });

  it.each([
    ['one accepted among them', [result(2, 2), result(3, 2)]],
    ['too few to say', [result(2, 2)]],
    ['none sent', [] as CheckResult[]],
  ])('says nothing with %s', (_name, results) => {
    expect(runHints(results)).toEqual([]);
  });
});
