/**
 * Fault switches: each breaks exactly one profile rule the way real implementations break it, so
 * that every conformance check can be shown to fail (`serve --fault NAME`, `startSandbox({ faults })`).
 */
export interface FaultSpec {
  /** The profile rule the fault breaks. */
  rule: string;
  /** The catalog requirement (suites/catalog.json) a conformance run must report failed. */
  requirement: string;
  area:
    | 'auth'
    | 'sign'
    | 'env'
    | 'errors'
    | 'order'
    | 'duplicates'
    | 'payout'
    | 'operations'
    | 'webhooks'
    | 'wire'
    | 'edges'
    | 'money'
    | 'tenants'
    | 'state';
  description: string;
}

export const FAULTS = {
  // Authentication (P-AUTH)
  'auth-accept-missing-signature': {
    rule: 'P-AUTH-2',
    requirement: 'AUTH-MISSING-SIGNATURE',
    area: 'auth',
    description: 'a request without X-SIGNATURE is accepted',
  },
  'auth-accept-missing-timestamp': {
    rule: 'P-AUTH-2',
    requirement: 'AUTH-MISSING-TIMESTAMP',
    area: 'auth',
    description: 'a request without X-TIMESTAMP is accepted (the signature covers the body alone)',
  },
  'auth-accept-unknown-key': {
    rule: 'P-AUTH-2',
    requirement: 'AUTH-UNKNOWN-KEY',
    area: 'auth',
    description: 'an unknown X-API-KEY is served as the first merchant',
  },
  'auth-ignore-signature': {
    rule: 'P-AUTH-2',
    requirement: 'AUTH-WRONG-SECRET',
    area: 'auth',
    description: 'any well-formed signature is accepted: the HMAC is never compared',
  },
  'auth-signature-prefix-compare': {
    rule: 'P-AUTH-2',
    requirement: 'AUTH-SIGNATURE-TRUNCATED',
    area: 'auth',
    description: 'only the first 16 hex characters of the signature are compared, so a truncated one passes',
  },
  'auth-signature-cache': {
    rule: 'P-AUTH-2',
    requirement: 'AUTH-PAYLOAD-CHANGED-REUSED',
    area: 'auth',
    description:
      'a (timestamp, signature) pair once verified is trusted again without checking the body, so a changed body re-using it passes',
  },
  'auth-timestamp-search': {
    rule: 'P-AUTH-2',
    requirement: 'AUTH-TIMESTAMP-CHANGED',
    area: 'auth',
    description: 'to tolerate clock skew the HMAC is tried with every timestamp in the window, so a timestamp changed after signing passes',
  },
  'auth-no-window': {
    rule: 'P-AUTH-3',
    requirement: 'AUTH-WINDOW-EXPIRED',
    area: 'auth',
    description: 'timestamps of any age are accepted',
  },
  'auth-accept-milliseconds': {
    rule: 'P-AUTH-2',
    requirement: 'AUTH-TIMESTAMP-MILLISECONDS',
    area: 'auth',
    description: 'a millisecond timestamp is divided by 1000 and accepted',
  },
  'auth-accept-fractional-timestamp': {
    rule: 'P-AUTH-2',
    requirement: 'AUTH-TIMESTAMP-FRACTIONAL',
    area: 'auth',
    description: 'a fractional timestamp is truncated and accepted',
  },
  'auth-verify-timestamp-omitted': {
    rule: 'P-SIGN-2',
    requirement: 'AUTH-ACCEPT',
    area: 'auth',
    description:
      'signatures are verified over the body alone, without X-TIMESTAMP: every correctly signed request is refused 401 (it looks like wrong credentials)',
  },
  'auth-verify-timestamp-first': {
    rule: 'P-SIGN-2',
    requirement: 'AUTH-ACCEPT',
    area: 'auth',
    description: 'signatures are verified over X-TIMESTAMP followed by the body: every correctly signed request is refused 401',
  },
  'auth-verify-base64': {
    rule: 'P-SIGN-2',
    requirement: 'AUTH-ACCEPT',
    area: 'auth',
    description: 'the digest is compared in base64, not lower-case hex: every correctly signed request is refused 401',
  },
  'auth-failure-403': {
    rule: 'P-AUTH-2',
    requirement: 'AUTH-WRONG-SECRET',
    area: 'auth',
    description: 'a signature mismatch answers 403 instead of 401',
  },
  'auth-failure-html': {
    rule: 'P-AUTH-5',
    requirement: 'AUTH-FAILURE-ENVELOPE',
    area: 'auth',
    description: 'authentication failures answer an HTML page, not the error envelope',
  },
  'auth-failure-creates-order': {
    rule: 'P-AUTH-5',
    requirement: 'AUTH-FAILURE-NO-EFFECT',
    area: 'auth',
    description: 'a Create Order refused for its signature is stored anyway',
  },
  // Canonical text the server verifies against (P-SIGN)
  'sign-escaped-slashes': {
    rule: 'P-SIGN-5',
    requirement: 'SIGN-SLASHES',
    area: 'sign',
    description: 'the server re-canonicalizes with "/" escaped, refusing bodies with slashes',
  },
  'sign-ascii-only': {
    rule: 'P-SIGN-5',
    requirement: 'SIGN-NON-ASCII',
    area: 'sign',
    description: 'the server re-canonicalizes with non-ASCII as \\u escapes, refusing unicode bodies',
  },
  'sign-html-escaped': {
    rule: 'P-SIGN-5',
    requirement: 'SIGN-HTML-CHARACTERS',
    area: 'sign',
    description: 'the server re-canonicalizes with < > & escaped, refusing bodies that contain them',
  },
  // Environments (P-ENV)
  'env-accept-production-key': {
    rule: 'P-ENV-1',
    requirement: 'ENV-PRODUCTION-KEY',
    area: 'env',
    description: "a production key (pk_live_) is served as the same merchant's sandbox account, verified with its sandbox secret",
  },
  'env-wallet-404': {
    rule: 'P-ENV-2',
    requirement: 'ENV-WALLET-OTHER-ENVIRONMENT',
    area: 'env',
    description: 'a wallet of the other environment answers 404 instead of 403',
  },
  'env-error-with-data': {
    rule: 'P-ENV-2',
    requirement: 'ENV-WALLET-OTHER-ENVIRONMENT',
    area: 'env',
    description: 'the wrong-environment 403 of Payout Status carries data',
  },
  // Envelopes and codes (P-ERR)
  'errors-code-mismatch': {
    rule: 'P-ERR-2',
    requirement: 'ERR-CODE-MATCHES-STATUS',
    area: 'errors',
    description: 'error bodies always say code 400, whatever the HTTP status',
  },
  'errors-status-as-text': {
    rule: 'P-ERR-1',
    requirement: 'ERR-ENVELOPE',
    area: 'errors',
    description: 'error bodies carry status "false" as text',
  },
  'errors-code-as-text': {
    rule: 'P-ERR-1',
    requirement: 'ERR-ENVELOPE',
    area: 'errors',
    description: 'error bodies carry code as text ("404")',
  },
  'errors-empty-message': {
    rule: 'P-ERR-1',
    requirement: 'ERR-ENVELOPE',
    area: 'errors',
    description: 'error bodies carry an empty message',
  },
  'errors-text-plain': {
    rule: 'P-ERR-1',
    requirement: 'ERR-CONTENT-TYPE',
    area: 'errors',
    description: 'error responses are labelled Content-Type: text/plain',
  },
  'errors-invalid-json-500': {
    rule: 'P-ERR-4',
    requirement: 'ERR-INVALID-JSON',
    area: 'errors',
    description: 'an invalid JSON body answers 500',
  },
  'errors-missing-field-500': {
    rule: 'P-ERR-3',
    requirement: 'ERR-NO-5XX',
    area: 'errors',
    description: 'a Create Order without customer.address answers 500 (a null dereference)',
  },
  'errors-zero-amount-accepted': {
    rule: 'P-ERR-4',
    requirement: 'ERR-BAD-AMOUNT',
    area: 'errors',
    description: 'order_amount zero or negative is accepted',
  },
  'errors-unknown-currency-accepted': {
    rule: 'P-ERR-4',
    requirement: 'ERR-UNKNOWN-CURRENCY',
    area: 'errors',
    description: 'an order_currency outside the table is accepted',
  },
  'errors-null-field-accepted': {
    rule: 'P-ERR-4',
    requirement: 'ERR-NULL-FIELD',
    area: 'errors',
    description: 'a required field set to null is accepted',
  },
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
  // The wire and the edges of amounts, identifiers and text (v1.2: P-HTTP, P-AMOUNT-4, P-DUP-5, P-ERR-3)
  // (wire and edges faults go here)
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
  // The wallet, isolation and races (v1.2: P-MONEY-2..4, P-TENANT, P-OPS-5)
  // (money, tenants and races faults go here)
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
  // Records over time (v1.2: P-STATE, P-MONEY-1, P-DUP-5 permanence)
  // (state faults go here)
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
  // The webhook sender (P-HOOK)
  'hook-no-event-id': {
    rule: 'P-HOOK-1',
    requirement: 'HOOK-DELIVERY-HEADERS',
    area: 'webhooks',
    description: 'deliveries carry no X-EVENT-ID header (the id is only in the body)',
  },
  'hook-non-canonical-body': {
    rule: 'P-HOOK-1',
    requirement: 'HOOK-CANONICAL-BODY',
    area: 'webhooks',
    description: 'the event is sent as built, keys in insertion order (JSON.stringify), and signed so',
  },
  'hook-sign-reserialized': {
    rule: 'P-HOOK-1',
    requirement: 'HOOK-SIGNATURE',
    area: 'webhooks',
    description: 'the canonical text is sent, but the signature covers a second serialization of the event (keys in insertion order)',
  },
  'hook-separate-secret': {
    rule: 'P-HOOK-1',
    requirement: 'HOOK-SIGNATURE',
    area: 'webhooks',
    description: "deliveries are signed with a webhook secret of the sender's own (whsec_…), not the merchant's secret key",
  },
  'hook-same-timestamp': {
    rule: 'P-HOOK-1',
    requirement: 'HOOK-FRESH-TIMESTAMP',
    area: 'webhooks',
    description: "every retry re-sends the first attempt's timestamp and signature (a stored request)",
  },
  'hook-created-at-iso': {
    rule: 'P-HOOK-2',
    requirement: 'HOOK-EVENT-SHAPE',
    area: 'webhooks',
    description: "the event's created_at is ISO 8601 text, not UNIX seconds",
  },
  'hook-silent-failures': {
    rule: 'P-HOOK-2',
    requirement: 'HOOK-EVENTS-FIRED',
    area: 'webhooks',
    description: 'a payout that FAILED is never notified (payout.failed is not sent)',
  },
  'hook-retry-countdown': {
    rule: 'P-HOOK-3',
    requirement: 'HOOK-RETRY',
    area: 'webhooks',
    description: 'retries come sooner each time (8, 4, 2, 1 s: the schedule read from its end)',
  },
  'hook-no-retry': {
    rule: 'P-HOOK-3',
    requirement: 'HOOK-RETRY',
    area: 'webhooks',
    description: 'a delivery that is not acknowledged is never retried',
  },
  'hook-contradicts-status': {
    rule: 'P-HOOK-4',
    requirement: 'HOOK-AGREES-WITH-STATUS',
    area: 'webhooks',
    description: "the bank's acceptance of a payout is notified as payout.success while Payout Status still says PROCESSING",
  },
} as const satisfies Record<string, FaultSpec>;

export type FaultName = keyof typeof FAULTS;
export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}

/** Checks fault names given by a person; the error lists what exists. */
export function parseFaults(names: readonly string[]): Set<FaultName> {
  const unknown = names.filter((n) => !isFaultName(n));
  if (unknown.length > 0) {
    throw new RangeError(
      `unknown fault ${unknown.map((n) => `"${n}"`).join(', ')}; run \`svc-conformance serve --list-faults\` to see them`,
    );
  }
  return new Set(names as FaultName[]);
}
