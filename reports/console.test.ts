import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Report } from '../core/report.js';
import { ConsoleProgress, judged } from './console.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('ConsoleProgress', () => {
  it('says how far a long run is and how many requests are out, at most every few seconds', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const lines: string[] = [];
    const progress = new ConsoleProgress(
      (line) => lines.push(line),
      () => 'MUST',
    );
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

describe('judged', () => {
  const base = { target: { baseUrl: 'http://127.0.0.1:4010', environment: 'sandbox', embeddedSandbox: false } } as Report;

  it('counts in the singular for one: "1 request", "1 delivery"', () => {
    expect(
      judged({
        ...base,
        client: { command: 'node c.mjs', exitCode: 0, requests: 1, scenarios: [] },
        receiver: { url: 'http://127.0.0.1:4020/hooks', deliveries: 1 },
      }),
    ).toBe('client `node c.mjs` (1 request; its webhook receiver at http://127.0.0.1:4020/hooks, 1 delivery)');
    expect(judged({ ...base, receiver: { url: 'http://127.0.0.1:4020/hooks', deliveries: 1 } })).toBe(
      'the webhook receiver at http://127.0.0.1:4020/hooks (1 delivery)',
    );
    expect(judged({ ...base, receiver: { url: 'http://127.0.0.1:4020/hooks', deliveries: 2 } })).toBe(
      'the webhook receiver at http://127.0.0.1:4020/hooks (2 deliveries)',
    );
  });
});
