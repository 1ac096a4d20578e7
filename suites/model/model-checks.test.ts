// The model checks against the reference sandbox: clean on it, and each failing, naming its
// requirement, under the fault that breaks its rule. Clean on its other settlements (quick, slow, the
// debit taken at settlement) is test/check-variants.test.ts, with the end-to-end tests.
import { describe, expect, it } from 'vitest';
import type { FaultName } from '../../sandbox/index.js';
import { FAULTS } from '../../sandbox/index.js';
import { sandboxTarget, surprisesAgainst } from '../check-test-support.js';
import { modelChecks } from '../checks/model.js';

const RUNS = 3;

describe('the model checks on the reference sandbox', () => {
  it('pass, with no finding', async () => expect(await surprisesAgainst({}, modelChecks, { runs: RUNS })).toEqual([]), 60_000);
});

/** Faults that act only once a record is 10 s old: the revisit catches them (checks/revisit.test.ts). */
const LATER = ['dup-memory-expires', 'state-expiry-job-rewrites'];
const STATE_FAULTS = Object.entries(FAULTS)
  .filter(([name, spec]) => spec.area === 'state' && !LATER.includes(name))
  .map(([name]) => name as FaultName);

describe('each state fault fails the model check of its requirement', () => {
  it.each(STATE_FAULTS)(
    '%s',
    async (fault) => {
      const requirement = FAULTS[fault].requirement;
      const check = modelChecks.find((c) => c.requirement === requirement)!;
      const target = await sandboxTarget({ faults: [fault] }, undefined, RUNS);
      try {
        const { outcome, meta } = await target.run(check);
        expect({ outcome, error: meta.error?.message }).toEqual({ outcome: 'failed', error: undefined });
        expect(meta.failure?.message).toContain(requirement);
        expect(meta.failure?.steps?.length).toBeGreaterThan(0);
        expect(meta.failure?.reproduce).toMatch(new RegExp(`--seed 42 --only ${check.id} --replay-path \\d+(:\\d+)*$`));
      } finally {
        await target.close();
      }
    },
    60_000,
  );
});
