// Transaction Initiation requests with one labelled defect (P-ERR-4, P-OPS-3), including a
// transfer_mode outside the interface's table.
import fc from 'fast-check';
import { underApiName } from './_internal/constraints.js';
import { applicableDefects, checkDefects, invalidVariantsOf } from './_internal/mutations.js';
import { TRANSACTION_INITIATION_SHAPE } from './_internal/requestShapes.js';
import type { DefectKind, InvalidRequest } from './invalidRequest.js';
import { transactionInitiationRequest, type TransactionInitiationRequestConstraints } from './transactionInitiationRequest.js';

export interface InvalidTransactionInitiationRequestConstraints extends TransactionInitiationRequestConstraints {
  /** Defect kinds to draw from. Default: every kind that applies to Transaction Initiation. */
  defects?: readonly DefectKind[];
}

const API = 'invalidTransactionInitiationRequest';

export function invalidTransactionInitiationRequest(
  constraints: InvalidTransactionInitiationRequestConstraints = {},
): fc.Arbitrary<InvalidRequest> {
  const { defects, ...requestConstraints } = constraints;
  const kinds = checkDefects(API, defects, applicableDefects(TRANSACTION_INITIATION_SHAPE));
  const valid = underApiName(API, () => transactionInitiationRequest(requestConstraints));
  return valid.chain((request) => invalidVariantsOf(request, TRANSACTION_INITIATION_SHAPE, kinds));
}
