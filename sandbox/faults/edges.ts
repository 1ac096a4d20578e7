import { faultsOf } from './spec.js';

/** Faults of the wire, the edges of amounts and ids, the wallet, isolation, races, and records over time. */
export const EDGE_FAULTS = {
  ...faultsOf('wire', {
    'http-method-html': [
      'P-HTTP-1',
      'HTTP-OTHER-METHODS',
      "another method on an operation's path answers the web framework's own HTML 405 (or 404) page, not the error envelope",
    ],
    'http-media-type-exact': [
      'P-HTTP-2',
      'HTTP-MEDIA-TYPE',
      'Content-Type is compared as an exact string: "application/json; charset=utf-8" or "Application/JSON" is refused with 415',
    ],
    'http-content-length-chars': [
      'P-HTTP-3',
      'HTTP-CONTENT-LENGTH',
      "Content-Length is set from the text's length in UTF-16 characters, not bytes: an answer with non-ASCII text says it is shorter than it is",
    ],
    'http-chunked-body-empty': [
      'P-HTTP-3',
      'HTTP-CHUNKED-BODY',
      'a body sent with Transfer-Encoding: chunked is read as empty, as a server reading Content-Length bytes does',
    ],
    'http-body-unread': [
      'P-HTTP-3',
      'HTTP-CONTENT-LENGTH',
      'a request refused at authentication leaves its unread body on a kept-alive connection, and the next request there is parsed from it: 400 Bad Request',
    ],
    'http-repeated-key-last-wins': [
      'P-HTTP-4',
      'HTTP-REPEATED-KEYS',
      'a body that repeats a key is accepted, the parser keeping the last value',
    ],
  }),
  ...faultsOf('auth', {
    'auth-window-past-only': [
      'P-AUTH-3',
      'AUTH-WINDOW-AHEAD',
      "a timestamp ahead of the server's clock is refused with 401, even a second ahead: only the past side of the window is allowed",
    ],
  }),
  ...faultsOf('edges', {
    'amount-zero-string-accepted': [
      'P-AMOUNT-4',
      'AMOUNT-ZERO-REFUSED',
      'an order_amount of zero spelled as a string ("0.00", "-0.00") is accepted: the text is checked for its form, the value never compared with zero',
    ],
    'amount-three-decimals-truncated': [
      'P-AMOUNT-4',
      'AMOUNT-KEPT-EXACTLY',
      'order amounts in a 3-decimal currency (KWD, BHD, OMR) are stored cut to 2 decimals (a DECIMAL(…,2) column)',
    ],
    'amount-float32': [
      'P-AMOUNT-4',
      'AMOUNT-KEPT-EXACTLY',
      'order amounts are stored as single-precision floats (a FLOAT column): 16777217 JPY reads back as 16777216',
    ],
    'amount-large-int32': [
      'P-AMOUNT-4',
      'AMOUNT-LARGE',
      'order amounts are stored as minor units modulo 2^31 (a 32-bit integer column): 99999999.99 reads back as 14100654.07',
    ],
    'dup-id-case-insensitive': [
      'P-DUP-5',
      'DUP-EXACT-IDS',
      'order ids compare without case (a case-insensitive collation): "ABC-1" and "abc-1" are one order, the second answers 409',
    ],
    'dup-id-truncated': [
      'P-DUP-5',
      'DUP-EXACT-IDS',
      'order ids longer than 64 characters are silently cut to 64 (a VARCHAR(64) column) and echoed cut',
    ],
    'dup-id-truncated-255': [
      'P-DUP-5',
      'DUP-EXACT-IDS',
      'order ids longer than 255 characters are silently cut to 255 (a VARCHAR(255) column, the commonest default) and echoed cut',
    ],
    'errors-astral-500': [
      'P-ERR-3',
      'ERR-NO-5XX',
      'a customer name with a character outside the Basic Multilingual Plane (an emoji) answers 500 (a 3-byte utf8 column)',
    ],
    'errors-line-separator-500': [
      'P-ERR-3',
      'ERR-NO-5XX',
      'U+2028 or U+2029 in a name, note or address answers 500 (the text is embedded in a script and ends it)',
    ],
  }),
  ...faultsOf('money', {
    'money-exact-balance-refused': [
      'P-MONEY-2',
      'MONEY-EXACT-BALANCE',
      'the funds check is amount >= balance, so a payout of exactly the whole balance is FAILED for insufficient balance',
    ],
    'money-rounding-tolerance': [
      'P-MONEY-2',
      'MONEY-EXACT-BALANCE',
      'the funds check allows a rounding tolerance of one minor unit (amount - balance <= 0.01), so a payout one minor unit beyond the balance is accepted and overdraws the wallet',
    ],
    'money-overdraft-race': [
      'P-MONEY-3',
      'MONEY-NO-OVERDRAFT',
      'the funds check and the debit are separated by an await, so concurrent payouts all pass the check and overdraw the wallet',
    ],
    'money-duplicate-debits': [
      'P-MONEY-4',
      'MONEY-REFUSED-NO-EFFECT',
      'a duplicate payout_order_id is refused 409 after its amount was debited, and the debit is kept',
    ],
    'money-debit-before-validation': [
      'P-MONEY-4',
      'MONEY-REFUSED-NO-EFFECT',
      'the ledger takes the amount before the body is validated: a Transaction Initiation refused 400 (a transfer_mode off the table) keeps its debit',
    ],
  }),
  ...faultsOf('operations', {
    'ops-initiate-race': [
      'P-OPS-5',
      'OPS-INITIATE-CONCURRENT',
      'the duplicate payout_order_id check and the insert are separated by an await: concurrent initiations of one id are all accepted and debited',
    ],
    'ops-cancel-race': [
      'P-OPS-1',
      'OPS-CANCEL-CONCURRENT',
      'Order Cancel reads the order, awaits, then writes: concurrent cancels of one UN_PAID order all answer 200',
    ],
  }),
  ...faultsOf('tenants', {
    'tenant-status-cache': [
      'P-TENANT-1',
      'TENANT-ORDER-STATUS',
      "Order Status answers are cached 5 s by order_id, the merchant left out of the key: after its owner reads an order, another merchant's read of that order_id gets the owner's answer",
    ],
    'tenant-order-status': [
      'P-TENANT-1',
      'TENANT-ORDER-STATUS',
      "Order Status looks orders up by order_id across merchants, so another merchant's order is shown",
    ],
    'tenant-order-cancel': [
      'P-TENANT-1',
      'TENANT-ORDER-CANCEL',
      "Order Cancel looks orders up by order_id across merchants, so another merchant's order is cancelled",
    ],
    'tenant-balance': [
      'P-TENANT-1',
      'TENANT-BALANCE',
      "Balance Inquiry checks the wallet for existence only, so another merchant's balance is shown",
    ],
    'tenant-initiate': [
      'P-TENANT-1',
      'TENANT-INITIATE',
      "Transaction Initiation checks the wallet for existence only, so it pays from another merchant's wallet",
    ],
    'tenant-initiate-fee': [
      'P-TENANT-1',
      'TENANT-INITIATE',
      "a payout from another merchant's wallet answers 403, but only after that wallet was charged the amount and a fee",
    ],
  }),
  ...faultsOf('auth', {
    'auth-failure-cancels-order': [
      'P-AUTH-5',
      'AUTH-FAILURE-NO-EFFECT',
      'an Order Cancel refused for its signature cancels the order anyway',
    ],
  }),
  ...faultsOf('state', {
    'state-paid-cancellable': [
      'P-STATE-1',
      'STATE-ORDER-LIFECYCLE',
      'a PAID order can be cancelled: Order Cancel answers 200 and the order reads CANCELLED',
    ],
    'dup-memory-expires': [
      'P-DUP-5',
      'DUP-PERMANENT',
      'the duplicate check remembers an order_id for 10 s (a cache with a TTL): after that the id creates a new order',
    ],
    'state-read-replica-lag': [
      'P-STATE-3',
      'STATE-READS-AGREE',
      'Order Status reads a replica 30 s behind: an order read within 30 s of its creation answers 404',
    ],
    'state-expiry-job-rewrites': [
      'P-STATE-3',
      'STATE-READS-AGREE',
      'a background expiry job sweeps orders by age alone: 10 s after creation a CANCELLED or PAID order reads EXPIRED',
    ],
    'state-payout-reopens': [
      'P-STATE-2',
      'STATE-PAYOUT-LIFECYCLE',
      'a FAILED payout reads PROCESSING again on later Payout Status (a retry queue that reopens it)',
    ],
    'state-payout-id-reallocated': [
      'P-STATE-3',
      'STATE-READS-AGREE',
      'the payout_id Transaction Initiation answers is not the one stored: Payout Status shows another payout_id (and wallet_id)',
    ],
    'money-reversal-not-refunded': [
      'P-MONEY-1',
      'MONEY-CONSERVATION',
      'a payout moved to REVERSED does not return its amount to the wallet',
    ],
    'money-status-debits-again': [
      'P-MONEY-1',
      'MONEY-CONSERVATION',
      'Payout Status of a payout over 10 s old reconciles it by running its settlement again, which takes the amount once more; no record says so',
    ],
    'dup-id-freed-on-cancel': [
      'P-DUP-5',
      'DUP-PERMANENT',
      "a cancelled order's order_id can be used again: Create Order replaces the cancelled order",
    ],
  }),
};
