import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CheckResult } from '../core/report.js';
import { ProgressReporter } from './progress.js';

afterEach(() => {
  vi.useRealTimers();
});

const ended = {} as CheckResult;

describe('ProgressReporter', () => {
  it('says how far a long run is and how many requests are out, at most every few seconds', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const lines: string[] = [];
    const progress = new ProgressReporter(
      (line) => lines.push(line),
      () => 'MUST',
    );
    progress.onCheckEnd(ended, { done: 3, total: 90, inFlight: 8 });
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(3_100);
    progress.onCheckEnd(ended, { done: 40, total: 90, inFlight: 8 });
    progress.onCheckEnd(ended, { done: 41, total: 90, inFlight: 1 });
    expect(lines).toEqual(['  … 40 of 90 checks done, 8 requests in flight']);
    vi.advanceTimersByTime(3_100);
    progress.onCheckEnd(ended, { done: 89, total: 90, inFlight: 1 });
    progress.onCheckEnd(ended, { done: 90, total: 90, inFlight: 0 });
    expect(lines.at(-1)).toBe('  … 89 of 90 checks done, 1 request in flight');
    expect(lines).toHaveLength(2);
  });
});
