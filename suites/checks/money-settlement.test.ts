// The wallet checks against a sandbox whose payouts settle slowly (10 minutes of the injected clock,
// far beyond the checks' 12 s wait): a server that debits at settlement and holds in-flight payouts
// back from what a new payout may take is not failed for it; a server that debits at initiation is
// judged at once, without waiting for settlement; a fault is still found.
import { describe, expect, it } from 'vitest';
import type { SandboxVariant } from '../../sandbox/index.js';
import type { StartOptions } from '../../sandbox/index.js';
import { openSpareWallet, sandboxTarget, type SandboxTarget } from '../check-test-support.js';
import { moneyChecks } from './money.js';
import { raceChecks } from './races.js';

const SLOW = 600;

/** A sandbox with one spare wallet, opened beforehand and named in the config as fixtures.spareWallet. */
async function withSpareFixture(options: StartOptions): Promise<SandboxTarget> {
  const target = await sandboxTarget(options);
  await openSpareWallet(target, '40.50');
  return target;
}

async function outcomes(target: SandboxTarget, ids: readonly string[]): Promise<Record<string, string>> {
  const checks = [...moneyChecks, ...raceChecks];
  const seen: Record<string, string> = {};
  for (const id of ids) {
    const { outcome, meta } = await target.run(checks.find((c) => c.id === id)!);
    seen[id] = `${outcome}: ${meta.failure?.message ?? meta.skipped ?? meta.error?.message ?? ''}`;
  }
  return seen;
}

describe('payouts still in flight on the spare wallet', () => {
  it('debitAt settlement, slow settlement: the overdraft and the whole balance are not judged, never failed', async () => {
    const variant: Partial<SandboxVariant> = { debitAt: 'settlement' };
    const target = await withSpareFixture({ variant, settleSeconds: SLOW });
    try {
      const seen = await outcomes(target, ['money-no-overdraft', 'money-exact-balance']);
      expect(seen['money-no-overdraft']).toMatch(
        /^skipped: not judged: whether the balance stays at zero or more once the debits are taken/,
      );
      expect(seen['money-exact-balance']).toMatch(
        /^skipped: not judged: the whole balance, since \d payout\(s\) of this run on the spare wallet/,
      );
    } finally {
      await target.close();
    }
  }, 60_000);

  it('debitAt settlement, settling within the wait: both are judged and pass', async () => {
    const variant: Partial<SandboxVariant> = { debitAt: 'settlement' };
    const target = await withSpareFixture({ variant, settleSeconds: 6 });
    try {
      const seen = await outcomes(target, ['money-no-overdraft', 'money-exact-balance']);
      expect(seen).toEqual({ 'money-no-overdraft': 'passed: ', 'money-exact-balance': 'passed: ' });
    } finally {
      await target.close();
    }
  }, 60_000);

  it('money-exact-balance-refused still fails on the configured spare wallet', async () => {
    const target = await withSpareFixture({
      faults: ['money-exact-balance-refused'],
      variant: { debitAt: 'settlement' },
      settleSeconds: 6,
    });
    try {
      const seen = await outcomes(target, ['money-no-overdraft', 'money-exact-balance']);
      expect(seen['money-exact-balance']).toMatch(/^failed: a payout of exactly the whole balance/);
    } finally {
      await target.close();
    }
  }, 60_000);
});

describe('a server that debits at initiation is judged without waiting for settlement', () => {
  it('debitAt initiation, slow settlement: the overdraft, the concurrent initiation and the refused requests pass', async () => {
    const variant: Partial<SandboxVariant> = { debitAt: 'initiation' };
    const target = await withSpareFixture({ variant, settleSeconds: SLOW });
    try {
      const seen = await outcomes(target, [
        'money-no-overdraft',
        'money-exact-balance',
        'ops-initiate-concurrent',
        'money-refused-no-effect',
      ]);
      expect(seen).toEqual({
        'money-no-overdraft': 'passed: ',
        'money-exact-balance': 'passed: ',
        'ops-initiate-concurrent': 'passed: ',
        'money-refused-no-effect': 'passed: ',
      });
    } finally {
      await target.close();
    }
  }, 60_000);
});
