// Requests with one labelled defect (P-ERR-4): a valid request from its kind's own generator, then one
// defect drawn from those that apply to the kind's shape (its schema, and the fields with a table or a form of their own).
import type fc from 'fast-check';
import { underApiName } from './_internal/constraints.js';
import { applicableDefects, checkDefects, invalidVariantsOf, type RequestShape } from './_internal/mutations.js';
import type { DefectConstraints, InvalidRequest } from './invalidRequest.js';
import { orderCreateRequest, type OrderCreateRequestConstraints } from './orderCreateRequest.js';
import { payoutStatusRequest, type PayoutStatusRequestConstraints } from './payoutStatusRequest.js';
import { transactionInitiationRequest, type TransactionInitiationRequestConstraints } from './transactionInitiationRequest.js';

export const ORDER_CREATE_SHAPE: RequestShape = {
  schema: 'order-create-request',
  amountField: 'order_amount',
  currencyField: 'order_currency',
};

export const PAYOUT_STATUS_SHAPE: RequestShape = { schema: 'payout-status-request' };

// P-OPS names the beneficiary as an object and nothing inside it: its schema requires only the object.
export const TRANSACTION_INITIATION_SHAPE: RequestShape = {
  schema: 'transaction-initiation-request',
  amountField: 'amount',
  currencyField: 'currency',
  transferModeField: 'transfer_mode',
};

function invalidRequestOf<C extends object, T extends object>(
  api: string,
  shape: RequestShape,
  validRequest: (constraints: C) => fc.Arbitrary<T>,
  constraints: C & DefectConstraints,
): fc.Arbitrary<InvalidRequest> {
  const { defects, ...rest } = constraints;
  const kinds = checkDefects(api, defects, applicableDefects(shape));
  const valid = underApiName(api, () => validRequest(rest as C));
  return valid.chain((request) => invalidVariantsOf(request, shape, kinds));
}

/** A valid order's constraints, and the defect kinds to draw from (default: every kind that applies to Create Order). */
export type InvalidOrderCreateRequestConstraints = OrderCreateRequestConstraints & DefectConstraints;

/** Create Order requests with one labelled defect (P-ERR-4, P-ORDER-1). */
export function invalidOrderCreateRequest(constraints: InvalidOrderCreateRequestConstraints = {}): fc.Arbitrary<InvalidRequest> {
  return invalidRequestOf('invalidOrderCreateRequest', ORDER_CREATE_SHAPE, orderCreateRequest, constraints);
}

/** A valid request's constraints, and the defect kinds to draw from (default: every kind that applies to Payout Status). */
export type InvalidPayoutStatusRequestConstraints = PayoutStatusRequestConstraints & DefectConstraints;

/** Payout Status requests with one labelled defect (P-PAYOUT-5, P-ERR-4): a missing, null or mistyped field, or a body that is not a JSON object. */
export function invalidPayoutStatusRequest(constraints: InvalidPayoutStatusRequestConstraints = {}): fc.Arbitrary<InvalidRequest> {
  return invalidRequestOf('invalidPayoutStatusRequest', PAYOUT_STATUS_SHAPE, payoutStatusRequest, constraints);
}

/** A valid request's constraints, and the defect kinds to draw from (default: every kind that applies to Transaction Initiation). */
export type InvalidTransactionInitiationRequestConstraints = TransactionInitiationRequestConstraints & DefectConstraints;

/** Transaction Initiation requests with one labelled defect (P-ERR-4, P-OPS-3), including a transfer_mode outside the interface's table. */
export function invalidTransactionInitiationRequest(
  constraints: InvalidTransactionInitiationRequestConstraints = {},
): fc.Arbitrary<InvalidRequest> {
  return invalidRequestOf('invalidTransactionInitiationRequest', TRANSACTION_INITIATION_SHAPE, transactionInitiationRequest, constraints);
}
