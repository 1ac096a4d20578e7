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
  const parts: string[] = [];
  let written: boolean;
  try {
    written = write(value, parts);
  } catch (error) {
    // The writer recurses once per level: a value thousands of levels deep exhausts the stack.
    if (error instanceof RangeError)
      throw new SignerError(
        'SVC_TOO_DEEP',
        'canonicalize: the value nests objects or arrays too deeply (thousands of levels) to be canonicalized',
      );
    throw error;
  }
  if (!written) throw notJson(value);
  // Joined once, the text comes out in one piece: built by `+=` it would be a tree of pieces, which
  // whatever reads it next (the HMAC, a Map's hash) must first copy into one.
  return parts.join('');
}

// Characters JSON.stringify escapes: quote, backslash, C0 controls, and (lone) surrogates.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : '"' + text + '"';
}

// Payloads of one API reuse a few dozen field names; their quoted form, colon included, is worth remembering.
const quotedKeys = new Map<string, string>();
const MAX_QUOTED_KEYS = 4096;

function keyPart(key: string): string {
  let part = quotedKeys.get(key);
  if (part === undefined) {
    part = quote(key) + ':';
    if (quotedKeys.size >= MAX_QUOTED_KEYS) quotedKeys.clear();
    quotedKeys.set(key, part);
  }
  return part;
}

// The hot path builds no error context: false means "not JSON somewhere below", and canonicalize
// then walks the value once more to say where.
function write(value: unknown, parts: string[]): boolean {
  switch (typeof value) {
    case 'string':
      parts.push(quote(value));
      return true;
    case 'number':
      // String(-0) is "0", as JSON.stringify writes it.
      if (!Number.isFinite(value)) return false;
      parts.push(String(value));
      return true;
    case 'boolean':
      parts.push(value ? 'true' : 'false');
      return true;
    case 'object': {
      if (value === null) {
        parts.push('null');
        return true;
      }
      if (Array.isArray(value)) return writeArray(value, parts);
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      return writeObject(value as Record<string, unknown>, parts);
    }
    default:
      return false;
  }
}

function writeArray(items: readonly unknown[], parts: string[]): boolean {
  parts.push('[');
  for (let i = 0; i < items.length; i++) {
    if (i > 0) parts.push(',');
    if (!write(items[i], parts)) return false;
  }
  parts.push(']');
  return true;
}

/** Few enough keys for an insertion sort, which beats the general sort on the handful a payload object has. */
const FEW_KEYS = 16;

/** The object's own keys in UTF-16 code unit order (what `<` on strings and the default sort compare). */
function sortedKeys(object: Record<string, unknown>): string[] {
  const keys = Object.keys(object);
  if (keys.length > FEW_KEYS) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

function writeObject(object: Record<string, unknown>, parts: string[]): boolean {
  const keys = sortedKeys(object);
  let first = true;
  parts.push('{');
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const member = object[key];
    if (member === undefined) continue;
    if (!first) parts.push(',');
    first = false;
    parts.push(keyPart(key));
    if (!write(member, parts)) return false;
  }
  parts.push('}');
  return true;
}

/** Finds the first non-JSON value below `root` and names it with its path. */
function notJson(root: unknown): SignerError {
  const find = (value: unknown, path: string): [string, string] | undefined => {
    if (value !== null && typeof value === 'object') {
      const proto = Object.getPrototypeOf(value) as unknown;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const found = find(value[i], `${path}[${i}]`);
          if (found) return found;
        }
        return undefined;
      }
      if (proto !== Object.prototype && proto !== null) return [path, value.constructor?.name ?? 'object'];
      for (const key of Object.keys(value).sort()) {
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined) continue;
        const found = find(member, `${path}.${key}`);
        if (found) return found;
      }
      return undefined;
    }
    if (typeof value === 'number' && !Number.isFinite(value)) return [path, String(value)];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) return undefined;
    return [path, typeof value];
  };
  const [path, what] = find(root, '$') ?? ['$', 'not a JSON value'];
  const hint = what === 'Date' ? ' (send it as text, e.g. date.toISOString())' : '';
  return new SignerError('SVC_NOT_JSON_VALUE', `canonicalize: the value at ${path} is ${what}, not a JSON value${hint}`);
}
