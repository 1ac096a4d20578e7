// The model checks against a real deployment: the reference sandbox behind a front with no control
// paths (suites/model/real-front-test-support.ts), so no settle, no checkout, and the merchant's own wallet, which other
// activity may move. P-MONEY-1 (v1.3): a miss with such activity seen in a quiet look is not judged,
// never passed; a miss no look excuses is the target's. P-STATE: off the sandbox the fixed sequences still judge every rule, and
// the states never reached are named, not claimed. An end-to-end test (`npm run test:e2e`): a
// deployment with other traffic on its wallet, and two runs against it at once.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../core/clock.js';
import { virtualClock } from '../core/clock-test-support.js';
import type { FaultName } from '../sandbox/index.js';
import { OPERATION_PATHS } from '../sandbox/paths.js';
import { modelChecks } from '../suites/checks/model.js';
import { realFront, type FrontOptions } from '../suites/model/real-front-test-support.js';

const byRequirement = (requirement: string) => modelChecks.find((c) => c.requirement === requirement)!;
const money = byRequirement('MONEY-CONSERVATION');

async function runOnFront(check: (typeof modelChecks)[number], faults: FaultName[] = [], seed = 42, front: FrontOptions = {}) {
  const deployment = await realFront({ faults }, virtualClock(), front);
  try {
    const { outcome, meta } = await deployment.target(seed, 3).run(check);
    return { outcome, meta, why: meta.failure?.message ?? meta.skipped ?? meta.error?.message };
  } finally {
    await deployment.close();
  }
}

describe('MONEY-CONSERVATION on a real deployment whose wallet others use too', () => {
  it("two runs at once, each paying until both are done: never a failure; one that saw the other's payouts says not judged", async () => {
    // Real time: a quiet look's pause must last for the other run to pay in it. A run that finishes first
    // goes on paying (its check again) until the other is done, as a whole run's later checks do: P-MONEY-1
    // fails misses no look witnessed, and a run that fell silent for good leaves nothing to witness.
    const deployment = await realFront({}, systemClock);
    try {
      for (let round = 0; round < 2; round++) {
        let finished = 0;
        const firstOf = async (target: ReturnType<typeof deployment.target>) => {
          const first = await target.run(money);
          finished += 1;
          for (let again = 0; finished < 2 && again < 5; again++) await target.run(money);
          return first;
        };
        const results = await Promise.all([firstOf(deployment.target(42, 5)), firstOf(deployment.target(42, 5))]);
        for (const { outcome, meta } of results) {
          expect({ outcome, error: meta.error?.message, failure: meta.failure?.message }).toEqual({
            outcome: expect.stringMatching(/^(passed|skipped)$/),
            error: undefined,
            failure: undefined,
          });
          if (outcome === 'skipped') expect(meta.skipped).toMatch(/^not judged: other activity on the wallet/);
        }
      }
    } finally {
      await deployment.close();
    }
  }, 60_000);

  // Another run's payouts, of amounts of their own, leave the balance lower on every read: every
  // money sequence misses, and its re-runs miss by other amounts (before the fix: failed).
  it('other activity on every read: not judged, not failed', async () => {
    const result = await runOnFront(money, [], 42, { otherActivity: (n) => BigInt(n * (n + 7) * 13) });
    expect({ outcome: result.outcome, why: result.why }).toEqual({
      outcome: 'skipped',
      why: expect.stringMatching(/^not judged: other activity on the wallet/),
    });
  }, 60_000);

  // One move of 5.00 between the first sequence's two balance reads, never again: its re-run is clean
  // (before the fix: a notice, and the requirement passed on the other sequences).
  it('other activity once, seen by a quiet look and inside no sequence: every sequence judged, passed', async () => {
    // The 3rd Balance Inquiry is the second read of the first sequence's starting look: the move is seen there.
    const result = await runOnFront(money, [], 42, { otherActivity: (n) => (n >= 3 ? 500n : 0n) });
    expect({ outcome: result.outcome, why: result.why }).toEqual({ outcome: 'passed', why: undefined });
  }, 60_000);

  it('other activity once, inside a sequence, seen by no quiet look: failed, as no one can tell it from a fault (P-CLI v1.3)', async () => {
    // The 4th Balance Inquiry ends the first sequence; no look before or after sees the wallet move.
    const result = await runOnFront(money, [], 42, { otherActivity: (n) => (n >= 4 ? 500n : 0n) });
    expect(result.outcome).toBe('failed');
    expect(result.why).toMatch(/no quiet look at the wallet saw anything else move it/);
  }, 60_000);

  it('money-duplicate-debits still fails MONEY-CONSERVATION off the sandbox', async () => {
    const result = await runOnFront(money, ['money-duplicate-debits']);
    expect({ outcome: result.outcome, error: result.meta.error?.message }).toEqual({ outcome: 'failed', error: undefined });
    expect(result.why).toContain('MONEY-CONSERVATION');
    expect(result.why).toContain('no quiet look at the wallet saw anything else move it');
  }, 60_000);
});

describe('the model rules off the sandbox', () => {
  it.each([1, 2, 3, 4, 5, 6])(
    'state-payout-id-reallocated fails STATE-READS-AGREE (seed %i)',
    async (seed) => {
      const result = await runOnFront(byRequirement('STATE-READS-AGREE'), ['state-payout-id-reallocated'], seed);
      expect({ outcome: result.outcome, error: result.meta.error?.message }).toEqual({ outcome: 'failed', error: undefined });
      expect(result.why).toContain('STATE-READS-AGREE');
    },
    60_000,
  );

  it.each([
    ['STATE-ORDER-LIFECYCLE', 'state-paid-cancellable', /never reached: order PAID, order EXPIRED/],
    ['MONEY-CONSERVATION', 'money-reversal-not-refunded', /never reached: payout REVERSED/],
    ['STATE-PAYOUT-LIFECYCLE', undefined, /never reached: payout REVERSED/],
  ] as const)(
    '%s is judged on what was reached, and names what was not (%s)',
    async (requirement, fault, notice) => {
      const result = await runOnFront(byRequirement(requirement), fault === undefined ? [] : [fault]);
      expect({ outcome: result.outcome, why: result.why }).toEqual({ outcome: 'passed', why: undefined });
      expect(result.meta.notes).toEqual([expect.stringMatching(notice)]);
    },
    60_000,
  );

  // A deployment that refuses every cancel: no order reaches a final state, so whether final states
  // stay final was never seen (before: passed).
  it('STATE-ORDER-LIFECYCLE with no final state reached is not judged', async () => {
    const result = await runOnFront(byRequirement('STATE-ORDER-LIFECYCLE'), [], 42, { refuse: [OPERATION_PATHS.orderCancel] });
    expect({ outcome: result.outcome, why: result.why }).toEqual({
      outcome: 'skipped',
      why: expect.stringMatching(/^not judged: no sequence reached order PAID, order CANCELLED, order EXPIRED/),
    });
  }, 60_000);
});
