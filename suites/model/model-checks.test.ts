// The model checks against the reference sandbox: clean on it (with a quick or a slow settlement, and
// with the debit taken at settlement), and each failing, naming its requirement, under the fault that
// breaks its rule.
import { describe, expect, it } from 'vitest';
import type { FaultName } from '../../sandbox/index.js';
import { FAULTS } from '../../sandbox/index.js';
import { sandboxTarget } from '../check-test-support.js';
import { modelChecks } from '../checks/model.js';

const RUNS = 3;

describe('the model checks on the reference sandbox', () => {
  it.each([
    ['default', {}],
    ['slow settlement (PROCESSING takes a while)', { settleSeconds: 600 }],
    ['instant settlement', { settleSeconds: 0 }],
    ['debit at settlement', { variant: { debitAt: 'settlement' as const } }],
  ])(
    'pass: %s',
    async (_name, options) => {
      const target = await sandboxTarget(options, undefined, RUNS);
      try {
        for (const check of modelChecks) {
          const { outcome, meta } = await target.run(check);
          expect({ check: check.id, outcome, why: meta.failure?.message ?? meta.skipped ?? meta.error?.message }).toEqual({
            check: check.id,
            outcome: 'passed',
            why: undefined,
          });
          expect(meta.findings).toEqual([]);
        }
      } finally {
        await target.close();
      }
    },
    60_000,
  );
});

const STATE_FAULTS = Object.entries(FAULTS)
  .filter(([, spec]) => spec.area === 'state')
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
