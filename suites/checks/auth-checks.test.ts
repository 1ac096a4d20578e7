// The Authentication, Signature, Environments and Errors checks against the reference sandbox: every
// fault of these areas caught, no secret in any evidence. No false alarm in any legitimate variant:
// test/check-variants.test.ts (with the end-to-end tests).
import { describe, expect, it } from 'vitest';
import { FAULT_NAMES, FAULTS, type FaultName } from '../../sandbox/faults.js';
import { DEFAULT_VARIANT } from '../../sandbox/options.js';
import { catalog } from '../catalog.js';
import { sandboxTarget, type CheckRun } from '../check-test-support.js';
import type { TargetConfig } from '../config.js';
import { AUTH_AREA_CHECKS, withWindow } from './areas-test-support.js';

const CHECKS = AUTH_AREA_CHECKS;
const SECTIONS = /^(AUTH|SIGN|ENV|ERR)-/;
/** Requirements the observers also judge on every exchange of every check. */
const OBSERVED = new Set(['ERR-ENVELOPE', 'ERR-CONTENT-TYPE', 'ERR-CODE-MATCHES-STATUS', 'ERR-NO-5XX']);
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

const FAULTS_OF_THESE_AREAS = FAULT_NAMES.filter((name) => SECTIONS.test(FAULTS[name].requirement));

/** What a report could leak: every configured secret, and anything shaped like a signature. */
function leaks(run: CheckRun, config: TargetConfig): string[] {
  const text = JSON.stringify({ failure: run.meta.failure, evidence: run.meta.evidence, findings: run.meta.findings });
  const secrets = [config.merchant.secretKey, config.otherMerchant?.secretKey, config.otherEnvironment?.secretKey].filter(
    (s): s is string => Boolean(s),
  );
  return [...secrets.filter((s) => text.includes(s)).map(() => 'a secret key'), ...(text.match(/[0-9a-f]{64}/gi) ?? [])];
}

describe('every fault of these areas is caught by a check of its requirement', () => {
  it('these areas have faults to catch', () => {
    expect(FAULTS_OF_THESE_AREAS.length).toBeGreaterThan(20);
  });

  it.each(FAULTS_OF_THESE_AREAS.map((name) => [name, FAULTS[name].requirement] as const))(
    '%s → %s',
    async (fault: FaultName, requirement) => {
      const target = await sandboxTarget({ faults: [fault] }, (c) => c, RUNS);
      try {
        // For the observed requirements every check's exchanges count, so all of them run.
        const candidates = OBSERVED.has(requirement) ? CHECKS : CHECKS.filter((c) => c.requirement === requirement);
        const runs: CheckRun[] = [];
        for (const check of candidates) runs.push(await target.run(check));
        const failedOwn = runs.filter((r) => r.meta.requirement === requirement && r.outcome === 'failed').map((r) => r.meta.check);
        const observed = OBSERVED.has(requirement) ? runs.filter((r) => r.meta.findings.some((f) => f.requirement === requirement)) : [];
        expect(failedOwn.length + observed.length, `no check caught ${fault}`).toBeGreaterThan(0);
        // Evidence is what the report shows; a failure that sent requests must keep them.
        expect(runs.filter((r) => r.outcome === 'failed' && r.meta.evidence.length === 0).map((r) => r.meta.check)).toEqual([]);
        // A failing check keeps its evidence for the report: it must carry no secret and no signature.
        const leaked = runs
          .filter((r) => r.outcome === 'failed' || r.meta.findings.length > 0)
          .flatMap((r) => leaks(r, target.state.settings.config).map((l) => `${r.meta.check}: ${l}`));
        expect(leaked).toEqual([]);
      } finally {
        await target.close();
      }
    },
    60_000,
  );
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
