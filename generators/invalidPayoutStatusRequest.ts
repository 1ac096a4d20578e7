// Payout Status requests with one labelled defect (P-PAYOUT-5, P-ERR-4): a missing, null or
// mistyped field, or a body that is not a JSON object.
import fc from 'fast-check';
import { underApiName } from './_internal/constraints.js';
import { applicableDefects, checkDefects, invalidVariantsOf } from './_internal/mutations.js';
import { PAYOUT_STATUS_SHAPE } from './_internal/requestShapes.js';
import type { DefectKind, InvalidRequest } from './invalidRequest.js';
import { payoutStatusRequest, type PayoutStatusRequestConstraints } from './payoutStatusRequest.js';

export interface InvalidPayoutStatusRequestConstraints extends PayoutStatusRequestConstraints {
  /** Defect kinds to draw from. Default: every kind that applies to Payout Status. */
  defects?: readonly DefectKind[];
}

const API = 'invalidPayoutStatusRequest';

export function invalidPayoutStatusRequest(constraints: InvalidPayoutStatusRequestConstraints = {}): fc.Arbitrary<InvalidRequest> {
  const { defects, ...requestConstraints } = constraints;
  const kinds = checkDefects(API, defects, applicableDefects(PAYOUT_STATUS_SHAPE));
  const valid = underApiName(API, () => payoutStatusRequest(requestConstraints));
  return valid.chain((request) => invalidVariantsOf(request, PAYOUT_STATUS_SHAPE, kinds));
}
