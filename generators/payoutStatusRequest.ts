// Payout Status request bodies (P-PAYOUT). Made-up identifiers by default, which suit schema and
// not-found (P-PAYOUT-4) tests; against a target, pass the configured wallet and fixture payout ids.
import { fc } from '../common/fast-check.js';
import type { PayoutStatusRequest } from '../schemas/types.js';
import { checkNonEmptyString, checkNonEmptyStrings } from './_internal/constraints.js';
import { payoutOrderIdArbitrary, walletIdArbitrary } from './_internal/identifiers.js';

export interface PayoutStatusRequestConstraints {
  /** `svc_wallet_id` to send. Default: a made-up wallet id. */
  walletId?: string;
  /** `payout_order_id` values to draw from. Default: made-up payout order ids. */
  payoutOrderIds?: readonly string[];
  /** `debit_account_type`. Default 'svc_wallet', the value of the interface's sample request. */
  debitAccountType?: string;
}

const API = 'payoutStatusRequest';

/** Payout Status request bodies that the interface's schema accepts. */
export function payoutStatusRequest(constraints: PayoutStatusRequestConstraints = {}): fc.Arbitrary<PayoutStatusRequest> {
  const walletId = checkNonEmptyString(API, 'walletId', constraints.walletId);
  const payoutOrderIds = checkNonEmptyStrings(API, 'payoutOrderIds', constraints.payoutOrderIds);
  const debitAccountType = checkNonEmptyString(API, 'debitAccountType', constraints.debitAccountType, 'svc_wallet');
  return fc.record({
    svc_wallet_id: walletId === undefined ? walletIdArbitrary() : fc.constant(walletId),
    debit_account_type: fc.constant(debitAccountType),
    payout_order_id: payoutOrderIds === undefined ? payoutOrderIdArbitrary() : fc.constantFrom(...payoutOrderIds),
  });
}
