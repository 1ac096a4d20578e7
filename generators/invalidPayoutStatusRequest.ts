// Payout Status requests with one labelled defect (P-PAYOUT-5, P-ERR-4): a missing, null or
// mistyped field, or a body that is not a JSON object.
import type fc from 'fast-check';
import { invalidRequestOf } from './_internal/invalidRequestOf.js';
import { PAYOUT_STATUS_SHAPE } from './_internal/requestShapes.js';
import type { DefectConstraints, InvalidRequest } from './invalidRequest.js';
import { payoutStatusRequest, type PayoutStatusRequestConstraints } from './payoutStatusRequest.js';

/** A valid request's constraints, and the defect kinds to draw from (default: every kind that applies to Payout Status). */
export type InvalidPayoutStatusRequestConstraints = PayoutStatusRequestConstraints & DefectConstraints;

export function invalidPayoutStatusRequest(constraints: InvalidPayoutStatusRequestConstraints = {}): fc.Arbitrary<InvalidRequest> {
  return invalidRequestOf('invalidPayoutStatusRequest', PAYOUT_STATUS_SHAPE, payoutStatusRequest, constraints);
}
