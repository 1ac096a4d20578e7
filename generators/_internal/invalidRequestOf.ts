// The one way a labelled invalid request is built (P-ERR-4): a valid request from its kind's own
// generator, then one defect drawn from those that apply to the kind's shape.
import type fc from 'fast-check';
import type { DefectConstraints, InvalidRequest } from '../invalidRequest.js';
import { underApiName } from './constraints.js';
import { applicableDefects, checkDefects, invalidVariantsOf, type RequestShape } from './mutations.js';

export function invalidRequestOf<C extends object, T extends object>(
  api: string,
  shape: RequestShape,
  validRequest: (constraints: C) => fc.Arbitrary<T>,
  constraints: C & DefectConstraints,
): fc.Arbitrary<InvalidRequest> {
  const { defects, ...rest } = constraints;
  const kinds = checkDefects(api, defects, applicableDefects(shape));
  const valid = underApiName(api, () => validRequest(rest as C));
  return valid.chain((request) => invalidVariantsOf(request, shape, kinds));
}
