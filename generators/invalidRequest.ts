// The labelled invalid requests of P-ERR-4: each is a valid request with exactly one defect, the
// defect named, described and paired with the statuses the profile allows for it.

export const DEFECT_KINDS = [
  'missing-field',
  'null-field',
  'wrong-type',
  'bad-amount',
  'unknown-currency',
  'invalid-json',
  'empty-body',
  'top-level-array',
  'top-level-scalar',
  'unknown-transfer-mode',
] as const;

export type DefectKind = (typeof DEFECT_KINDS)[number];

/** What to send: a JSON value (the HTTP layer serializes it canonically and signs that), or raw text
 *  for bodies that are not JSON at all (signed as they are, P-ERR-4's last paragraph). */
export type RequestBody = { kind: 'json'; value: unknown } | { kind: 'text'; text: string };

export interface InvalidRequest {
  defect: DefectKind;
  /** Dotted path of the defective field, e.g. 'customer.address.city'; absent for whole-body defects. */
  field?: string;
  /** One sentence naming the defect, e.g. "required field customer.address.city is missing". */
  description: string;
  /** Statuses P-ERR-4 (and P-PAYOUT-5, P-OPS-3) allow for this defect. */
  expectedStatuses: readonly number[];
  body: RequestBody;
}

/** P-ERR-4: structural defects, missing / null / mistyped fields, unknown transfer mode. */
export const BAD_REQUEST: readonly number[] = Object.freeze([400]);

/** P-ERR-4: a bad `order_amount` or unknown currency answers 400 or 422; so do a null or mistyped amount
 *  and currency, which both the amount/currency rows and the "wrong type" row cover. */
export const BAD_REQUEST_OR_UNPROCESSABLE: readonly number[] = Object.freeze([400, 422]);

/** The constraint every invalid-request generator adds to its valid generator's. */
export interface DefectConstraints {
  /** Defect kinds to draw from. Default: every kind that applies to the request kind. */
  defects?: readonly DefectKind[];
}
