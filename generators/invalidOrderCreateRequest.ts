// Create Order requests with one labelled defect (P-ERR-4, P-ORDER-1): a valid order from
// orderCreateRequest, then one mutation of it.
import fc from 'fast-check';
import { underApiName } from './_internal/constraints.js';
import { applicableDefects, checkDefects, invalidVariantsOf } from './_internal/mutations.js';
import { ORDER_CREATE_SHAPE } from './_internal/requestShapes.js';
import type { DefectKind, InvalidRequest } from './invalidRequest.js';
import { orderCreateRequest, type OrderCreateRequestConstraints } from './orderCreateRequest.js';

export interface InvalidOrderCreateRequestConstraints extends OrderCreateRequestConstraints {
  /** Defect kinds to draw from. Default: every kind that applies to Create Order. */
  defects?: readonly DefectKind[];
}

const API = 'invalidOrderCreateRequest';

export function invalidOrderCreateRequest(constraints: InvalidOrderCreateRequestConstraints = {}): fc.Arbitrary<InvalidRequest> {
  const { defects, ...orderConstraints } = constraints;
  const kinds = checkDefects(API, defects, applicableDefects(ORDER_CREATE_SHAPE));
  const valid = underApiName(API, () => orderCreateRequest(orderConstraints));
  return valid.chain((order) => invalidVariantsOf(order, ORDER_CREATE_SHAPE, kinds));
}
