import { faultsOf } from './spec.js';

/** Faults of accepting a request: authentication, the signed text, environments, error envelopes. */
export const REQUEST_FAULTS = {
  ...faultsOf('auth', {
    'auth-accept-missing-signature': ['P-AUTH-2', 'AUTH-MISSING-SIGNATURE', 'a request without X-SIGNATURE is accepted'],
    'auth-accept-missing-timestamp': [
      'P-AUTH-2',
      'AUTH-MISSING-TIMESTAMP',
      'a request without X-TIMESTAMP is accepted (the signature covers the body alone)',
    ],
    'auth-accept-unknown-key': ['P-AUTH-2', 'AUTH-UNKNOWN-KEY', 'an unknown X-API-KEY is served as the first merchant'],
    'auth-ignore-signature': ['P-AUTH-2', 'AUTH-WRONG-SECRET', 'any well-formed signature is accepted: the HMAC is never compared'],
    'auth-signature-prefix-compare': [
      'P-AUTH-2',
      'AUTH-SIGNATURE-TRUNCATED',
      'only the first 16 hex characters of the signature are compared, so a truncated one passes',
    ],
    'auth-signature-cache': [
      'P-AUTH-2',
      'AUTH-PAYLOAD-CHANGED-REUSED',
      'a (timestamp, signature) pair once verified is trusted again without checking the body, so a changed body re-using it passes',
    ],
    'auth-timestamp-search': [
      'P-AUTH-2',
      'AUTH-TIMESTAMP-CHANGED',
      'to tolerate clock skew the HMAC is tried with every timestamp in the window, so a timestamp changed after signing passes',
    ],
    'auth-no-window': ['P-AUTH-3', 'AUTH-WINDOW-EXPIRED', 'timestamps of any age are accepted'],
    'auth-accept-milliseconds': ['P-AUTH-2', 'AUTH-TIMESTAMP-MILLISECONDS', 'a millisecond timestamp is divided by 1000 and accepted'],
    'auth-accept-fractional-timestamp': ['P-AUTH-2', 'AUTH-TIMESTAMP-FRACTIONAL', 'a fractional timestamp is truncated and accepted'],
    'auth-verify-timestamp-omitted': [
      'P-SIGN-2',
      'AUTH-ACCEPT',
      'signatures are verified over the body alone, without X-TIMESTAMP: every correctly signed request is refused 401 (it looks like wrong credentials)',
    ],
    'auth-verify-timestamp-first': [
      'P-SIGN-2',
      'AUTH-ACCEPT',
      'signatures are verified over X-TIMESTAMP followed by the body: every correctly signed request is refused 401',
    ],
    'auth-verify-base64': [
      'P-SIGN-2',
      'AUTH-ACCEPT',
      'the digest is compared in base64, not lower-case hex: every correctly signed request is refused 401',
    ],
    'auth-failure-403': ['P-AUTH-2', 'AUTH-WRONG-SECRET', 'a signature mismatch answers 403 instead of 401'],
    'auth-failure-html': ['P-AUTH-5', 'AUTH-FAILURE-ENVELOPE', 'authentication failures answer an HTML page, not the error envelope'],
    'auth-failure-creates-order': ['P-AUTH-5', 'AUTH-FAILURE-NO-EFFECT', 'a Create Order refused for its signature is stored anyway'],
    'auth-after-parsing': [
      'P-AUTH-6',
      'AUTH-BEFORE-BODY',
      'the body is parsed before the signature is checked: JSON that does not parse answers 400 to anyone',
    ],
  }),
  ...faultsOf('sign', {
    'sign-escaped-slashes': ['P-SIGN-5', 'SIGN-SLASHES', 'the server re-canonicalizes with "/" escaped, refusing bodies with slashes'],
    'sign-ascii-only': ['P-SIGN-5', 'SIGN-NON-ASCII', 'the server re-canonicalizes with non-ASCII as \\u escapes, refusing unicode bodies'],
    'sign-html-escaped': [
      'P-SIGN-5',
      'SIGN-HTML-CHARACTERS',
      'the server re-canonicalizes with < > & escaped, refusing bodies that contain them',
    ],
  }),
  ...faultsOf('env', {
    'env-accept-production-key': [
      'P-ENV-1',
      'ENV-PRODUCTION-KEY',
      "a production key (pk_live_) is served as the same merchant's sandbox account, verified with its sandbox secret",
    ],
    'env-wallet-404': ['P-ENV-2', 'ENV-WALLET-OTHER-ENVIRONMENT', 'a wallet of the other environment answers 404 instead of 403'],
    'env-error-with-data': ['P-ENV-2', 'ENV-WALLET-OTHER-ENVIRONMENT', 'the wrong-environment 403 of Payout Status carries data'],
  }),
  ...faultsOf('errors', {
    'errors-code-mismatch': ['P-ERR-2', 'ERR-CODE-MATCHES-STATUS', 'error bodies always say code 400, whatever the HTTP status'],
    'errors-status-as-text': ['P-ERR-1', 'ERR-ENVELOPE', 'error bodies carry status "false" as text'],
    'errors-code-as-text': ['P-ERR-1', 'ERR-ENVELOPE', 'error bodies carry code as text ("404")'],
    'errors-empty-message': ['P-ERR-1', 'ERR-ENVELOPE', 'error bodies carry an empty message'],
    'errors-text-plain': ['P-ERR-1', 'ERR-CONTENT-TYPE', 'error responses are labelled Content-Type: text/plain'],
    'errors-invalid-json-500': ['P-ERR-4', 'ERR-INVALID-JSON', 'an invalid JSON body answers 500'],
    'errors-missing-field-500': ['P-ERR-3', 'ERR-NO-5XX', 'a Create Order without customer.address answers 500 (a null dereference)'],
    'errors-zero-amount-accepted': ['P-ERR-4', 'ERR-BAD-AMOUNT', 'order_amount zero or negative is accepted'],
    'errors-unknown-currency-accepted': ['P-ERR-4', 'ERR-UNKNOWN-CURRENCY', 'an order_currency outside the table is accepted'],
    'errors-null-field-accepted': ['P-ERR-4', 'ERR-NULL-FIELD', 'a required field set to null is accepted'],
  }),
};
