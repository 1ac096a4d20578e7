// No false alarms, check by check: every check of two areas against the reference sandbox in each of
// its legitimate variants (create 200 or 201, the body verified raw or canonical, replays refused or
// allowed, a 300 or 900 s window): each passes (or, for a MAY the variant's choice breaks, fails as
// information) and records no finding; and the model checks on each way the sandbox settles a payout.
// The whole-run proof (conformance-proof.test.ts) certifies each variant by its report; this judges
// each check and each observer. Nineteen whole-area runs, so with the end-to-end tests; the areas'
// other tests sit beside their checks.
import { describe, expect, it } from 'vitest';
import { allVariants, type SandboxVariant } from '../sandbox/options.js';
import type { Check } from '../suites/check.js';
import { sandboxTarget, type CheckRun } from '../suites/check-test-support.js';
import { AUTH_AREA_CHECKS, modelCheckSurprises, ORDER_AREA_CHECKS, variantName, withWindow } from '../suites/checks/areas-test-support.js';

describe('Authentication, Signature, Environments and Errors: no false alarms in every legitimate variant', () => {
  /** AUTH-REPLAY is a MAY: against a server that allows replays it fails, as information. */
  const expectedOutcome = (check: Check, variant: SandboxVariant): CheckRun['outcome'] =>
    check.requirement === 'AUTH-REPLAY' && variant.replay === 'allow' ? 'failed' : 'passed';

  it.each(allVariants().map((v) => [variantName(v), v] as const))(
    '%s',
    async (_name, variant) => {
      const target = await sandboxTarget({ variant }, withWindow(variant.toleranceSeconds), 5);
      try {
        const surprises: unknown[] = [];
        for (const check of AUTH_AREA_CHECKS) {
          const { outcome, meta } = await target.run(check);
          if (outcome !== expectedOutcome(check, variant) || meta.findings.length > 0) {
            surprises.push({
              check: check.id,
              outcome,
              skipped: meta.skipped,
              failure: meta.failure?.message,
              findings: meta.findings.map((f) => f.message),
            });
          }
        }
        expect(surprises).toEqual([]);
      } finally {
        await target.close();
      }
    },
    60_000,
  );
});

describe('Create Order, Duplicates, Payout Status and Profile operations: every check passes a correct sandbox in every variant', () => {
  /** Checks that cannot run against a plain-http sandbox, with the outcome they must report there. */
  const NOT_APPLICABLE_ON_HTTP = new Set(['create-order-payment-link-https']);

  it.concurrent.each(allVariants().map((v) => [variantName(v), v] as const))(
    '%s',
    async (_, variant) => {
      const target = await sandboxTarget({ variant }, withWindow(variant.toleranceSeconds), 4);
      try {
        const verdicts: string[] = [];
        for (const check of ORDER_AREA_CHECKS) {
          const { outcome, meta } = await target.run(check);
          const wanted = NOT_APPLICABLE_ON_HTTP.has(check.id) ? 'skipped' : 'passed';
          if (outcome !== wanted) verdicts.push(`${check.id}: ${outcome} (${meta.failure?.message ?? meta.skipped})`);
          for (const finding of meta.findings) verdicts.push(`${check.id}: finding ${finding.requirement}: ${finding.message}`);
        }
        expect(verdicts).toEqual([]);
      } finally {
        await target.close();
      }
    },
    60_000,
  );
});

describe('the model checks: no false alarms on the sandbox whatever its settlement', () => {
  it.concurrent.each([
    ['slow settlement (PROCESSING takes a while)', { settleSeconds: 600 }],
    ['instant settlement', { settleSeconds: 0 }],
    ['debit at settlement', { variant: { debitAt: 'settlement' as const } }],
  ])('%s', async (_name, options) => expect(await modelCheckSurprises(options, 3)).toEqual([]), 60_000);
});
