// Rules every answer of the interface follows, shared by the suites, the client judge and the sandbox.
import { isJsonObject } from './json-of.js';

/** P-ERR-1 / P-AUTH-1: a JSON content type, parameters such as charset allowed. */
export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && /^application\/json\s*(;|$)/i.test(value);
}

/** A header that is not what a rule wants, said plainly: "no Accept header", never "Accept is null". */
export function headerIsNot(name: string, value: string | undefined, wanted: string): string {
  return value === undefined ? `no ${name} header (${wanted} wanted)` : `${name} is ${JSON.stringify(value)}, not ${wanted}`;
}

/** What is wrong with an error envelope `{ status: false, code: <integer>, message: <text> }` (P-ERR-2), or [] when nothing is. */
export function envelopeProblems(body: unknown): string[] {
  if (body === undefined) return ['the body is not JSON'];
  if (!isJsonObject(body)) return ['the body is not a JSON object'];
  const problems: string[] = [];
  if (body.status !== false) problems.push(`status is ${JSON.stringify(body.status)}, not false`);
  if (!Number.isInteger(body.code)) problems.push(`code is ${JSON.stringify(body.code)}, not an integer`);
  if (typeof body.message !== 'string' || body.message === '')
    problems.push(`message is ${JSON.stringify(body.message)}, not a non-empty string`);
  return problems;
}

/** Reads a value at a dotted path ("merchant.apiKey"); undefined where the path leaves the object. */
export function getPath(root: unknown, path: string): unknown {
  let node: unknown = root;
  for (const part of path.split('.'))
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return node;
}

/** Sets a value at a dotted path, making the objects on the way. */
export function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = root;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    node = (next !== null && typeof next === 'object' ? next : (node[part] = {})) as Record<string, unknown>;
  }
  node[parts[parts.length - 1]!] = value;
}

/** A deep copy of `root` with the value at a dotted path set, or removed when `value` is undefined; objects on the way are made when setting. */
export function withPath<T>(root: T, path: string, value: unknown): T {
  const copy = structuredClone(root) as Record<string, unknown>;
  if (value !== undefined) {
    setPath(copy, path, value);
    return copy as T;
  }
  const parts = path.split('.');
  const holder = parts.length === 1 ? copy : getPath(copy, parts.slice(0, -1).join('.'));
  if (holder !== null && typeof holder === 'object') delete (holder as Record<string, unknown>)[parts[parts.length - 1]!];
  return copy as T;
}
