import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as generators from './index.js';

describe('generators index', () => {
  it('exports each public arbitrary, built with default constraints', () => {
    const arbitraries: fc.Arbitrary<unknown>[] = [
      generators.orderCreateRequest(),
      generators.payoutStatusRequest(),
      generators.transactionInitiationRequest(),
      generators.invalidOrderCreateRequest(),
      generators.invalidPayoutStatusRequest(),
      generators.invalidTransactionInitiationRequest(),
    ];
    for (const arbitrary of arbitraries) expect(fc.sample(arbitrary, { seed: 1, numRuns: 3 })).toHaveLength(3);
    expect(generators.DEFECT_KINDS).toHaveLength(10);
    expect(() => generators.orderCreateRequest({ currencies: [] })).toThrow(generators.GeneratorConstraintError);
  });
});
