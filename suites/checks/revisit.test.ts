// The revisit (P-DUP-5, P-STATE; profile.revisitAfterSeconds): what the run wrote, read again once time
// has passed, on the virtual clock both sides share (its waits take no real time).
import { describe, expect, it } from 'vitest';
import type { FaultName } from '../../sandbox/faults.js';
import { sandboxTarget } from '../check-test-support.js';
import { modelChecks } from './model.js';
import { writtenBy } from '../written.js';
import { revisitChecks } from './revisit.js';

const [ids, records] = revisitChecks;

/** Some checks that write, then the revisit checks, as a run orders them: each one's outcome and why. */
async function revisit(faults: FaultName[] = [], before = modelChecks) {
  const target = await sandboxTarget({ faults });
  try {
    for (const check of before) await target.run(check);
    const ended = [];
    for (const check of [ids!, records!]) {
      const { outcome, meta } = await target.run(check);
      ended.push({ outcome, why: meta.failure?.message ?? meta.skipped });
    }
    const oldest = writtenBy(target.state)[0]?.at ?? Infinity;
    return { ended, oldestAgeMs: target.state.settings.clock!.now() - oldest };
  } finally {
    await target.close();
  }
}

describe('the revisit', () => {
  it('passes on a correct sandbox, having waited until what it reads is 12 s old', async () => {
    const { ended, oldestAgeMs } = await revisit();
    expect(ended.map((e) => e.outcome)).toEqual(['passed', 'passed']);
    expect(oldestAgeMs).toBeGreaterThanOrEqual(12_000);
  });

  it('writes an order of its own when the run wrote none, and judges it', async () => {
    const { ended } = await revisit([], []);
    expect(ended.map((e) => e.outcome)).toEqual(['passed', 'passed']);
  });

  it('fails a duplicate memory that forgets an id after 10 s (dup-memory-expires)', async () => {
    const { ended } = await revisit(['dup-memory-expires']);
    expect(ended[0]!.outcome).toBe('failed');
    expect(ended[0]!.why).toMatch(
      /^Create Order with the order_id of a record written at least 12 s earlier \(\w+ when last read\) must answer 409 \(P-DUP-5/,
    );
  });

  it('fails an expiry job that rewrites final orders (state-expiry-job-rewrites)', async () => {
    // Alone: the model's own reads, on the same clock, would see the rewrite first.
    const { ended } = await revisit(['state-expiry-job-rewrites'], []);
    expect(ended[1]!.outcome).toBe('failed');
    expect(ended[1]!.why).toMatch(
      /^order \S+, CANCELLED \(final\) when last read, reads order_status "EXPIRED" at least 12 s after it was written \(P-STATE-1/,
    );
  });
});
