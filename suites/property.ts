import { fc } from '../common/fast-check.js';
import { CheckFailure, isCheckFailure, type CheckContext } from './check.js';

/**
 * Runs a property against the target with the run's seed and number of cases. A failure is shrunk
 * by fast-check to its smallest input and reported with that input, fast-check's path to it, and a
 * command that replays exactly that case (seed + path, as fast-check users replay a counterexample).
 * An exception that is not a CheckFailure is the kit's own and is passed on as it is.
 *
 * Every case is sent first, side by side within the run's concurrency (one at a time at
 * concurrency 1); only when one fails does fast-check go over them again in order, from the answers
 * already in hand, and shrink the first failing one, a request at a time. So the requests, the
 * verdict and the counterexample are the same at any concurrency. A case generated again (an empty
 * body, say) is judged by its first answer and not sent twice: the same request could only get the
 * same verdict, and sending it again would wait for a fresh timestamp (a (timestamp, signature)
 * pair is never reused).
 */
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

/** The predicate, run once per distinct case: a case seen again gets the first run's outcome. */
function judgedOnce<T>(predicate: (value: T) => Promise<void>): (value: T) => Promise<void> {
  const outcomes = new Map<string, Promise<void>>();
  return (value) => {
    const key = caseKey(value);
    let outcome = outcomes.get(key);
    if (outcome === undefined) {
      outcome = predicate(value);
      // Kept as it settles; a rejection is handled by whoever awaits it.
      outcome.catch(() => {});
      outcomes.set(key, outcome);
    }
    return outcome;
  };
}

/**
 * A case's identity: its JSON text when it is plain JSON data (the usual case, and several times
 * cheaper to write), else fast-check's printing of it. The prefixes keep the two apart. Values
 * that JSON writes alike but are not alike (-0, NaN, undefined, holes, objects of a class) take
 * fast-check's printing, which tells them apart.
 */
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
      if (Array.isArray(value)) {
        if (Object.keys(value).length !== value.length) return false;
        return value.every((item) => isPlainJson(item, depth + 1));
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const item of Object.values(value)) if (!isPlainJson(item, depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}
