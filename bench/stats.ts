// How the benches report a figure: measured several times in the same run, shown as min, median and
// max, with a mark for its target where it has one.

/** Runs `measure` `times` times, one after another; returns the values sorted. */
export async function repeat(times: number, measure: () => Promise<number> | number): Promise<number[]> {
  const values: number[] = [];
  for (let i = 0; i < times; i++) values.push(await measure());
  return values.sort((a, b) => a - b);
}

function median(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** What a figure aims at: said after it, marked by whether its median meets it. */
export type Target = { text: string; met: (median: number) => boolean };

/** One line: the figure's name, its min, median and max, and whether the median meets its target. */
export function figure(name: string, sorted: readonly number[], unit: string, target?: Target, digits = 2): string {
  const m = median(sorted);
  const values = `min ${sorted[0]!.toFixed(digits)}${unit}  median ${m.toFixed(digits)}${unit}  max ${sorted[sorted.length - 1]!.toFixed(digits)}${unit}`;
  const mark = target === undefined ? '' : `   ${target.met(m) ? '✓' : '✗'} target ${target.text}`;
  return `${name.padEnd(58)} ${values.padEnd(46)}${mark}`;
}
