// The suites' proof, part 1: against the reference sandbox they pass in every combination of its
// legitimate variants, and they detect every fault switch of authentication, signing, environments
// and errors, naming the requirement it breaks. Part 2 (conformance-proof-records.test.ts) takes the
// rest, so the two run on separate workers. test/proof.ts says how each row runs.
import { describe, it } from 'vitest';
import { FAULT_NAMES, FAULTS } from '../sandbox/index.js';
import { CONCURRENCIES, FIRST_AREAS, printRowsAfterAll, provesFaultsDetected, provesVariantsClean } from './proof.js';

printRowsAfterAll('Conformance proof, part 1 (variants; auth, sign, env and errors faults)');

describe('the suites against the reference sandbox', () => {
  it.each(CONCURRENCIES)(
    'pass (no MUST or SHOULD failure, no kit error, even under --strict) in every variant of the pairwise cover of its legitimate choices (each at one of the two concurrencies, in turn): those at concurrency %i',
    provesVariantsClean,
    120_000,
  );

  it.each(CONCURRENCIES)(
    'detect every fault switch of authentication, signing, environments and errors (each at one of the two concurrencies, in turn): those at concurrency %i',
    (concurrency) =>
      provesFaultsDetected(
        FAULT_NAMES.filter((f) => FIRST_AREAS.includes(FAULTS[f].area)),
        concurrency,
      ),
    240_000,
  );
});
