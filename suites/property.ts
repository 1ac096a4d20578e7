import fc from 'fast-check';
import { CheckFailure, type CheckContext } from './check.js';

/**
 * Runs a property against the target with the run's seed and number of cases. A failure is shrunk
 * by fast-check to its smallest input, and reported with that input and a reproduce line.
 */
export async function forAll<T>(ctx: CheckContext, requirement: string, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>): Promise<void> {
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      await predicate(value);
    }),
    // Every case runs: each request has its own deadline, so a slow target makes the run slow, not
    // shorter. (A time limit here would pass a property on fewer cases than the report claims.)
    { seed: ctx.seed, numRuns: ctx.runs },
  );
  if (!details.failed) return;
  const reproduce = `svc-conformance run --seed ${ctx.seed} --only ${requirement}`;
  const cause = details.errorInstance;
  if (cause instanceof CheckFailure) {
    throw new CheckFailure(`${cause.message} (smallest failing input after ${details.numShrinks} shrinks)`, {
      ...cause.details,
      counterexample: details.counterexample?.[0],
      reproduce,
    });
  }
  const message = details.counterexample === null ? `the property was interrupted: ${String(cause ?? 'too many skipped cases')}` : `${String((cause as Error)?.message ?? cause)}`;
  throw new CheckFailure(message, { counterexample: details.counterexample?.[0], reproduce });
}
