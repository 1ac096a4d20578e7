// The required fields of each request kind, as the mutations see them (interface tables; P-OPS for
// Transaction Initiation).
import type { OrderCreateRequest, PayoutStatusRequest, TransactionInitiationRequest } from '../../schemas/types.js';
import type { RequestShape, RequiredField } from './mutations.js';

const ORDER_FIELDS: readonly RequiredField[] = [
  { path: 'order_id', kind: 'id' },
  { path: 'order_amount', kind: 'amount' },
  { path: 'order_currency', kind: 'currency' },
  { path: 'service_type', kind: 'string' },
  { path: 'customer', kind: 'object' },
  { path: 'customer.name', kind: 'string' },
  { path: 'customer.email', kind: 'string' },
  { path: 'customer.phone', kind: 'string' },
  { path: 'customer.address', kind: 'object' },
  { path: 'customer.address.line1', kind: 'string' },
  { path: 'customer.address.city', kind: 'string' },
  { path: 'customer.address.state', kind: 'string' },
  { path: 'customer.address.country', kind: 'string' },
  { path: 'customer.address.postal_code', kind: 'string' },
  { path: 'return_url', kind: 'string' },
];

export const ORDER_CREATE_SHAPE: RequestShape<OrderCreateRequest> = {
  requiredFields: () => ORDER_FIELDS,
  amountField: 'order_amount',
  currencyField: 'order_currency',
};

const PAYOUT_STATUS_FIELDS: readonly RequiredField[] = [
  { path: 'svc_wallet_id', kind: 'string' },
  { path: 'debit_account_type', kind: 'string' },
  { path: 'payout_order_id', kind: 'id' },
];

export const PAYOUT_STATUS_SHAPE: RequestShape<PayoutStatusRequest> = {
  requiredFields: () => PAYOUT_STATUS_FIELDS,
};

// P-OPS names the beneficiary as an object and nothing inside it: only the object itself is required.
const TRANSACTION_FIELDS: readonly RequiredField[] = [
  { path: 'svc_wallet_id', kind: 'string' },
  { path: 'debit_account_type', kind: 'string' },
  { path: 'payout_order_id', kind: 'id' },
  { path: 'amount', kind: 'amount' },
  { path: 'currency', kind: 'currency' },
  { path: 'transfer_mode', kind: 'transfer-mode' },
  { path: 'beneficiary', kind: 'object' },
];

export const TRANSACTION_INITIATION_SHAPE: RequestShape<TransactionInitiationRequest> = {
  requiredFields: () => TRANSACTION_FIELDS,
  amountField: 'amount',
  currencyField: 'currency',
  transferModeField: 'transfer_mode',
};
