type Area =
  | 'auth'
  | 'sign'
  | 'env'
  | 'errors'
  | 'order'
  | 'duplicates'
  | 'payout'
  | 'operations'
  | 'webhooks'
  | 'wire'
  | 'edges'
  | 'money'
  | 'tenants'
  | 'state';

/** A fault switch breaks exactly one profile rule the way real implementations do, so every check can be
 * shown to fail (`serve --fault NAME`, `startSandbox({ faults })`). */
export interface FaultSpec {
  /** The profile rule the fault breaks. */
  rule: string;
  /** The catalog requirement (suites/catalog.json) a conformance run must report failed. */
  requirement: string;
  area: Area;
  description: string;
}

/** One area's faults, from rows of `name: [rule, requirement, description]`, in order. */
export function faultsOf<T extends Record<string, readonly [string, string, string]>>(area: Area, rows: T): Record<keyof T, FaultSpec> {
  const specs = Object.entries(rows).map(([name, [rule, requirement, description]]) => [name, { rule, requirement, area, description }]);
  return Object.fromEntries(specs) as Record<keyof T, FaultSpec>;
}
