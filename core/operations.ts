/** The interface's operations and P-OPS extensions, in one table for sandbox, suites, client judge and CLI.
 * Schema ids name `schemas/<id>.schema.json`. */
export const OPERATIONS = {
  createOrder: {
    name: 'Create Order',
    method: 'POST',
    path: '/api/v3/pg/order/create',
    request: 'order-create-request',
    record: 'create-order-envelope',
    extension: false,
  },
  orderStatus: {
    name: 'Order Status',
    method: 'POST',
    path: '/api/v3/pg/order/status',
    request: 'order-lookup-request',
    record: 'order-status-record',
    extension: true,
  },
  orderCancel: {
    name: 'Order Cancel',
    method: 'POST',
    path: '/api/v3/pg/order/cancel',
    request: 'order-lookup-request',
    record: 'order-status-record',
    extension: true,
  },
  payoutStatus: {
    name: 'Payout Status',
    method: 'POST',
    path: '/api/v3/banking/payment/status',
    request: 'payout-status-request',
    record: 'payout-status-envelope',
    extension: false,
  },
  balanceInquiry: {
    name: 'Balance Inquiry',
    method: 'POST',
    path: '/api/v3/banking/balance',
    request: 'balance-inquiry-request',
    record: 'balance-record',
    extension: true,
  },
  transactionInitiation: {
    name: 'Transaction Initiation',
    method: 'POST',
    path: '/api/v3/banking/payment/initiate',
    request: 'transaction-initiation-request',
    record: 'payout-record',
    extension: true,
  },
} as const satisfies Record<string, Operation>;

export interface Operation {
  name: string;
  method: 'GET' | 'POST';
  /** The interface's path, or for an extension the profile's default (a target may configure another). */
  path: string;
  /** Schema id of the request body. */
  request: string;
  /** Schema id of what a success answers. */
  record: string;
  /** Rests on the profile's P-OPS rather than the interface. */
  extension: boolean;
}

export type OperationName = keyof typeof OPERATIONS;

/** The profile's extension operations: a target may place them elsewhere (P-CFG `profile.operations`). */
export type ExtensionOperation = { [K in OperationName]: (typeof OPERATIONS)[K]['extension'] extends true ? K : never }[OperationName];

export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

/** The operation served at a default path, if any. */
export function operationAtPath(path: string): OperationName | undefined {
  return OPERATION_NAMES.find((name) => OPERATIONS[name].path === path);
}

/** The reference sandbox's control requests: the kit sends them only to a declared reference sandbox
 *  (P-CFG `target`), as the drivers of that target (suites/drivers.ts). */
export const CONTROL_PATHS = {
  settlePayout: '/sandbox/payouts/settle',
  registerWebhook: '/sandbox/webhooks',
  spareWallet: '/sandbox/wallets',
} as const;
