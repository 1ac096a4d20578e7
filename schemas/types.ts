// TypeScript shapes of the interface's requests and records, mirroring the JSON Schemas beside them
// (the authority); SchemaTypes maps each schema to its type, for isValid to narrow to.
import type { ExtensionOperation } from '../core/operations.js';
import type { Report } from '../core/report.js';
import { readPackageJson } from '../common/package-root.js';
import type { WebhookEvent } from '../core/webhooks.js';

/** A code of the interface's currency table, upper-case as ISO 4217 writes it; the schemas hold the list. */
export type Currency = Uppercase<string>;

/** The 34 codes of the currency table, as the request schemas list them (read here: index.ts imports this file). */
const orderCreate = readPackageJson<{ properties: { order_currency: { enum: Currency[] } } }>('schemas/order-create-request.schema.json');
export const CURRENCIES: readonly Currency[] = Object.freeze(orderCreate.properties.order_currency.enum);

/** The interface's transfer modes table. */
export const TRANSFER_MODES = ['imps', 'neft', 'rtgs', 'upi', 'ach', 'wire', 'swift', 'sepa'] as const;
export type TransferMode = (typeof TRANSFER_MODES)[number];

export const PAYOUT_STATES = ['SUCCESS', 'FAILED', 'PROCESSING', 'PENDING', 'REVERSED'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

/** Order states: UN_PAID from the interface, the rest from P-OPS-1 (EXPIRED since profile v1.1, P-HOOK-2). */
export const ORDER_STATES = ['UN_PAID', 'PROCESSING', 'PAID', 'FAILED', 'CANCELLED', 'EXPIRED'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

export type MerchantOrderId = number | string;

export interface Address {
  line1: string;
  line2?: string;
  city: string;
  state: string;
  country: string;
  postal_code: string;
}

export interface Customer {
  name: string;
  email: string;
  phone: string;
  address: Address;
}

/** An amount in a request (P-AMOUNT-1): a JSON number, or a decimal string such as "150.00". */
export type RequestAmount = number | string;

export interface OrderCreateRequest {
  order_id: MerchantOrderId;
  order_amount: RequestAmount;
  order_currency: Currency;
  order_note?: string;
  service_type: string;
  customer: Customer;
  return_url: string;
}

export interface OrderRecord {
  svc_order_id: string;
  created_at: string;
  order_id: MerchantOrderId;
  order_status: OrderState;
  payment_link: string;
}

export interface CreateOrderEnvelope {
  code: string;
  status: string;
  message: string;
  return_data: OrderRecord;
}

export interface SuccessEnvelope<T> {
  status: true;
  code: number;
  message: string;
  data: T;
}

export interface ErrorEnvelope {
  status: false;
  code: number;
  message: string;
}

export interface PayoutStatusRequest {
  svc_wallet_id: string;
  debit_account_type: string;
  payout_order_id: MerchantOrderId;
}

export interface PayoutRecord {
  payout_id: string;
  payout_order_id: string;
  wallet_id: string;
  status: PayoutState;
  amount: string;
  currency: Currency;
  utr_number: string;
  message: string;
  amount_debited: 'YES' | 'NO';
  created_at: string;
}

/** P-OPS: Order Status and Order Cancel take the merchant order id only. */
export interface OrderLookupRequest {
  order_id: MerchantOrderId;
}

/** P-OPS: the order record of Order Status / Order Cancel. */
export interface OrderStatusRecord extends OrderRecord {
  order_amount: string;
  order_currency: Currency;
}

export interface BalanceInquiryRequest {
  svc_wallet_id: string;
}

export interface BalanceRecord {
  wallet_id: string;
  balance: string;
  currency: Currency;
}

/** P-OPS: the profile names a `beneficiary` object without fields; this kit's shape for it. */
export interface Beneficiary {
  name: string;
  account_number?: string;
  ifsc?: string;
  iban?: string;
  swift_code?: string;
  vpa?: string;
  bank_name?: string;
}

/** P-OPS: the wallet, account type and payout order id of Payout Status, and what to pay whom. */
export interface TransactionInitiationRequest extends PayoutStatusRequest {
  amount: RequestAmount;
  currency: Currency;
  transfer_mode: TransferMode;
  beneficiary: Beneficiary;
}

/** The operations a target may place elsewhere, or lack (P-OPS, P-CFG `profile.operations`). */
export type OperationKey = ExtensionOperation;
export interface OperationLocation {
  method: 'GET' | 'POST';
  path: string;
}

/** The drivers a config may name (P-CFG `drivers`). */
export type DriverName = 'payOrder' | 'failOrder' | 'expireOrder' | 'settlePayout' | 'fundWallet';

/** P-CFG: how the suites are pointed at a target, after the environment variables are applied. */
export interface TargetConfig {
  baseUrl: string;
  environment: 'sandbox' | 'production';
  merchant: { apiKey: string; secretKey: string; walletId: string };
  otherMerchant?: { apiKey: string; secretKey: string; walletId?: string };
  otherEnvironment?: { apiKey?: string; secretKey?: string; walletId?: string };
  fixtures?: { payouts?: Partial<Record<PayoutState, string>>; otherMerchantPayoutOrderId?: string; spareWallet?: string };
  /** Where the kit's receiver listens, and the URL the target delivers to (P-HOOK-5). */
  webhooks?: { listen: string; url?: string };
  /** Shell commands that move a record where the interface has no operation for it (P-CFG v1.3). */
  drivers?: Partial<Record<DriverName, string>>;
  /** Declares the kit's own reference sandbox: only then are its control requests sent (P-CFG v1.3). */
  target?: 'reference-sandbox';
  profile?: {
    timestampToleranceSeconds?: number;
    concurrency?: number;
    operations?: Partial<Record<OperationKey, OperationLocation | null>>;
    webhooks?: { retryWithinSeconds?: number };
    /** How long a run waits for a target's own changes, and bounds each driver (default 15). */
    settleWithinSeconds?: number;
    /** How long after a write the run's last phase reads it again (default 12). */
    revisitAfterSeconds?: number;
  };
  /** A team's own check modules (absolute paths once loaded). */
  checks?: string[];
}

/** The type of a value that satisfies each schema, by schema id (schemas.test.ts keeps the keys in step). */
export interface SchemaTypes {
  'order-create-request': OrderCreateRequest;
  'create-order-envelope': CreateOrderEnvelope;
  'order-record': OrderRecord;
  /** `data` is an object the schema leaves open; each operation's record schema says more. */
  'success-envelope': SuccessEnvelope<Record<string, unknown>>;
  'error-envelope': ErrorEnvelope;
  'payout-status-error-envelope': ErrorEnvelope;
  'payout-status-request': PayoutStatusRequest;
  'payout-record': PayoutRecord;
  'payout-status-envelope': SuccessEnvelope<PayoutRecord> & { code: 200 };
  'order-lookup-request': OrderLookupRequest;
  'order-status-record': OrderStatusRecord;
  'balance-inquiry-request': BalanceInquiryRequest;
  'balance-record': BalanceRecord;
  'transaction-initiation-request': TransactionInitiationRequest;
  'webhook-event': WebhookEvent;
  config: TargetConfig;
  report: Report;
}
