// The suites' proof, part 3: every fault switch of the rules profile v1.2 adds (the wire, the edges
// of amounts, identifiers and text, the wallet, isolation, races and records over time) is detected,
// naming the requirement it breaks. Parts 1 and 2 take the others; test/proof.ts says how each row runs.
import { describe, expect, it } from 'vitest';
import { FAULT_NAMES, FAULTS } from '../sandbox/index.js';
import { CONCURRENCIES, DEPTH_AREAS, printRowsAfterAll, provesFaultsDetected } from './proof.js';

const DEPTH = FAULT_NAMES.filter((f) => DEPTH_AREAS.includes(FAULTS[f].area));

printRowsAfterAll('Conformance proof, part 3 (wire, edges, wallet, isolation and state faults)');

describe('the suites against the reference sandbox', () => {
  it.each(CONCURRENCIES)(
    'detect every fault switch of the wire, the edges, the wallet, isolation and records over time (each at one of the two concurrencies, in turn): those at concurrency %i',
    (concurrency) => provesFaultsDetected(DEPTH, concurrency),
    240_000,
  );

  it('has a fault for each of those areas', () => {
    expect(DEPTH_AREAS.filter((area) => !DEPTH.some((f) => FAULTS[f].area === area))).toEqual([]);
  });
});
