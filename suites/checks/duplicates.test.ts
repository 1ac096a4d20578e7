// DUP-CONCURRENT's evidence, against the reference sandbox with its duplicate race: what a person
// reads is the race, not the warm-up reads that opened its connections.
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../core/clock.js';
import { startSandbox } from '../../sandbox/index.js';
import { executeCheck, newMeta } from '../check-context.js';
import { ConformanceRun } from '../run.js';
import { duplicateChecks } from './duplicates.js';

const open: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

describe('DUP-CONCURRENT', () => {
  it('shows only the concurrent creates as evidence, the failing one first and the rest as sent', async () => {
    const sandbox = await startSandbox({ port: 0, faults: ['dup-race'] });
    open.push(() => sandbox.close());
    const check = duplicateChecks.find((c) => c.requirement === 'DUP-CONCURRENT')!;
    const run = await ConformanceRun.open({
      target: { config: structuredClone(sandbox.config) },
      sections: [],
      clock: systemClock,
      seed: 7,
      runs: 1,
      runNumber: 1,
      timeoutMs: 5_000,
    });
    const meta = newMeta(check);
    try {
      expect(await executeCheck(check, run.state, meta, 0)).toBe('failed');
    } finally {
      await run.close();
    }
    const labels = meta.evidence.map((x) => x.label);
    expect(labels.filter((l) => !/^concurrent create \d+ of 8, one order_id$/.test(l))).toEqual([]);
    const numbers = labels.map((l) => Number(/create (\d+)/.exec(l)![1]));
    expect(numbers.slice(1)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].filter((i) => i !== numbers[0]));
  });
});
