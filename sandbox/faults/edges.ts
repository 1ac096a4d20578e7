import type { FaultSpec } from './spec.js';

/** Faults of the wire, the edges of amounts and ids, the wallet, isolation, races, and records over time. */
export const EDGE_FAULTS = {
  // The wire and the edges of amounts, identifiers and text (P-HTTP, P-AMOUNT-4, P-DUP-5, P-ERR-3)
  'http-method-html': {
    rule: 'P-HTTP-1',
    requirement: 'HTTP-OTHER-METHODS',
    area: 'wire',
    description: "another method on an operation's path answers the web framework's own HTML 405 (or 404) page, not the error envelope",
  },
  'http-media-type-exact': {
    rule: 'P-HTTP-2',
    requirement: 'HTTP-MEDIA-TYPE',
    area: 'wire',
    description: 'Content-Type is compared as an exact string: "application/json; charset=utf-8" or "Application/JSON" is refused with 415',
  },
  'http-content-length-chars': {
    rule: 'P-HTTP-3',
    requirement: 'HTTP-CONTENT-LENGTH',
    area: 'wire',
    description:
      "Content-Length is set from the text's length in UTF-16 characters, not bytes: an answer with non-ASCII text says it is shorter than it is",
  },
  'http-repeated-key-last-wins': {
    rule: 'P-HTTP-4',
    requirement: 'HTTP-REPEATED-KEYS',
    area: 'wire',
    description: 'a body that repeats a key is accepted, the parser keeping the last value',
  },
  'auth-window-past-only': {
    rule: 'P-AUTH-3',
    requirement: 'AUTH-WINDOW-AHEAD',
    area: 'auth',
    description:
      "a timestamp ahead of the server's clock is refused with 401, even a second ahead: only the past side of the window is allowed",
  },
  'amount-zero-string-accepted': {
    rule: 'P-AMOUNT-4',
    requirement: 'AMOUNT-ZERO-REFUSED',
    area: 'edges',
    description:
      'an order_amount of zero spelled as a string ("0.00", "-0.00") is accepted: the text is checked for its form, the value never compared with zero',
  },
  'amount-three-decimals-truncated': {
    rule: 'P-AMOUNT-4',
    requirement: 'AMOUNT-KEPT-EXACTLY',
    area: 'edges',
    description: 'order amounts in a 3-decimal currency (KWD, BHD, OMR) are stored cut to 2 decimals (a DECIMAL(…,2) column)',
  },
  'amount-large-int32': {
    rule: 'P-AMOUNT-4',
    requirement: 'AMOUNT-LARGE',
    area: 'edges',
    description: 'order amounts are stored as minor units modulo 2^31 (a 32-bit integer column): 99999999.99 reads back as 14100654.07',
  },
  'dup-id-case-insensitive': {
    rule: 'P-DUP-5',
    requirement: 'DUP-EXACT-IDS',
    area: 'edges',
    description: 'order ids compare without case (a case-insensitive collation): "ABC-1" and "abc-1" are one order, the second answers 409',
  },
  'dup-id-truncated': {
    rule: 'P-DUP-5',
    requirement: 'DUP-EXACT-IDS',
    area: 'edges',
    description: 'order ids longer than 64 characters are silently cut to 64 (a VARCHAR(64) column) and echoed cut',
  },
  'dup-id-truncated-255': {
    rule: 'P-DUP-5',
    requirement: 'DUP-EXACT-IDS',
    area: 'edges',
    description:
      'order ids longer than 255 characters are silently cut to 255 (a VARCHAR(255) column, the commonest default) and echoed cut',
  },
  'errors-astral-500': {
    rule: 'P-ERR-3',
    requirement: 'ERR-NO-5XX',
    area: 'edges',
    description: 'a customer name with a character outside the Basic Multilingual Plane (an emoji) answers 500 (a 3-byte utf8 column)',
  },
  'errors-line-separator-500': {
    rule: 'P-ERR-3',
    requirement: 'ERR-NO-5XX',
    area: 'edges',
    description: 'U+2028 or U+2029 in a name, note or address answers 500 (the text is embedded in a script and ends it)',
  },
  // The wallet, isolation and races (P-MONEY-2..4, P-TENANT, P-OPS-5)
  'money-exact-balance-refused': {
    rule: 'P-MONEY-2',
    requirement: 'MONEY-EXACT-BALANCE',
    area: 'money',
    description: 'the funds check is amount >= balance, so a payout of exactly the whole balance is FAILED for insufficient balance',
  },
  'money-rounding-tolerance': {
    rule: 'P-MONEY-2',
    requirement: 'MONEY-EXACT-BALANCE',
    area: 'money',
    description:
      'the funds check allows a rounding tolerance of one minor unit (amount - balance <= 0.01), so a payout one minor unit beyond the balance is accepted and overdraws the wallet',
  },
  'money-overdraft-race': {
    rule: 'P-MONEY-3',
    requirement: 'MONEY-NO-OVERDRAFT',
    area: 'money',
    description:
      'the funds check and the debit are separated by an await, so concurrent payouts all pass the check and overdraw the wallet',
  },
  'money-duplicate-debits': {
    rule: 'P-MONEY-4',
    requirement: 'MONEY-REFUSED-NO-EFFECT',
    area: 'money',
    description: 'a duplicate payout_order_id is refused 409 after its amount was debited, and the debit is kept',
  },
  'ops-initiate-race': {
    rule: 'P-OPS-5',
    requirement: 'OPS-INITIATE-CONCURRENT',
    area: 'operations',
    description:
      'the duplicate payout_order_id check and the insert are separated by an await: concurrent initiations of one id are all accepted and debited',
  },
  'ops-cancel-race': {
    rule: 'P-OPS-1',
    requirement: 'OPS-CANCEL-CONCURRENT',
    area: 'operations',
    description: 'Order Cancel reads the order, awaits, then writes: concurrent cancels of one UN_PAID order all answer 200',
  },
  'tenant-order-status': {
    rule: 'P-TENANT-1',
    requirement: 'TENANT-ORDER-STATUS',
    area: 'tenants',
    description: "Order Status looks orders up by order_id across merchants, so another merchant's order is shown",
  },
  'tenant-order-cancel': {
    rule: 'P-TENANT-1',
    requirement: 'TENANT-ORDER-CANCEL',
    area: 'tenants',
    description: "Order Cancel looks orders up by order_id across merchants, so another merchant's order is cancelled",
  },
  'tenant-balance': {
    rule: 'P-TENANT-1',
    requirement: 'TENANT-BALANCE',
    area: 'tenants',
    description: "Balance Inquiry checks the wallet for existence only, so another merchant's balance is shown",
  },
  'tenant-initiate': {
    rule: 'P-TENANT-1',
    requirement: 'TENANT-INITIATE',
    area: 'tenants',
    description: "Transaction Initiation checks the wallet for existence only, so it pays from another merchant's wallet",
  },
  'tenant-initiate-fee': {
    rule: 'P-TENANT-1',
    requirement: 'TENANT-INITIATE',
    area: 'tenants',
    description: "a payout from another merchant's wallet answers 403, but only after that wallet was charged the amount and a fee",
  },
  'auth-failure-cancels-order': {
    rule: 'P-AUTH-5',
    requirement: 'AUTH-FAILURE-NO-EFFECT',
    area: 'auth',
    description: 'an Order Cancel refused for its signature cancels the order anyway',
  },
  // Records over time (P-STATE, P-MONEY-1, P-DUP-5 permanence)
  'state-paid-cancellable': {
    rule: 'P-STATE-1',
    requirement: 'STATE-ORDER-LIFECYCLE',
    area: 'state',
    description: 'a PAID order can be cancelled: Order Cancel answers 200 and the order reads CANCELLED',
  },
  'state-payout-reopens': {
    rule: 'P-STATE-2',
    requirement: 'STATE-PAYOUT-LIFECYCLE',
    area: 'state',
    description: 'a FAILED payout reads PROCESSING again on later Payout Status (a retry queue that reopens it)',
  },
  'state-payout-id-reallocated': {
    rule: 'P-STATE-3',
    requirement: 'STATE-READS-AGREE',
    area: 'state',
    description:
      'the payout_id Transaction Initiation answers is not the one stored: Payout Status shows another payout_id (and wallet_id)',
  },
  'money-reversal-not-refunded': {
    rule: 'P-MONEY-1',
    requirement: 'MONEY-CONSERVATION',
    area: 'state',
    description: 'a payout moved to REVERSED does not return its amount to the wallet',
  },
  'dup-id-freed-on-cancel': {
    rule: 'P-DUP-5',
    requirement: 'DUP-PERMANENT',
    area: 'state',
    description: "a cancelled order's order_id can be used again: Create Order replaces the cancelled order",
  },
} as const satisfies Record<string, FaultSpec>;
