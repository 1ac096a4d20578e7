/** A fault switch breaks exactly one profile rule the way real implementations do, so every check can be
 * shown to fail (`serve --fault NAME`, `startSandbox({ faults })`). */
export interface FaultSpec {
  /** The profile rule the fault breaks. */
  rule: string;
  /** The catalog requirement (suites/catalog.json) a conformance run must report failed. */
  requirement: string;
  area:
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
  description: string;
}
