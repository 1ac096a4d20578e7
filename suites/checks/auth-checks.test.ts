// The Authentication, Signature, Environments and Errors checks against the reference sandbox: what
// they cover, what they skip and why. With the end-to-end tests: every fault of these areas caught by
// a check of its requirement, no secret in any evidence (test/auth-area-faults.test.ts), and no false
// alarm in any legitimate variant (test/check-variants.test.ts).
import { describe, expect, it } from 'vitest';
import { DEFAULT_VARIANT } from '../../sandbox/options.js';
import { catalog } from '../catalog.js';
import { sandboxTarget, surprisesAgainst } from '../check-test-support.js';
import type { TargetConfig } from '../config.js';
import { AUTH_AREA_CHECKS, withWindow } from './areas-test-support.js';

const CHECKS = AUTH_AREA_CHECKS;
const SECTIONS = /^(AUTH|SIGN|ENV|ERR)-/;
const RUNS = 5;

describe('the checks of Authentication, Signature, Environments and Errors', () => {
  it('cover every requirement of those sections, and name only catalog requirements', () => {
    const ids = new Set(catalog().map((r) => r.id));
    const covered = new Set(CHECKS.map((c) => c.requirement));
    expect(
      catalog()
        .filter((r) => SECTIONS.test(r.id) && !covered.has(r.id))
        .map((r) => r.id),
    ).toEqual([]);
    expect(CHECKS.filter((c) => !ids.has(c.requirement) || !SECTIONS.test(c.requirement)).map((c) => c.id)).toEqual([]);
    expect(new Set(CHECKS.map((c) => c.id)).size).toBe(CHECKS.length);
  });
});

describe('a deployment whose window is narrower than 30 s', () => {
  // P-AUTH-3's "30 s old and 30 s ahead are accepted" cannot hold inside a 20 s window, which the
  // profile lets a deployment configure: both checks are not applicable there, never failed.
  it('skips AUTH-WINDOW-RECENT and AUTH-WINDOW-AHEAD, and still judges timestamps past the window', async () => {
    const target = await sandboxTarget({ variant: { ...DEFAULT_VARIANT, toleranceSeconds: 20 } }, withWindow(20), RUNS);
    try {
      const outcomes: Record<string, string> = {};
      for (const check of CHECKS.filter((c) => c.requirement.startsWith('AUTH-WINDOW-')))
        outcomes[check.requirement] = `${(await target.run(check)).outcome}`;
      expect(outcomes).toEqual({
        'AUTH-WINDOW-RECENT': 'skipped',
        'AUTH-WINDOW-AHEAD': 'skipped',
        'AUTH-WINDOW-EXPIRED': 'passed',
        'AUTH-WINDOW-FUTURE': 'passed',
      });
    } finally {
      await target.close();
    }
  });
});

describe('with only the required config keys', () => {
  const minimal = (config: TargetConfig): TargetConfig => ({
    baseUrl: config.baseUrl,
    environment: config.environment,
    merchant: config.merchant,
    ...(config.profile !== undefined ? { profile: config.profile } : {}),
  });

  it('checks that need an optional key are skipped naming it; the others still pass', async () => {
    const target = await sandboxTarget({}, minimal, RUNS);
    try {
      const outcomes: Record<string, string> = {};
      for (const check of CHECKS) {
        const { outcome, meta } = await target.run(check);
        outcomes[check.id] =
          outcome === 'skipped' ? `skipped: ${meta.skipped}` : outcome === 'failed' ? `failed: ${meta.failure?.message}` : outcome;
      }
      const notPassed = Object.fromEntries(Object.entries(outcomes).filter(([, outcome]) => outcome !== 'passed'));
      expect(notPassed).toEqual({
        'auth-accept-payout-status': 'skipped: needs fixtures.payouts.SUCCESS in the config',
        'env-other-environment-key': 'skipped: needs otherEnvironment.apiKey in the config',
        'env-other-environment-wallet': 'skipped: needs otherEnvironment.walletId in the config',
      });
    } finally {
      await target.close();
    }
  }, 60_000);
});

describe('AUTH-HTTPS judges the configured base URL (no request is sent)', () => {
  const httpsCheck = CHECKS.find((c) => c.requirement === 'AUTH-HTTPS')!;
  it.each([
    ['https://payments.example.test', 'passed'],
    ['http://localhost:4010', 'passed'],
    ['http://127.8.0.1:4010', 'passed'],
    ['http://[::1]:4010', 'passed'],
    ['http://payments.example.test', 'failed'],
    ['http://10.0.0.7:4010', 'failed'],
    ['http://127.0.0.1.example.test', 'failed'],
  ] as const)('%s: %s', async (baseUrl, expected) => {
    const target = await sandboxTarget({}, (c) => ({ ...c, baseUrl }), RUNS);
    try {
      const { outcome, meta } = await target.run(httpsCheck);
      expect(outcome).toBe(expected);
      expect(meta.evidence).toEqual([]);
    } finally {
      await target.close();
    }
  });
});

describe('no false alarm: every check passes the default sandbox (each variant: test/check-variants.test.ts)', () => {
  it('passes, with no finding', async () => {
    expect(await surprisesAgainst({}, CHECKS, { runs: RUNS })).toEqual([]);
  }, 60_000);
});
