import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleProgress } from './console.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('ConsoleProgress', () => {
  it('says how far a long run is and how many requests are out, at most every few seconds', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const lines: string[] = [];
    const progress = new ConsoleProgress((line) => lines.push(line), () => 'MUST');
    progress.onProgress({ done: 3, total: 90, inFlight: 8 });
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(3_100);
    progress.onProgress({ done: 40, total: 90, inFlight: 8 });
    progress.onProgress({ done: 41, total: 90, inFlight: 1 });
    expect(lines).toEqual(['  … 40 of 90 checks done, 8 requests in flight']);
    vi.advanceTimersByTime(3_100);
    progress.onProgress({ done: 89, total: 90, inFlight: 1 });
    progress.onProgress({ done: 90, total: 90, inFlight: 0 });
    expect(lines.at(-1)).toBe('  … 89 of 90 checks done, 1 request in flight');
    expect(lines).toHaveLength(2);
  });
});
