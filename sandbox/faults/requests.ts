import type { FaultSpec } from './spec.js';

/** Faults of accepting a request: authentication, the signed text, environments, error envelopes. */
export const REQUEST_FAULTS = {
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
} as const satisfies Record<string, FaultSpec>;
