import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extraChangeProblem, labelledReasonProblem } from './_internal/defect-test-support.js';
import { applicableDefects, invalidVariantsOf } from './_internal/mutations.js';
import { invalidPayoutStatusRequest, PAYOUT_STATUS_SHAPE, type InvalidPayoutStatusRequestConstraints } from './invalidRequests.js';
import { payoutStatusRequest } from './payoutStatusRequest.js';

const FIELDS = ['svc_wallet_id', 'debit_account_type', 'payout_order_id'];

describe('invalidPayoutStatusRequest (P-PAYOUT-5, P-ERR-4)', () => {
  it('each mutation breaks the schema for its labelled reason, changes only that, and expects 400', () => {
    const pairs = payoutStatusRequest().chain((request) =>
      invalidVariantsOf(request, PAYOUT_STATUS_SHAPE, applicableDefects(PAYOUT_STATUS_SHAPE)).map((mutant) => ({ request, mutant })),
    );
    fc.assert(
      fc.property(pairs, ({ request, mutant }) => {
        expect(labelledReasonProblem(mutant, 'payout-status-request')).toBeUndefined();
        expect(extraChangeProblem(request, mutant)).toBeUndefined();
        expect(mutant.expectedStatuses).toEqual([400]);
      }),
      { numRuns: 200 },
    );
  });

  it('reaches missing, null and mistyped versions of each field, invalid JSON, empty body and non-object bodies', () => {
    const requests = fc.sample(invalidPayoutStatusRequest({ walletId: 'WAL-1', payoutOrderIds: ['PO-1'] }), { seed: 42, numRuns: 400 });
    expect(new Set(requests.map((r) => r.defect))).toEqual(
      new Set(['missing-field', 'null-field', 'wrong-type', 'invalid-json', 'empty-body', 'top-level-array', 'top-level-scalar']),
    );
    for (const defect of ['missing-field', 'null-field', 'wrong-type'] as const) {
      expect(new Set(requests.filter((r) => r.defect === defect).map((r) => r.field))).toEqual(new Set(FIELDS));
    }
    for (const request of requests) expect(labelledReasonProblem(request, 'payout-status-request')).toBeUndefined();
  });

  it('is deterministic for a seed', () => {
    expect(fc.sample(invalidPayoutStatusRequest(), { seed: 42, numRuns: 20 })).toEqual(
      fc.sample(invalidPayoutStatusRequest(), { seed: 42, numRuns: 20 }),
    );
  });

  it.each<[string, InvalidPayoutStatusRequestConstraints]>([
    ['defect that does not apply', { defects: ['bad-amount'] }],
    ['empty defects', { defects: [] }],
    ['bad request constraint', { walletId: '' }],
  ])('rejects bad constraints when built: %s', (_, constraints) => {
    expect(() => invalidPayoutStatusRequest(constraints)).toThrow(/^invalidPayoutStatusRequest: /);
  });
});
