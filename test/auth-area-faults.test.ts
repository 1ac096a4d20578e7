// Every fault of the Authentication, Signature, Environments and Errors areas is caught by a check of
// its own requirement (or, for a requirement the observers judge, found on some check's exchanges),
// and the evidence of every failure carries no secret and no signature. One sandbox with the fault
// and up to every check of the areas per fault, some forty runs: with the end-to-end tests. The
// areas' other tests sit beside their checks (suites/checks/auth-checks.test.ts); the whole-run proof
// (conformance-proof.test.ts) shows each fault failing the certification.
import { describe, expect, it } from 'vitest';
import { FAULT_NAMES, FAULTS, type FaultName } from '../sandbox/faults.js';
import { sandboxTarget, type CheckRun } from '../suites/check-test-support.js';
import { AUTH_AREA_CHECKS } from '../suites/checks/areas-test-support.js';
import type { TargetConfig } from '../suites/config.js';

const CHECKS = AUTH_AREA_CHECKS;
const SECTIONS = /^(AUTH|SIGN|ENV|ERR)-/;
/** Requirements the observers also judge on every exchange of every check. */
const OBSERVED = new Set(['ERR-ENVELOPE', 'ERR-CONTENT-TYPE', 'ERR-CODE-MATCHES-STATUS', 'ERR-NO-5XX']);
const RUNS = 5;

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
