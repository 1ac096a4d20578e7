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
  let text: string | undefined;
  try {
    text = write(value);
  } catch (error) {
    // The writer recurses once per level: a value thousands of levels deep exhausts the stack.
    if (error instanceof RangeError)
      throw new SignerError(
        'SVC_TOO_DEEP',
        'canonicalize: the value nests objects or arrays too deeply (thousands of levels) to be canonicalized',
      );
    throw error;
  }
  if (text === undefined) throw notJson(value);
  return text;
}

// Characters JSON.stringify escapes: quote, backslash, C0 controls, and (lone) surrogates.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : '"' + text + '"';
}

// Payloads of one API reuse a few dozen field names; their quoted form is worth remembering.
const quotedKeys = new Map<string, string>();
const MAX_QUOTED_KEYS = 4096;

function quoteKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = quote(key);
    if (quotedKeys.size >= MAX_QUOTED_KEYS) quotedKeys.clear();
    quotedKeys.set(key, quoted);
  }
  return quoted;
}

// The hot path builds no error context: `undefined` means "not JSON somewhere below", and
// canonicalize then walks the value once more to say where.
function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      // String(-0) is "0", as JSON.stringify writes it.
      return Number.isFinite(value) ? String(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return writeArray(value);
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return undefined;
      return writeObject(value as Record<string, unknown>);
    }
    default:
      return undefined;
  }
}

function writeArray(items: readonly unknown[]): string | undefined {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    const item = write(items[i]);
    if (item === undefined) return undefined;
    text += i === 0 ? item : ',' + item;
  }
  return text + ']';
}

function writeObject(object: Record<string, unknown>): string | undefined {
  const keys = Object.keys(object).sort();
  let text = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const member = object[key];
    if (member === undefined) continue;
    const written = write(member);
    if (written === undefined) return undefined;
    text += (text.length === 1 ? '' : ',') + quoteKey(key) + ':' + written;
  }
  return text + '}';
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
