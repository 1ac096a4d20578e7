// Small pure helpers over plain JSON values: sorted-key text and copy-on-write edits by dotted path.

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  const sorted: JsonObject = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys(value[key]);
  return sorted;
}

/**
 * Compact JSON with object keys sorted recursively. For the plain values generated here this is the
 * profile's canonical text (P-SIGN-1), which keeps a malformed body's one defect its only difference.
 */
export function sortedJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function segments(path: string): string[] {
  return path.split('.');
}

/** The value at a dotted path, or undefined when a segment is absent. */
export function getAt(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const key of segments(path)) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

function edit(value: unknown, keys: readonly string[], change: (parent: JsonObject, key: string) => void): unknown {
  if (!isObject(value)) throw new Error(`generators: cannot edit inside a non-object at '${keys.join('.')}'`);
  const copy: JsonObject = { ...value };
  const [head, ...rest] = keys;
  if (head === undefined) return copy;
  if (rest.length === 0) change(copy, head);
  else copy[head] = edit(copy[head], rest, change);
  return copy;
}

/** A copy of `value` without the member at `path`; everything else is shared or copied unchanged. */
export function withoutAt<T>(value: T, path: string): unknown {
  return edit(value, segments(path), (parent, key) => {
    delete parent[key];
  });
}

/** A copy of `value` with the member at `path` set to `replacement`. */
export function withAt<T>(value: T, path: string, replacement: unknown): unknown {
  return edit(value, segments(path), (parent, key) => {
    parent[key] = replacement;
  });
}
