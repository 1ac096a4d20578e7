/**
 * Whether a parsed JSON value nests objects or arrays more than `limit` levels deep (the root is
 * level 1), walked without recursion: the callers use it to refuse a deep value before anything
 * recursive (a copy, a schema, a canonicalizer) can overflow the stack on it.
 */
export function nestedDeeperThan(root: unknown, limit: number): boolean {
  // Two stacks side by side, not a pair per value: it runs on every request the sandbox answers.
  const values: unknown[] = [root];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(value)) {
      // A scalar needs no visit of its own.
      if (child === null || typeof child !== 'object') continue;
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}
