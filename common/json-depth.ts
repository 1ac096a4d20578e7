/** Whether a parsed JSON value nests more than `limit` levels deep (the root is 1), walked without
 *  recursion so a deep value is refused before anything recursive overflows the stack on it. */
export function nestedDeeperThan(root: unknown, limit: number): boolean {
  const stack: Array<[value: unknown, depth: number]> = [[root, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [value, depth] = top;
    if (value === null || typeof value !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return false;
}
