// Checks that a labelled invalid request fails for its label's reason and differs only there. Apart
// from the mutation code (own path handling), so the generators' properties do not grade themselves.
import { isDeepStrictEqual } from 'node:util';
import { jsonOf } from '../../core/json-of.js';
import { describeErrors, validateSchema, type SchemaError, type SchemaId } from '../../schemas/index.js';
import type { InvalidRequest } from '../invalidRequest.js';

function pointerOf(path: string): string {
  return `/${path.split('.').join('/')}`;
}

function parentAndLeaf(path: string): { parent: string; leaf: string } {
  const keys = path.split('.');
  const leaf = keys.pop() ?? '';
  return { parent: keys.length === 0 ? '' : `/${keys.join('/')}`, leaf };
}

/** Fields whose schema is a bare `enum`, so a null or mistyped value fails `enum`, not `type`. */
const ENUM_FIELDS = new Set(['order_currency', 'currency', 'transfer_mode']);

function explained(errors: readonly SchemaError[], match: (error: SchemaError) => boolean, want: string): string | undefined {
  return errors.some(match) ? undefined : `no schema error ${want}; errors were:\n${describeErrors([...errors])}`;
}

/** Undefined when `request` breaks schema `id` for its label's reason (text bodies: by JSON.parse), else why not. */
export function labelledReasonProblem(request: InvalidRequest, id: SchemaId): string | undefined {
  const { defect, body, field } = request;
  if (defect === 'invalid-json')
    return body.kind === 'text' && jsonOf(body.text) === undefined ? undefined : 'invalid-json body parses as JSON';
  if (defect === 'empty-body') return body.kind === 'text' && body.text === '' ? undefined : 'empty-body body is not ""';
  if (body.kind !== 'json') return `${defect} should carry a JSON body`;
  const result = validateSchema(id, body.value);
  if (result.valid) return `${defect} body satisfies the schema`;
  const errors = result.errors;
  if (defect === 'top-level-array' || defect === 'top-level-scalar') {
    const shapeOk = defect === 'top-level-array' ? Array.isArray(body.value) : body.value === null || typeof body.value !== 'object';
    if (!shapeOk) return `${defect} body has the wrong shape`;
    return explained(errors, (e) => e.keyword === 'type' && e.instancePath === '', 'of keyword type at the root');
  }
  if (field === undefined) return `${defect} names no field`;
  const pointer = pointerOf(field);
  const atField = (keywords: string[]) =>
    explained(errors, (e) => keywords.includes(e.keyword) && e.instancePath === pointer, `of keyword ${keywords.join('/')} at ${pointer}`);
  switch (defect) {
    case 'missing-field': {
      const { parent, leaf } = parentAndLeaf(field);
      return explained(
        errors,
        (e) => e.keyword === 'required' && e.instancePath === parent && e.params.missingProperty === leaf,
        `'required' of ${leaf} at '${parent}'`,
      );
    }
    case 'null-field':
    case 'wrong-type':
      return atField(ENUM_FIELDS.has(field) ? ['type', 'anyOf', 'oneOf', 'enum'] : ['type', 'anyOf', 'oneOf']);
    case 'bad-amount':
      return atField(['type', 'exclusiveMinimum', 'pattern', 'anyOf']);
    case 'unknown-currency':
    case 'unknown-transfer-mode':
      return atField(['enum']);
  }
}

function lookup(value: unknown, keys: readonly string[]): { found: boolean; value: unknown } {
  let node = value;
  for (const key of keys) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return { found: false, value: undefined };
    node = (node as Record<string, unknown>)[key];
  }
  return { found: true, value: node };
}

function dropped(value: unknown, keys: readonly string[]): unknown {
  const copy = structuredClone(value);
  let node = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  delete node[keys[keys.length - 1] ?? ''];
  return copy;
}

/** Undefined when `request` changes `original` only in the labelled field, as the label says; else what differs. */
export function extraChangeProblem(original: unknown, request: InvalidRequest): string | undefined {
  const { defect, body, field } = request;
  if (field === undefined || body.kind !== 'json') return undefined;
  const keys = field.split('.');
  const before = lookup(original, keys);
  const after = lookup(body.value, keys);
  if (!before.found) return `the original has no field ${field}`;
  if (!isDeepStrictEqual(dropped(body.value, keys), dropped(original, keys))) return `${defect} changed more than ${field}`;
  if (defect === 'missing-field') return after.found ? `${field} is still present` : undefined;
  if (!after.found) return `${field} was removed by ${defect}`;
  if (defect === 'null-field') return after.value === null ? undefined : `${field} is not null`;
  return isDeepStrictEqual(after.value, before.value) ? `${field} is unchanged` : undefined;
}
