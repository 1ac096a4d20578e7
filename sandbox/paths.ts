import { CONTROL_PATHS, OPERATIONS } from '../core/operations.js';

/** Where the sandbox serves each operation (the interface's and P-OPS's defaults), and its own control paths. */
export const OPERATION_PATHS = {
  createOrder: OPERATIONS.createOrder.path,
  orderStatus: OPERATIONS.orderStatus.path,
  orderCancel: OPERATIONS.orderCancel.path,
  payoutStatus: OPERATIONS.payoutStatus.path,
  balanceInquiry: OPERATIONS.balanceInquiry.path,
  transactionInitiation: OPERATIONS.transactionInitiation.path,
  ...CONTROL_PATHS,
} as const;
