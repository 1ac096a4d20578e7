import type { FaultSpec } from './spec.js';

/** Faults of the operations: Create Order, duplicates, Payout Status, the P-OPS extension. */
export const OPERATION_FAULTS = {
  // Create Order (P-ORDER)
  'order-create-202': { rule: 'P-ORDER-2', requirement: 'ORDER-SUCCESS-STATUS', area: 'order', description: 'Create Order answers 202' },
  'order-code-mismatch': {
    rule: 'P-ORDER-2',
    requirement: 'ORDER-ENVELOPE',
    area: 'order',
    description: 'the create envelope says code "200" whatever the HTTP status (201 here)',
  },
  'order-status-uppercase': {
    rule: 'P-ORDER-2',
    requirement: 'ORDER-ENVELOPE',
    area: 'order',
    description: 'the create envelope says status "SUCCESS"',
  },
  'order-created-at-24h': {
    rule: 'P-ORDER-3',
    requirement: 'ORDER-CREATED-AT',
    area: 'order',
    description: 'created_at uses a 24-hour clock without AM/PM ("21-11-2026 18:05")',
  },
  'order-created-at-iso': { rule: 'P-ORDER-3', requirement: 'ORDER-CREATED-AT', area: 'order', description: 'created_at is ISO 8601' },
  'order-status-pending': {
    rule: 'P-ORDER-3',
    requirement: 'ORDER-STATUS-UNPAID',
    area: 'order',
    description: 'a new order is PENDING instead of UN_PAID',
  },
  'order-link-relative': {
    rule: 'P-ORDER-3',
    requirement: 'ORDER-PAYMENT-LINK',
    area: 'order',
    description: 'payment_link is a relative path',
  },
  'order-id-reused': {
    rule: 'P-ORDER-3',
    requirement: 'ORDER-SVC-ORDER-ID',
    area: 'order',
    description: 'every order gets the same svc_order_id',
  },
  'order-id-numeric': {
    rule: 'P-ORDER-3',
    requirement: 'ORDER-ORDER-ID-ECHO',
    area: 'order',
    description: 'a numeric-looking string order_id comes back as a number, losing leading zeros',
  },
  'order-address-optional': {
    rule: 'P-ORDER-1',
    requirement: 'ORDER-ADDRESS-REQUIRED',
    area: 'order',
    description: 'an order without customer.address is accepted',
  },
  'order-reject-non-ascii': {
    rule: 'P-ORDER-4',
    requirement: 'ORDER-UNICODE-NAMES',
    area: 'order',
    description: 'customer names with non-ASCII letters are refused with 400',
  },
  'order-reject-currencies': {
    rule: 'P-ORDER-4',
    requirement: 'ORDER-EVERY-CURRENCY',
    area: 'order',
    description: 'only INR, USD and EUR orders are accepted',
  },
  'order-amount-string-refused': {
    rule: 'P-AMOUNT-1',
    requirement: 'ORDER-AMOUNT-FORMS',
    area: 'order',
    description: 'an order_amount sent as a decimal string ("1499.50") is refused with 400: only JSON numbers are read',
  },
  'order-amount-number-refused': {
    rule: 'P-AMOUNT-1',
    requirement: 'ORDER-AMOUNT-FORMS',
    area: 'order',
    description: 'an order_amount sent as a JSON number is refused with 400: only decimal strings are read',
  },
  // Duplicates (P-DUP)
  'dup-allowed': {
    rule: 'P-DUP-1',
    requirement: 'DUP-SEQUENTIAL',
    area: 'duplicates',
    description: 'a repeated order_id creates a second order',
  },
  'dup-overwrites': {
    rule: 'P-DUP-1',
    requirement: 'DUP-FIRST-UNCHANGED',
    area: 'duplicates',
    description: 'a repeated order_id answers 409 but overwrites the first order',
  },
  'dup-race': {
    rule: 'P-DUP-2',
    requirement: 'DUP-CONCURRENT',
    area: 'duplicates',
    description: 'the duplicate check and the insert are not atomic: concurrent creates all succeed',
  },
  'dup-global-ids': {
    rule: 'P-DUP-3',
    requirement: 'DUP-OTHER-MERCHANT',
    area: 'duplicates',
    description: "order ids are unique across merchants, so another merchant's id answers 409",
  },
  'dup-type-sensitive': {
    rule: 'P-DUP-4',
    requirement: 'DUP-INTEGER-STRING',
    area: 'duplicates',
    description: '123 and "123" are different order ids',
  },
  // Payout Status (P-PAYOUT)
  'payout-failed-debited': {
    rule: 'P-PAYOUT-3',
    requirement: 'PAYOUT-FAILED-INVARIANTS',
    area: 'payout',
    description: 'a FAILED payout says amount_debited YES',
  },
  'payout-failed-utr': {
    rule: 'P-PAYOUT-3',
    requirement: 'PAYOUT-FAILED-INVARIANTS',
    area: 'payout',
    description: 'a FAILED payout carries an empty utr_number instead of NA',
  },
  'payout-amount-number': {
    rule: 'P-PAYOUT-2',
    requirement: 'PAYOUT-RECORD-FORMAT',
    area: 'payout',
    description: 'the payout amount is a JSON number, not text',
  },
  'payout-status-lowercase': {
    rule: 'P-PAYOUT-2',
    requirement: 'PAYOUT-RECORD-FORMAT',
    area: 'payout',
    description: 'payout states are lower case ("success")',
  },
  'payout-created-at-slashes': {
    rule: 'P-PAYOUT-2',
    requirement: 'PAYOUT-RECORD-FORMAT',
    area: 'payout',
    description: 'payout created_at is DD/MM/YYYY',
  },
  'payout-unknown-200': {
    rule: 'P-PAYOUT-4',
    requirement: 'PAYOUT-UNKNOWN',
    area: 'payout',
    description: 'an unknown payout answers 200 with status false',
  },
  'payout-cross-merchant': {
    rule: 'P-PAYOUT-4',
    requirement: 'PAYOUT-OTHER-MERCHANT',
    area: 'payout',
    description: "another merchant's payout is served",
  },
  'payout-other-merchant-wallet': {
    rule: 'P-ERR-4',
    requirement: 'PAYOUT-OTHER-MERCHANT-WALLET',
    area: 'payout',
    description: 'a wallet of another merchant is accepted: the wallet is checked for existence only',
  },
  'payout-missing-field-404': {
    rule: 'P-PAYOUT-5',
    requirement: 'PAYOUT-MISSING-ORDER-ID',
    area: 'payout',
    description: 'a Payout Status without payout_order_id answers 404',
  },
  // Operations of the profile's extension (P-OPS)
  'ops-cancel-cancelled': {
    rule: 'P-OPS-1',
    requirement: 'OPS-CANCEL-AGAIN',
    area: 'operations',
    description: 'a CANCELLED order can be cancelled again (answers 200, not 422)',
  },
  'ops-failed-as-error': {
    rule: 'P-OPS-3',
    requirement: 'OPS-INITIATE-INSUFFICIENT',
    area: 'operations',
    description: 'insufficient balance answers a 422 error envelope instead of a FAILED payout record',
  },
  'ops-initiate-duplicate': {
    rule: 'P-OPS-3',
    requirement: 'OPS-INITIATE-DUPLICATE',
    area: 'operations',
    description: 'a repeated payout_order_id initiates a second payout',
  },
  'ops-amount-string-refused': {
    rule: 'P-AMOUNT-1',
    requirement: 'OPS-INITIATE-AMOUNT-FORMS',
    area: 'operations',
    description: 'a Transaction Initiation amount sent as a decimal string ("150.00") is refused with 400: only JSON numbers are read',
  },
  'ops-transfer-mode-unchecked': {
    rule: 'P-OPS-3',
    requirement: 'OPS-INITIATE-TRANSFER-MODE',
    area: 'operations',
    description: 'a transfer_mode outside the table is accepted',
  },
  'ops-balance-not-debited': {
    rule: 'P-OPS-4',
    requirement: 'OPS-BALANCE-DEBITED',
    area: 'operations',
    description: 'a successful payout does not lower the balance',
  },
  'ops-debit-whole-units': {
    rule: 'P-OPS-4',
    requirement: 'OPS-BALANCE-DEBITED',
    area: 'operations',
    description: 'a successful payout debits its amount cut to whole units (150.75 takes 150.00): integer arithmetic on the major unit',
  },
  'ops-failed-debits': {
    rule: 'P-OPS-4',
    requirement: 'OPS-BALANCE-UNCHANGED-ON-FAILURE',
    area: 'operations',
    description: 'a FAILED payout still lowers the balance (the debit is taken before the funds check and never restored)',
  },
} as const satisfies Record<string, FaultSpec>;
