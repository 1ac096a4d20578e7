// The id of the record a request creates: sent again, it is only refused as a duplicate (409, P-DUP-1,
// P-OPS-3), so a reproduce line puts a fresh one in its place.
import { isJsonObject, jsonOf } from './json-of.js';
import { OPERATIONS } from './operations.js';

export interface CreatedId {
  field: 'order_id' | 'payout_order_id';
  /** The value as the body's JSON text wrote it: a quoted string or a number. */
  text: string;
}

/** `"field": value` at any depth; a string value with its escapes, or a number. */
function fieldPattern(field: string): RegExp {
  return new RegExp(`("${field}"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`, 'g');
}

/** The created record's id in a request body, if the body is one of a request that creates a record. */
export function createdIdOf(body: string): CreatedId | undefined {
  const parsed = jsonOf(body);
  if (!isJsonObject(parsed)) return undefined;
  const field =
    'order_id' in parsed && 'order_amount' in parsed
      ? 'order_id'
      : 'payout_order_id' in parsed && 'amount' in parsed
        ? 'payout_order_id'
        : undefined;
  if (field === undefined) return undefined;
  const text = fieldPattern(field).exec(body)?.[2];
  return text === undefined ? undefined : { field, text };
}

/** The id a request changes by naming it (Order Cancel, P-OPS-1): the run already changed that record,
 * so a line sending it again must act on a fresh one. */
export function changedIdOf(request: { url: string; body: string }): CreatedId | undefined {
  if (!URL.canParse(request.url) || !new URL(request.url).pathname.endsWith(OPERATIONS.orderCancel.path)) return undefined;
  const text = fieldPattern('order_id').exec(request.body)?.[2];
  return text === undefined ? undefined : { field: 'order_id', text };
}

/** Whether two ids name the same record: the same field and the same JSON text. */
export function sameId(a: CreatedId | undefined, b: CreatedId | undefined): boolean {
  return a !== undefined && b !== undefined && a.field === b.field && a.text === b.text;
}

/** The literal pieces around each place a fresh id goes (text = pieces[0] + fresh + pieces[1] + …); a string id
 * keeps its text and gains `-<fresh>`, so it still reads as the kit's. */
export function freshIdPieces(text: string, id: CreatedId): string[] {
  const isString = id.text.startsWith('"');
  const pieces = [''];
  let last = 0;
  for (const match of text.matchAll(fieldPattern(id.field))) {
    if (match[2] !== id.text) continue;
    const start = match.index + match[1]!.length;
    pieces[pieces.length - 1] += text.slice(last, start) + (isString ? `${id.text.slice(0, -1)}-` : '');
    pieces.push(isString ? '"' : '');
    last = start + id.text.length;
  }
  pieces[pieces.length - 1] += text.slice(last);
  return pieces;
}
