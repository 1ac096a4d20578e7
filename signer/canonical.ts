import { SignerError } from './errors.js';

/** P-SIGN-1's canonical text: keys sorted by UTF-16 code units, no whitespace, scalars as JSON.stringify
 *  writes them. A non-JSON value throws: a signature over a silently altered value is worse than an error. */
export function canonicalize(value: unknown): string {
  try {
    return write(value, '$');
  } catch (error) {
    // One call per level: a value thousands of levels deep exhausts the stack.
    if (error instanceof RangeError)
      throw new SignerError(
        'SVC_TOO_DEEP',
        'canonicalize: the value nests objects or arrays too deeply (thousands of levels) to be canonicalized',
      );
    throw error;
  }
}

function write(value: unknown, path: string): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw notJson(path, String(value));
    return JSON.stringify(value);
  }
  // Array.from, not map: a hole is undefined, which is refused, not skipped.
  if (Array.isArray(value)) return `[${Array.from(value, (item, i) => write(item, `${path}[${i}]`)).join(',')}]`;
  if (typeof value !== 'object') throw notJson(path, typeof value);
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) throw notJson(path, value.constructor?.name ?? 'object');
  const object = value as Record<string, unknown>;
  const members = Object.keys(object)
    .sort()
    .filter((key) => object[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${write(object[key], `${path}.${key}`)}`);
  return `{${members.join(',')}}`;
}

function notJson(path: string, what: string): SignerError {
  const hint = what === 'Date' ? ' (send it as text, e.g. date.toISOString())' : '';
  return new SignerError('SVC_NOT_JSON_VALUE', `canonicalize: the value at ${path} is ${what}, not a JSON value${hint}`);
}
