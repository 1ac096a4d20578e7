// Public API of the generators: fast-check arbitraries of valid and labelled invalid requests.
export { orderCreateRequest, type OrderCreateRequestConstraints, type OrderIdKind } from './orderCreateRequest.js';
export { payoutStatusRequest, type PayoutStatusRequestConstraints } from './payoutStatusRequest.js';
export { transactionInitiationRequest, type TransactionInitiationRequestConstraints } from './transactionInitiationRequest.js';
export {
  BAD_REQUEST,
  BAD_REQUEST_OR_UNPROCESSABLE,
  DEFECT_KINDS,
  type DefectConstraints,
  type DefectKind,
  type InvalidRequest,
  type RequestBody,
} from './invalidRequest.js';
export {
  invalidOrderCreateRequest,
  invalidPayoutStatusRequest,
  invalidTransactionInitiationRequest,
  type InvalidOrderCreateRequestConstraints,
  type InvalidPayoutStatusRequestConstraints,
  type InvalidTransactionInitiationRequestConstraints,
} from './invalidRequests.js';
export { GeneratorConstraintError } from './_internal/constraints.js';
export { edgeSet, type AmountEdge, type EdgeSet, type IdentifierBase, type IdentifierEdge, type TextEdge } from './edges.js';
