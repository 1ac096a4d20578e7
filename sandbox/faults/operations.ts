import { faultsOf } from './spec.js';

/** Faults of the operations: Create Order, duplicates, Payout Status, the P-OPS extension. */
export const OPERATION_FAULTS = {
  ...faultsOf('order', {
    'order-create-202': ['P-ORDER-2', 'ORDER-SUCCESS-STATUS', 'Create Order answers 202'],
    'order-code-mismatch': ['P-ORDER-2', 'ORDER-ENVELOPE', 'the create envelope says code "200" whatever the HTTP status (201 here)'],
    'order-status-uppercase': ['P-ORDER-2', 'ORDER-ENVELOPE', 'the create envelope says status "SUCCESS"'],
    'order-created-at-24h': ['P-ORDER-3', 'ORDER-CREATED-AT', 'created_at uses a 24-hour clock without AM/PM ("21-11-2026 18:05")'],
    'order-created-at-iso': ['P-ORDER-3', 'ORDER-CREATED-AT', 'created_at is ISO 8601'],
    'order-status-pending': ['P-ORDER-3', 'ORDER-STATUS-UNPAID', 'a new order is PENDING instead of UN_PAID'],
    'order-link-relative': ['P-ORDER-3', 'ORDER-PAYMENT-LINK', 'payment_link is a relative path'],
    'order-id-reused': ['P-ORDER-3', 'ORDER-SVC-ORDER-ID', 'every order gets the same svc_order_id'],
    'order-id-numeric': [
      'P-ORDER-3',
      'ORDER-ORDER-ID-ECHO',
      'a numeric-looking string order_id comes back as a number, losing leading zeros',
    ],
    'order-address-optional': ['P-ORDER-1', 'ORDER-ADDRESS-REQUIRED', 'an order without customer.address is accepted'],
    'order-reject-non-ascii': ['P-ORDER-4', 'ORDER-UNICODE-NAMES', 'customer names with non-ASCII letters are refused with 400'],
    'order-reject-currencies': ['P-ORDER-4', 'ORDER-EVERY-CURRENCY', 'only INR, USD and EUR orders are accepted'],
    'order-amount-string-refused': [
      'P-AMOUNT-1',
      'ORDER-AMOUNT-FORMS',
      'an order_amount sent as a decimal string ("1499.50") is refused with 400: only JSON numbers are read',
    ],
    'order-amount-number-refused': [
      'P-AMOUNT-1',
      'ORDER-AMOUNT-FORMS',
      'an order_amount sent as a JSON number is refused with 400: only decimal strings are read',
    ],
  }),
  ...faultsOf('duplicates', {
    'dup-allowed': ['P-DUP-1', 'DUP-SEQUENTIAL', 'a repeated order_id creates a second order'],
    'dup-overwrites': ['P-DUP-1', 'DUP-FIRST-UNCHANGED', 'a repeated order_id answers 409 but overwrites the first order'],
    'dup-race': ['P-DUP-2', 'DUP-CONCURRENT', 'the duplicate check and the insert are not atomic: concurrent creates all succeed'],
    'dup-global-ids': ['P-DUP-3', 'DUP-OTHER-MERCHANT', "order ids are unique across merchants, so another merchant's id answers 409"],
    'dup-type-sensitive': ['P-DUP-4', 'DUP-INTEGER-STRING', '123 and "123" are different order ids'],
  }),
  ...faultsOf('payout', {
    'payout-failed-debited': ['P-PAYOUT-3', 'PAYOUT-FAILED-INVARIANTS', 'a FAILED payout says amount_debited YES'],
    'payout-failed-utr': ['P-PAYOUT-3', 'PAYOUT-FAILED-INVARIANTS', 'a FAILED payout carries an empty utr_number instead of NA'],
    'payout-amount-number': ['P-PAYOUT-2', 'PAYOUT-RECORD-FORMAT', 'the payout amount is a JSON number, not text'],
    'payout-status-lowercase': ['P-PAYOUT-2', 'PAYOUT-RECORD-FORMAT', 'payout states are lower case ("success")'],
    'payout-created-at-slashes': ['P-PAYOUT-2', 'PAYOUT-RECORD-FORMAT', 'payout created_at is DD/MM/YYYY'],
    'payout-unknown-200': ['P-PAYOUT-4', 'PAYOUT-UNKNOWN', 'an unknown payout answers 200 with status false'],
    'payout-cross-merchant': ['P-PAYOUT-4', 'PAYOUT-OTHER-MERCHANT', "another merchant's payout is served"],
    'payout-other-merchant-wallet': [
      'P-ERR-4',
      'PAYOUT-OTHER-MERCHANT-WALLET',
      'a wallet of another merchant is accepted: the wallet is checked for existence only',
    ],
    'payout-missing-field-404': ['P-PAYOUT-5', 'PAYOUT-MISSING-ORDER-ID', 'a Payout Status without payout_order_id answers 404'],
  }),
  ...faultsOf('operations', {
    'ops-cancel-cancelled': ['P-OPS-1', 'OPS-CANCEL-AGAIN', 'a CANCELLED order can be cancelled again (answers 200, not 422)'],
    'ops-failed-as-error': [
      'P-OPS-3',
      'OPS-INITIATE-INSUFFICIENT',
      'insufficient balance answers a 422 error envelope instead of a FAILED payout record',
    ],
    'ops-initiate-duplicate': ['P-OPS-3', 'OPS-INITIATE-DUPLICATE', 'a repeated payout_order_id initiates a second payout'],
    'ops-amount-string-refused': [
      'P-AMOUNT-1',
      'OPS-INITIATE-AMOUNT-FORMS',
      'a Transaction Initiation amount sent as a decimal string ("150.00") is refused with 400: only JSON numbers are read',
    ],
    'ops-transfer-mode-unchecked': ['P-OPS-3', 'OPS-INITIATE-TRANSFER-MODE', 'a transfer_mode outside the table is accepted'],
    'ops-balance-not-debited': ['P-OPS-4', 'OPS-BALANCE-DEBITED', 'a successful payout does not lower the balance'],
    'ops-debit-whole-units': [
      'P-OPS-4',
      'OPS-BALANCE-DEBITED',
      'a successful payout debits its amount cut to whole units (150.75 takes 150.00): integer arithmetic on the major unit',
    ],
    'ops-failed-debits': [
      'P-OPS-4',
      'OPS-BALANCE-UNCHANGED-ON-FAILURE',
      'a FAILED payout still lowers the balance (the debit is taken before the funds check and never restored)',
    ],
  }),
};
