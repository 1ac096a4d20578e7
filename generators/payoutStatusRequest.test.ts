import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeErrors, validateSchema } from '../schemas/index.js';
import { payoutStatusRequest, type PayoutStatusRequestConstraints } from './payoutStatusRequest.js';

describe('payoutStatusRequest (interface: Payout status request; P-PAYOUT)', () => {
  it('every value satisfies the payout-status-request schema', () => {
    fc.assert(
      fc.property(payoutStatusRequest(), (request) => {
        const result = validateSchema('payout-status-request', request);
        if (!result.valid) throw new Error(`${describeErrors(result.errors)}\nin ${JSON.stringify(request)}`);
        expect(request.debit_account_type).toBe('svc_wallet');
        expect(request.svc_wallet_id).toMatch(/^WAL[A-Z0-9]{12}$/);
        expect(request.payout_order_id).toMatch(/^[A-Z]+-[A-Z0-9-]+$/);
      }),
      { numRuns: 200 },
    );
  });

  it('uses the configured wallet, payout order ids and account type', () => {
    const constraints = { walletId: 'WAL-SANDBOX-1', payoutOrderIds: ['PO-1', 'PO-2'], debitAccountType: 'current_account' };
    const requests = fc.sample(payoutStatusRequest(constraints), { seed: 42, numRuns: 100 });
    for (const request of requests) {
      expect(request.svc_wallet_id).toBe('WAL-SANDBOX-1');
      expect(request.debit_account_type).toBe('current_account');
    }
    expect(new Set(requests.map((r) => r.payout_order_id))).toEqual(new Set(['PO-1', 'PO-2']));
  });

  it('is deterministic for a seed', () => {
    expect(fc.sample(payoutStatusRequest(), { seed: 42, numRuns: 20 })).toEqual(
      fc.sample(payoutStatusRequest(), { seed: 42, numRuns: 20 }),
    );
  });

  it.each<[string, PayoutStatusRequestConstraints]>([
    ['empty walletId', { walletId: '' }],
    ['non-string walletId', { walletId: 42 as never }],
    ['empty payoutOrderIds', { payoutOrderIds: [] }],
    ['empty payout order id', { payoutOrderIds: ['PO-1', ''] }],
    ['empty debitAccountType', { debitAccountType: '' }],
  ])('rejects bad constraints when built: %s', (_, constraints) => {
    expect(() => payoutStatusRequest(constraints)).toThrow(/^payoutStatusRequest: /);
  });
});
