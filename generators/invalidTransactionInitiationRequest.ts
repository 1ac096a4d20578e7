// Transaction Initiation requests with one labelled defect (P-ERR-4, P-OPS-3), including a transfer_mode outside the interface's table.
import type fc from 'fast-check';
import { invalidRequestOf } from './_internal/invalidRequestOf.js';
import { TRANSACTION_INITIATION_SHAPE } from './_internal/requestShapes.js';
import type { DefectConstraints, InvalidRequest } from './invalidRequest.js';
import { transactionInitiationRequest, type TransactionInitiationRequestConstraints } from './transactionInitiationRequest.js';

/** A valid request's constraints, and the defect kinds to draw from (default: every kind that applies to Transaction Initiation). */
export type InvalidTransactionInitiationRequestConstraints = TransactionInitiationRequestConstraints & DefectConstraints;

export function invalidTransactionInitiationRequest(
  constraints: InvalidTransactionInitiationRequestConstraints = {},
): fc.Arbitrary<InvalidRequest> {
  return invalidRequestOf('invalidTransactionInitiationRequest', TRANSACTION_INITIATION_SHAPE, transactionInitiationRequest, constraints);
}
