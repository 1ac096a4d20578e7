import { OPERATIONS } from '../core/operations.js';

/** Where the sandbox serves each operation (the interface's and P-OPS's defaults), and its own control path. */
export const OPERATION_PATHS = {
  createOrder: OPERATIONS.createOrder.path,
  orderStatus: OPERATIONS.orderStatus.path,
  orderCancel: OPERATIONS.orderCancel.path,
  payoutStatus: OPERATIONS.payoutStatus.path,
  balanceInquiry: OPERATIONS.balanceInquiry.path,
  transactionInitiation: OPERATIONS.transactionInitiation.path,
  settlePayout: '/sandbox/payouts/settle',
  registerWebhook: '/sandbox/webhooks',
  spareWallet: '/sandbox/wallets',
} as const;
