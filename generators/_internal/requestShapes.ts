// The required fields of each request kind, as the mutations see them (interface tables; P-OPS for
// Transaction Initiation, whose beneficiary needs depend on the transfer mode).
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

const TRANSACTION_FIELDS: readonly RequiredField[] = [
  { path: 'svc_wallet_id', kind: 'string' },
  { path: 'debit_account_type', kind: 'string' },
  { path: 'payout_order_id', kind: 'id' },
  { path: 'amount', kind: 'amount' },
  { path: 'currency', kind: 'currency' },
  { path: 'transfer_mode', kind: 'transfer-mode' },
  { path: 'beneficiary', kind: 'object' },
  { path: 'beneficiary.name', kind: 'string' },
];

/** Beneficiary fields the mode needs; for ach/wire/swift the one of account_number/iban present. */
function beneficiaryFields(request: TransactionInitiationRequest): readonly RequiredField[] {
  const of = (...keys: string[]) => keys.map((key): RequiredField => ({ path: `beneficiary.${key}`, kind: 'string' }));
  const { beneficiary } = request;
  switch (request.transfer_mode) {
    case 'upi': return of('vpa');
    case 'imps': case 'neft': case 'rtgs': return of('account_number', 'ifsc');
    case 'sepa': return of('iban');
    case 'ach': case 'wire': case 'swift': {
      const present = (['account_number', 'iban'] as const).filter((key) => beneficiary[key] !== undefined);
      return present.length === 1 ? of(...present) : [];
    }
  }
}

export const TRANSACTION_INITIATION_SHAPE: RequestShape<TransactionInitiationRequest> = {
  requiredFields: (request) => [...TRANSACTION_FIELDS, ...beneficiaryFields(request)],
  amountField: 'amount',
  currencyField: 'currency',
  transferModeField: 'transfer_mode',
};
