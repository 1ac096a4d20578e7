// Copy-on-write edits of plain JSON values by dotted path.

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a dotted path, or undefined when a segment is absent. */
export function getAt(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const key of path.split('.')) {
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
  return edit(value, path.split('.'), (parent, key) => {
    delete parent[key];
  });
}

/** A copy of `value` with the member at `path` set to `replacement`. */
export function withAt<T>(value: T, path: string, replacement: unknown): unknown {
  return edit(value, path.split('.'), (parent, key) => {
    parent[key] = replacement;
  });
}
