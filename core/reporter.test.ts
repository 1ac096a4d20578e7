import { describe, expect, it } from 'vitest';
import { endRun, type Reporter } from './reporter.js';
import type { Report } from './report.js';

const report = { verdict: 'conformant' } as Report;

describe('endRun', () => {
  it('tells the reporters in their order, each seeing the files of those before it', async () => {
    const seen: string[][] = [];
    const writer = (file: string): Reporter => ({ onRunEnd: (end) => void end.files.push(file) });
    const lister: Reporter = { onRunEnd: (end) => void seen.push([...end.files]) };
    expect(await endRun([writer('a'), lister, writer('b'), lister], report)).toEqual(['a', 'b']);
    expect(seen).toEqual([['a'], ['a', 'b']]);
  });

  it('tells no one more once the command is interrupted', async () => {
    const stop = new AbortController();
    const told: string[] = [];
    await endRun(
      [
        { onRunEnd: () => void told.push('first') },
        { onRunEnd: () => stop.abort('SIGINT') },
        { onRunEnd: () => void told.push('after the interrupt') },
      ],
      report,
      stop.signal,
    );
    expect(told).toEqual(['first']);
  });
});
