import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extraChangeProblem, labelledReasonProblem } from './_internal/defect-test-support.js';
import { applicableDefects, invalidVariantsOf } from './_internal/mutations.js';
import {
  invalidTransactionInitiationRequest,
  TRANSACTION_INITIATION_SHAPE,
  type InvalidTransactionInitiationRequestConstraints,
} from './invalidRequests.js';
import { DEFECT_KINDS } from './invalidRequest.js';
import { transactionInitiationRequest } from './transactionInitiationRequest.js';

describe('invalidTransactionInitiationRequest (P-ERR-4, P-OPS-3)', () => {
  it('each mutation breaks the schema for its labelled reason and changes only what its label says', () => {
    const pairs = transactionInitiationRequest().chain((request) =>
      invalidVariantsOf(request, TRANSACTION_INITIATION_SHAPE, applicableDefects(TRANSACTION_INITIATION_SHAPE)).map((mutant) => ({
        request,
        mutant,
      })),
    );
    fc.assert(
      fc.property(pairs, ({ request, mutant }) => {
        expect(labelledReasonProblem(mutant, 'transaction-initiation-request')).toBeUndefined();
        expect(extraChangeProblem(request, mutant)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('expects 400 for a transfer mode outside the table (P-OPS-3)', () => {
    fc.assert(
      fc.property(invalidTransactionInitiationRequest({ defects: ['unknown-transfer-mode'] }), (request) => {
        expect(request.field).toBe('transfer_mode');
        expect(request.expectedStatuses).toEqual([400]);
        expect(labelledReasonProblem(request, 'transaction-initiation-request')).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });

  it('reaches every defect kind and every required field, the beneficiary object included', () => {
    const requests = fc.sample(invalidTransactionInitiationRequest(), { seed: 42, numRuns: 1_500 });
    expect(new Set(requests.map((r) => r.defect))).toEqual(new Set(DEFECT_KINDS));
    const missingOnly = fc.sample(invalidTransactionInitiationRequest({ defects: ['missing-field'] }), { seed: 42, numRuns: 600 });
    const missing = new Set(missingOnly.map((r) => r.field));
    for (const field of ['svc_wallet_id', 'debit_account_type', 'payout_order_id', 'amount', 'currency', 'transfer_mode', 'beneficiary']) {
      expect(missing).toContain(field);
    }
    // P-OPS names no field inside beneficiary, so no mutation reaches into it.
    expect([...missing].filter((f) => f?.startsWith('beneficiary.'))).toEqual([]);
    const modes = requests.flatMap((r) =>
      r.defect === 'unknown-transfer-mode' && r.body.kind === 'json' ? [(r.body.value as { transfer_mode: string }).transfer_mode] : [],
    );
    expect(modes.some((mode) => mode === mode.toUpperCase())).toBe(true);
    expect(modes).toContain('paypal');
  });

  it('is deterministic for a seed', () => {
    expect(fc.sample(invalidTransactionInitiationRequest(), { seed: 42, numRuns: 20 })).toEqual(
      fc.sample(invalidTransactionInitiationRequest(), { seed: 42, numRuns: 20 }),
    );
  });

  it.each<[string, InvalidTransactionInitiationRequestConstraints]>([
    ['unknown defect', { defects: ['oops' as never] }],
    ['bad request constraint', { transferModes: ['paypal' as never] }],
  ])('rejects bad constraints when built: %s', (_, constraints) => {
    expect(() => invalidTransactionInitiationRequest(constraints)).toThrow(/^invalidTransactionInitiationRequest: /);
  });
});
