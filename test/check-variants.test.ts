// No false alarms, check by check: every check of two areas against the reference sandbox in each of
// its legitimate variants (create 200 or 201, the body verified raw or canonical, replays refused or
// allowed, a 300 or 900 s window): each passes (or, for a MAY the variant's choice breaks, fails as
// information) and records no finding; and the model checks on each way the sandbox settles a payout.
// The whole-run proof (conformance-proof.test.ts) certifies each variant by its report; this judges
// each check and each observer. Nineteen whole-area runs, so with the end-to-end tests; the areas'
// other tests sit beside their checks.
import { describe, expect, it } from 'vitest';
import { allVariants } from '../sandbox/options.js';
import { surprisesAgainst } from '../suites/check-test-support.js';
import { AUTH_AREA_CHECKS, ORDER_AREA_CHECKS, variantName, withWindow } from '../suites/checks/areas-test-support.js';
import { modelChecks } from '../suites/checks/model.js';

const VARIANTS = allVariants().map((v) => [variantName(v), v] as const);

describe('Authentication, Signature, Environments and Errors: no false alarms in every legitimate variant', () => {
  it.each(VARIANTS)(
    '%s',
    async (_name, variant) => {
      const surprises = await surprisesAgainst({ variant }, AUTH_AREA_CHECKS, {
        edit: withWindow(variant.toleranceSeconds),
        runs: 5,
        // AUTH-REPLAY is a MAY: against a server that allows replays it fails, as information.
        wanted: (check) => (check.requirement === 'AUTH-REPLAY' && variant.replay === 'allow' ? 'failed' : 'passed'),
      });
      expect(surprises).toEqual([]);
    },
    60_000,
  );
});

describe('Create Order, Duplicates, Payout Status and Profile operations: every check passes a correct sandbox in every variant', () => {
  /** Checks that cannot run against a plain-http sandbox, with the outcome they must report there. */
  const NOT_APPLICABLE_ON_HTTP = new Set(['create-order-payment-link-https']);

  it.concurrent.each(VARIANTS)(
    '%s',
    async (_, variant) => {
      const surprises = await surprisesAgainst({ variant }, ORDER_AREA_CHECKS, {
        edit: withWindow(variant.toleranceSeconds),
        runs: 4,
        wanted: (check) => (NOT_APPLICABLE_ON_HTTP.has(check.id) ? 'skipped' : 'passed'),
      });
      expect(surprises).toEqual([]);
    },
    60_000,
  );
});

describe('the model checks: no false alarms on the sandbox whatever its settlement', () => {
  it.concurrent.each([
    ['slow settlement (PROCESSING takes a while)', { settleSeconds: 600 }],
    ['instant settlement', { settleSeconds: 0 }],
    ['debit at settlement', { variant: { debitAt: 'settlement' as const } }],
  ])('%s', async (_name, options) => expect(await surprisesAgainst(options, modelChecks, { runs: 3 })).toEqual([]), 60_000);
});
