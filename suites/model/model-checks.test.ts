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
const LATER = ['dup-memory-expires', 'state-expiry-job-rewrites', 'money-status-debits-again'];
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

describe('MONEY-CONSERVATION: its sequences side by side first, one after another only after a miss', () => {
  const money = modelChecks.find((c) => c.requirement === 'MONEY-CONSERVATION')!;
  const INITIATE = '/api/v3/banking/payment/initiate';

  /** The sandbox, with `move(path, nth of that path)` minor units taken from the merchant's wallet after each request. */
  async function judged(move: (path: string, nth: number) => number) {
    const seen = new Map<string, number>();
    const sandbox: { app?: { store: { wallets: Map<string, { balanceMinor: number }> } }; walletId?: string } = {};
    const target = await sandboxTarget(
      {
        record: (x) => {
          seen.set(x.path, (seen.get(x.path) ?? 0) + 1);
          sandbox.app!.store.wallets.get(sandbox.walletId!)!.balanceMinor -= move(x.path, seen.get(x.path)!);
        },
      },
      undefined,
      RUNS,
    );
    Object.assign(sandbox, { app: target.sandbox.app, walletId: target.sandbox.config.merchant.walletId });
    try {
      const { outcome, meta } = await target.run(money);
      return { outcome, meta, initiations: seen.get(INITIATE) ?? 0, balanceReads: seen.get('/api/v3/banking/balance') ?? 0 };
    } finally {
      await target.close();
    }
  }
  const once = (nth: number) => (path: string, n: number) => (path === INITIATE && n === nth ? 100 : 0);

  it('a correct target: passed from the sequences side by side, with a handful of balance reads, not two a sequence', async () => {
    const { outcome, meta, initiations, balanceReads } = await judged(() => 0);
    expect({ outcome, failure: meta.failure?.message }).toEqual({ outcome: 'passed', failure: undefined });
    expect(initiations).toBeGreaterThan(8);
    expect(balanceReads).toBeLessThanOrEqual(6);
  });

  it('a move only while they ran side by side, seen by no look: failed on them (a later pass erases no miss), with no replay path', async () => {
    const { outcome, meta } = await judged(once(3));
    expect(outcome).toBe('failed');
    expect(meta.failure?.message).toMatch(
      /\(8 sequences side by side; 1 stretch of sequences missed, and no quiet look at the wallet saw anything else move it\)$/,
    );
    expect(meta.failure?.replayPath).toBeUndefined();
    expect(meta.failure?.reproduce).toMatch(/--only model-money-conservation$/);
  });

  it('a move on every balance read: not judged at once, when a look saw it and they missed side by side', async () => {
    const { outcome, meta, initiations } = await judged((path) => (path.endsWith('/balance') ? 7 : 0));
    expect(outcome).toBe('skipped');
    expect(meta.skipped).toMatch(/^not judged: other activity on the wallet: .*; 1 stretch of sequences saw the balance move/);
    // Only the sequences side by side were sent, none again one after another.
    const sideBySide = (await judged(() => 0)).initiations;
    expect(initiations).toBe(sideBySide);
  });
});
