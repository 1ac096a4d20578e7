import { SignerError } from './errors.js';

/**
 * The profile's canonical text of a JSON value (P-SIGN-1): object keys sorted at every depth by
 * UTF-16 code units (the default `Array.prototype.sort` order), arrays in order, no whitespace,
 * strings and numbers exactly as `JSON.stringify` writes them (so `/` and non-ASCII stay raw).
 *
 * Object properties whose value is `undefined` are left out, as `JSON.stringify` leaves them out;
 * anything else that is not a JSON value (NaN, Infinity, bigint, functions, Dates, Maps…) throws,
 * because a signature over a silently altered value is worse than an error.
 */
export function canonicalize(value: unknown): string {
  return write(value, '$');
}

function write(value: unknown, path: string): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw notJson(path, String(value));
      // String(-0) is "0", as JSON.stringify writes it.
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return writeArray(value, path);
      if (!isPlainObject(value)) throw notJson(path, describe(value));
      return writeObject(value as Record<string, unknown>, path);
    default:
      throw notJson(path, typeof value);
  }
}

function writeArray(items: readonly unknown[], path: string): string {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) text += ',';
    text += write(items[i], `${path}[${i}]`);
  }
  return text + ']';
}

function writeObject(object: Record<string, unknown>, path: string): string {
  const keys = Object.keys(object).sort();
  let text = '{';
  let first = true;
  for (const key of keys) {
    const member = object[key];
    if (member === undefined) continue;
    if (!first) text += ',';
    first = false;
    text += JSON.stringify(key) + ':' + write(member, `${path}.${key}`);
  }
  return text + '}';
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function describe(value: object): string {
  return value.constructor?.name ?? 'object';
}

function notJson(path: string, what: string): SignerError {
  const hint = what === 'Date' ? ' (send it as text, e.g. date.toISOString())' : '';
  return new SignerError('SVC_NOT_JSON_VALUE', `canonicalize: the value at ${path} is ${what}, not a JSON value${hint}`);
}
