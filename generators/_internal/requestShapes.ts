// Each request kind as the mutations see it: its schema (whose required fields they take) and the
// fields with a table or a form of their own.
import type { RequestShape } from './mutations.js';

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
