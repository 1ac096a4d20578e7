// Create Order requests with one labelled defect (P-ERR-4, P-ORDER-1): a valid order from orderCreateRequest, then one mutation of it.
import type fc from 'fast-check';
import { invalidRequestOf } from './_internal/invalidRequestOf.js';
import { ORDER_CREATE_SHAPE } from './_internal/requestShapes.js';
import type { DefectConstraints, InvalidRequest } from './invalidRequest.js';
import { orderCreateRequest, type OrderCreateRequestConstraints } from './orderCreateRequest.js';

/** A valid order's constraints, and the defect kinds to draw from (default: every kind that applies to Create Order). */
export type InvalidOrderCreateRequestConstraints = OrderCreateRequestConstraints & DefectConstraints;

export function invalidOrderCreateRequest(constraints: InvalidOrderCreateRequestConstraints = {}): fc.Arbitrary<InvalidRequest> {
  return invalidRequestOf('invalidOrderCreateRequest', ORDER_CREATE_SHAPE, orderCreateRequest, constraints);
}
