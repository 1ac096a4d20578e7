/**
 * Whether a parsed JSON value nests objects or arrays more than `limit` levels deep (the root is
 * level 1), walked without recursion: the callers use it to refuse a deep value before anything
 * recursive (a copy, a schema, a canonicalizer) can overflow the stack on it.
 */
export function nestedDeeperThan(root: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[root, 1]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
  return false;
}
