// The Create Order, Duplicates, Payout Status and Profile operations checks, run against real
// reference sandboxes on loopback: each fault of their sections makes one of them fail, and a missing
// config key skips them by name. That they pass a correct server in every legitimate variant is
// test/check-variants.test.ts (with the end-to-end tests).
import { describe, expect, it } from 'vitest';
import { FAULTS, FAULT_NAMES, type FaultName } from '../../sandbox/index.js';
import { DEFAULT_VARIANT } from '../../sandbox/options.js';
import { catalog } from '../catalog.js';
import { sandboxTarget, surprisesAgainst } from '../check-test-support.js';
import type { TargetConfig } from '../config.js';
import { ORDER_AREA_CHECKS } from './areas-test-support.js';

const CHECKS = ORDER_AREA_CHECKS;
const SECTIONS = ['ORDER-', 'DUP-', 'PAYOUT-', 'OPS-'];
const ours = (requirement: string) => SECTIONS.some((prefix) => requirement.startsWith(prefix));

describe('the checks of these sections cover the catalog', () => {
  it('every ORDER-, DUP-, PAYOUT- and OPS- requirement has a check; every check names one of them', () => {
    const requirements = catalog()
      .filter((r) => ours(r.id))
      .map((r) => r.id);
    expect(requirements.filter((id) => !CHECKS.some((c) => c.requirement === id))).toEqual([]);
    expect(CHECKS.map((c) => c.requirement).filter((id) => !requirements.includes(id))).toEqual([]);
  });

  it('check ids are unique', () => {
    const ids = CHECKS.map((c) => c.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
});

const OUR_FAULTS = FAULT_NAMES.filter((name) => ours(FAULTS[name].requirement));

describe('detection: each fault of these sections fails a check of its requirement', () => {
  it('there are faults to detect in every section', () => {
    for (const prefix of SECTIONS)
      expect(
        OUR_FAULTS.some((name) => FAULTS[name].requirement.startsWith(prefix)),
        prefix,
      ).toBe(true);
  });

  it.concurrent.each(OUR_FAULTS.map((name) => [name, FAULTS[name].requirement] as const))(
    'fault %s fails %s',
    async (fault: FaultName, requirement) => {
      const checks = CHECKS.filter((c) => c.requirement === requirement);
      expect(checks.length, `no check for ${requirement}`).toBeGreaterThan(0);
      const target = await sandboxTarget({ faults: [fault] }, (c) => c, 5);
      try {
        const outcomes: string[] = [];
        for (const check of checks) outcomes.push(`${check.id}: ${(await target.run(check)).outcome}`);
        expect(
          outcomes.some((o) => o.endsWith(': failed')),
          outcomes.join('; '),
        ).toBe(true);
      } finally {
        await target.close();
      }
    },
    60_000,
  );
});

describe('a payout that stays PROCESSING is not a failure', () => {
  const debited = async (debitAt: 'initiation' | 'settlement', faults: FaultName[] = []) => {
    const target = await sandboxTarget({ settleSeconds: 3600, variant: { ...DEFAULT_VARIANT, debitAt }, faults }, (c) => c, 3);
    try {
      return await target.run(CHECKS.find((c) => c.id === 'ops-balance-debited')!);
    } finally {
      await target.close();
    }
  };

  it('OPS-BALANCE-DEBITED is skipped, saying so, when the payout is not debited and does not settle within the polling time', async () => {
    const { outcome, meta } = await debited('settlement');
    expect(outcome).toBe('skipped');
    expect(meta.skipped).toMatch(/still PROCESSING or PENDING/);
  }, 30_000);

  it('is judged at once when its record says amount_debited YES: passed, or failed when the balance did not move', async () => {
    expect((await debited('initiation')).outcome).toBe('passed');
    expect((await debited('initiation', ['ops-balance-not-debited'])).outcome).toBe('failed');
  }, 30_000);
});

interface SkipCase {
  removed: string;
  edit(config: TargetConfig): void;
  /** Check ids that must be skipped, naming `key`. */
  skipped: readonly string[];
  key: string;
  /** Check ids that must still pass without the key. */
  passing?: readonly string[];
}

const SKIP_CASES: SkipCase[] = [
  {
    removed: 'otherMerchant',
    key: 'otherMerchant',
    edit: (c) => void delete c.otherMerchant,
    skipped: ['duplicate-other-merchant', 'payout-status-other-merchant-wallet'],
  },
  {
    removed: 'fixtures.payouts.FAILED',
    key: 'fixtures.payouts.FAILED',
    edit: (c) => void delete c.fixtures!.payouts!.FAILED,
    skipped: ['payout-status-failed', 'payout-failed-invariants'],
    passing: ['payout-record-format', 'payout-status-success'],
  },
  {
    removed: 'every fixtures.payouts entry',
    key: 'fixtures.payouts',
    edit: (c) => void (c.fixtures!.payouts = {}),
    skipped: ['payout-record-format', 'payout-status-pending', 'payout-status-other-merchant-wallet'],
    passing: ['payout-status-without-payout-order-id', 'payout-status-unknown-wallet'],
  },
  {
    removed: 'fixtures.otherMerchantPayoutOrderId',
    key: 'fixtures.otherMerchantPayoutOrderId',
    edit: (c) => void delete c.fixtures!.otherMerchantPayoutOrderId,
    skipped: ['payout-status-other-merchant'],
  },
  {
    removed: 'profile.operations.orderStatus',
    key: 'profile.operations.orderStatus',
    edit: (c) => void delete c.profile!.operations!.orderStatus,
    skipped: ['duplicate-first-unchanged', 'ops-order-status', 'ops-order-status-unknown'],
  },
  {
    removed: 'profile.operations.orderStatus (set to null)',
    key: 'profile.operations.orderStatus',
    edit: (c) => void (c.profile!.operations!.orderStatus = null),
    skipped: ['duplicate-first-unchanged', 'ops-order-status'],
  },
  {
    removed: 'profile.operations.balanceInquiry',
    key: 'profile.operations.balanceInquiry',
    edit: (c) => void delete c.profile!.operations!.balanceInquiry,
    // the payouts' currency is the wallet's, and only Balance Inquiry tells it
    skipped: [
      'ops-balance',
      'ops-balance-debited',
      'ops-balance-unchanged-on-failure',
      'ops-initiate-insufficient',
      'ops-initiate',
      'ops-initiate-duplicate',
      'ops-initiate-transfer-mode',
      'ops-initiate-other-environment',
    ],
    passing: ['ops-order-status', 'ops-cancel'],
  },
  {
    removed: 'otherEnvironment.walletId',
    key: 'otherEnvironment.walletId',
    edit: (c) => void delete c.otherEnvironment!.walletId,
    skipped: ['ops-initiate-other-environment'],
  },
];

describe('skips: a check that needs an absent config key is skipped, naming the key', () => {
  it.each(SKIP_CASES)('without $removed', async ({ edit, skipped, key, passing = [] }) => {
    const target = await sandboxTarget({}, (config) => (edit(config), config), 3);
    try {
      for (const id of skipped) {
        const { outcome, meta } = await target.run(CHECKS.find((c) => c.id === id)!);
        expect(outcome, id).toBe('skipped');
        expect(meta.skipped, id).toContain(key);
      }
      for (const id of passing) expect((await target.run(CHECKS.find((c) => c.id === id)!)).outcome, id).toBe('passed');
    } finally {
      await target.close();
    }
  });
});

describe('no false alarm: every check passes the default sandbox (each variant: test/check-variants.test.ts)', () => {
  it('passes, with no finding, except the https payment link, not applicable on http', async () => {
    const surprises = await surprisesAgainst({}, CHECKS, {
      runs: 4,
      wanted: (check) => (check.id === 'create-order-payment-link-https' ? 'skipped' : 'passed'),
    });
    expect(surprises).toEqual([]);
  }, 60_000);
});
