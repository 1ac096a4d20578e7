/** A fault switch breaks exactly one profile rule the way real implementations do, so every check can be
 * shown to fail (`serve --fault NAME`, `startSandbox({ faults })`). */
export interface FaultSpec<Area extends string = string> {
  /** The profile rule the fault breaks. */
  rule: string;
  /** The catalog requirement (suites/catalog.json) a conformance run must report failed. */
  requirement: string;
  /** The faults file's group: the union of every group named is the type of FAULTS[name].area. */
  area: Area;
  description: string;
}

/** One area's faults, from rows of `name: [rule, requirement, description]`, in order. */
export function faultsOf<A extends string, T extends Record<string, readonly [string, string, string]>>(area: A, rows: T) {
  const specs = Object.entries(rows).map(([name, [rule, requirement, description]]) => [name, { rule, requirement, area, description }]);
  return Object.fromEntries(specs) as Record<keyof T, FaultSpec<A>>;
}
