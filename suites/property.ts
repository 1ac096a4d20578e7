import { fc } from '../common/fast-check.js';
import { CheckFailure, isCheckFailure, type CheckContext } from './check.js';

/** Every case is sent first, side by side; fast-check then judges them in order from the answers and
 *  shrinks the first failure a request at a time, so the verdict is the same at any concurrency. */
export async function forAll<T>(
  ctx: CheckContext,
  requirement: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
): Promise<void> {
  const judge = judgedOnce(predicate);
  if (ctx.replayPath === undefined) {
    const cases = fc.sample(arbitrary, { seed: ctx.seed, numRuns: ctx.runs });
    const failures = await ctx.sweep(cases, async (value) =>
      judge(value).then(
        () => false,
        () => true,
      ),
    );
    if (!failures.includes(true)) return;
  }
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      await judge(value);
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
  const found =
    ctx.replayPath !== undefined
      ? `(the case at path ${ctx.replayPath}, replayed)`
      : `(smallest failing input after ${details.numShrinks} shrinks, path ${path ?? 'unknown'})`;
  if (isCheckFailure(cause)) {
    throw new CheckFailure(`${cause.message} ${found}`, {
      ...cause.details,
      counterexample: details.counterexample?.[0],
      reproduce,
      ...(path ? { replayPath: path } : {}),
    });
  }
  // With no counterexample, fast-check either gave up on skipped cases (no error) or was stopped by one.
  const why = cause instanceof Error ? cause.message : 'too many skipped cases';
  throw new CheckFailure(`the property was interrupted: ${why} (${requirement})`, { reproduce });
}

/** A case seen again gets the first outcome: resending the same request could only get the same
 *  verdict, after waiting for a fresh timestamp. */
function judgedOnce<T>(predicate: (value: T) => Promise<void>): (value: T) => Promise<void> {
  const outcomes = new Map<string, Promise<void>>();
  return (value) => {
    const key = caseKey(value);
    let outcome = outcomes.get(key);
    if (outcome === undefined) {
      outcome = predicate(value);
      // Not an unhandled rejection: whoever awaits it handles it.
      outcome.catch(() => {});
      outcomes.set(key, outcome);
    }
    return outcome;
  };
}

/** JSON text for plain data (cheaper), else fast-check's printing, which tells apart what JSON writes
 *  alike (-0, NaN, undefined, holes); the prefixes keep the two apart. */
function caseKey(value: unknown): string {
  return isPlainJson(value, 0) ? `j${JSON.stringify(value)}` : `f${fc.stringify(value)}`;
}

function isPlainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (depth > 100 || Object.getOwnPropertySymbols(value).length > 0) return false;
      if (Array.isArray(value)) return Object.keys(value).length === value.length && value.every((item) => isPlainJson(item, depth + 1));
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      return Object.values(value).every((item) => isPlainJson(item, depth + 1));
    }
    default:
      return false;
  }
}
