// The suites' proof, part 2: every fault switch of orders, duplicates, payouts and the profile's
// operations is detected, naming the requirement it breaks. Together with parts 1 and 3 every fault
// of the sandbox is covered (checked below). test/proof.ts says how each row runs.
import { describe, expect, it } from 'vitest';
import { FAULT_NAMES, FAULTS } from '../sandbox/index.js';
import { CONCURRENCIES, DEPTH_AREAS, FIRST_AREAS, printRowsAfterAll, provesFaultsDetected, RECORD_AREAS } from './proof.js';

const REST = FAULT_NAMES.filter((f) => RECORD_AREAS.includes(FAULTS[f].area));

printRowsAfterAll('Conformance proof, part 2 (order, duplicates, payout and operations faults)');

describe('the suites against the reference sandbox', () => {
  it.each(CONCURRENCIES)(
    'detect every fault switch of orders, duplicates, payouts and operations (each at one of the two concurrencies, in turn): those at concurrency %i',
    (concurrency) => provesFaultsDetected(REST, concurrency),
    240_000,
  );

  it('leave no fault out between the three parts, and run none twice', () => {
    // Each part names its areas: a fault of an area no part names (a new one) is caught here.
    const parts = [FIRST_AREAS, RECORD_AREAS, DEPTH_AREAS];
    const placed = FAULT_NAMES.map((f) => [f, parts.filter((areas) => areas.includes(FAULTS[f].area)).length] as const);
    expect(placed.filter(([, n]) => n !== 1)).toEqual([]);
    expect(REST.length).toBeGreaterThan(20);
  });
});
