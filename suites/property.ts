import fc from 'fast-check';
import { CheckFailure, isCheckFailure, type CheckContext } from './check.js';

/**
 * Runs a property against the target with the run's seed and number of cases. A failure is shrunk
 * by fast-check to its smallest input and reported with that input, fast-check's path to it, and a
 * command that replays exactly that case (seed + path, as fast-check users replay a counterexample).
 * An exception that is not a CheckFailure is the kit's own and is passed on as it is.
 */
export async function forAll<T>(ctx: CheckContext, requirement: string, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>): Promise<void> {
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      await predicate(value);
    }),
    // Every case runs: each request has its own deadline, so a slow target makes the run slow, not
    // shorter. (A time limit here would pass a property on fewer cases than the report claims.)
    { seed: ctx.seed, numRuns: ctx.runs, ...(ctx.replayPath !== undefined ? { path: ctx.replayPath } : {}) },
  );
  if (!details.failed) return;
  const cause = details.errorInstance;
  if (details.counterexample !== null && !isCheckFailure(cause)) throw cause;
  const path = details.counterexamplePath ?? undefined;
  const reproduce = `svc-conformance run --seed ${ctx.seed} --only ${ctx.checkId}${path ? ` --replay-path ${path}` : ''}`;
  const found = ctx.replayPath !== undefined ? `(the case at path ${ctx.replayPath}, replayed)` : `(smallest failing input after ${details.numShrinks} shrinks, path ${path ?? 'unknown'})`;
  if (isCheckFailure(cause)) {
    throw new CheckFailure(`${cause.message} ${found}`, { ...cause.details, counterexample: details.counterexample?.[0], reproduce, ...(path ? { replayPath: path } : {}) });
  }
  throw new CheckFailure(`the property was interrupted: ${String(cause ?? 'too many skipped cases')} (${requirement})`, { reproduce });
}
