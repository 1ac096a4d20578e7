import { EDGE_FAULTS } from './faults/edges.js';
import { OPERATION_FAULTS } from './faults/operations.js';
import { REQUEST_FAULTS } from './faults/requests.js';
import { WEBHOOK_FAULTS } from './faults/webhooks.js';

/** Every fault, in the order `serve --list-faults` shows them and the proof takes them. */
export const FAULTS = { ...REQUEST_FAULTS, ...OPERATION_FAULTS, ...EDGE_FAULTS, ...WEBHOOK_FAULTS };

export type FaultName = keyof typeof FAULTS;
export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/** Checks names given by a person against a table (faults, scenarios); the error says how to list them. */
export function parseNames<T extends string>(table: Record<T, unknown>, kind: 'fault' | 'scenario', names: Iterable<string>): Set<T> {
  const given = [...names];
  const unknown = given.filter((n) => !Object.hasOwn(table, n));
  if (unknown.length > 0) {
    throw new RangeError(
      `unknown ${kind} ${unknown.map((n) => `"${n}"`).join(', ')}; run \`svc-conformance serve --list-${kind}s\` to see them`,
    );
  }
  return new Set(given as T[]);
}

export const parseFaults = (names: Iterable<string>) => parseNames(FAULTS, 'fault', names);
