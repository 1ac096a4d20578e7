import { memo } from '../common/memo.js';
import { isJsonObject, jsonOf } from '../core/json-of.js';
import type { FieldOrder } from '../signer/variants.js';
import { loadSchema, type SchemaId } from './index.js';

/** A schema's properties in the order it documents them: those of the schema it builds on ($ref) first. */
function documentedKeys(id: SchemaId): string[] {
  const schema = loadSchema(id);
  const base = typeof schema.$ref === 'string' ? documentedKeys(schema.$ref.replace(/\.schema\.json$/, '') as SchemaId) : [];
  const own = Object.keys(schema.properties ?? {});
  return [...new Set([...base, ...own])];
}

/** The order a webhook sender builds an event in, as its schemas document it, for diagnose to try on a
 *  sender that signs its own serialization (P-HOOK-2). Undefined for a body that is not a webhook event. */
export function webhookBuiltOrder(body: string): FieldOrder | undefined {
  const event = jsonOf(body);
  if (!isJsonObject(event)) return undefined;
  const { event: name, event_id: id } = event;
  if (typeof name !== 'string' || typeof id !== 'string') return undefined;
  const record: SchemaId | undefined = name.startsWith('payout.')
    ? 'payout-record'
    : name.startsWith('payment.')
      ? 'order-status-record'
      : undefined;
  return { keys: documentedKeys('webhook-event'), ...(record !== undefined ? { fields: { data: { keys: documentedKeys(record) } } } : {}) };
}

export type SchemaNode = { type?: string; required?: string[]; properties?: Record<string, SchemaNode>; anyOf?: SchemaNode[] };

type RequiredField = { path: string; schema: SchemaNode };
const requiredOf = new Map<SchemaId, readonly RequiredField[]>();

/** A request schema's required fields as dotted paths with their own schemas, depth first, parents before children. */
export function requiredFields(id: SchemaId): readonly RequiredField[] {
  const walk = (schema: SchemaNode, prefix: string): RequiredField[] =>
    (schema.required ?? []).flatMap((key) => {
      const field = schema.properties?.[key] ?? {};
      return [{ path: `${prefix}${key}`, schema: field }, ...walk(field, `${prefix}${key}.`)];
    });
  return memo(requiredOf, id, () => walk(loadSchema(id), ''));
}

export const requiredPaths = (id: SchemaId): string[] => requiredFields(id).map((field) => field.path);
