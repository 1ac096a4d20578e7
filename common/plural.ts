/** A count with its noun, singular for one: "1 requirement", "2 requirements", "1 delivery" (with `many`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
