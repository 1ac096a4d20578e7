import { EDGE_FAULTS } from './faults/edges.js';
import { OPERATION_FAULTS } from './faults/operations.js';
import { REQUEST_FAULTS } from './faults/requests.js';
import { WEBHOOK_FAULTS } from './faults/webhooks.js';

/** Every fault, in the order `serve --list-faults` shows them and the proof takes them. */
export const FAULTS = { ...REQUEST_FAULTS, ...OPERATION_FAULTS, ...EDGE_FAULTS, ...WEBHOOK_FAULTS };

export type FaultName = keyof typeof FAULTS;
export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/** Checks fault names given by a person; the error lists what exists. */
export function parseFaults(names: readonly string[]): Set<FaultName> {
  const unknown = names.filter((n) => !Object.hasOwn(FAULTS, n));
  if (unknown.length > 0) {
    throw new RangeError(
      `unknown fault ${unknown.map((n) => `"${n}"`).join(', ')}; run \`svc-conformance serve --list-faults\` to see them`,
    );
  }
  return new Set(names as FaultName[]);
}
