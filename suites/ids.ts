import { randomBytes } from 'node:crypto';
import type { IdSource } from './check.js';

/**
 * Identifiers derived from the seed and a per-run number: the seed fixes every generated value, and
 * the run number keeps a rerun against the same long-lived server from colliding with its earlier
 * orders and payouts. `runNumber` is whole seconds since 2024 at the start of the run.
 *
 * Each check draws from its own scope (its place in the run's list of checks), so the ids a check
 * sends do not depend on which other checks ran before it or beside it: a run's requests are the
 * same for a seed whatever the concurrency.
 */
export function idSource(seed: number, runNumber: number, salt = runSalt(), scope = 0): IdSource {
  // The salt keeps two runs started in the same second (parallel CI jobs, one seed) apart.
  const tag = runTag(runNumber, salt);
  const seedTag = seed.toString(36).toUpperCase();
  const scopeTag = scope.toString(36).toUpperCase();
  let counter = 0;
  const next = () => ++counter;
  return {
    orderId: (hint = 'ORD') => `${hint}-${tag}-${seedTag}-${scopeTag}-${next()}`,
    payoutOrderId: (hint = 'PO') => `${hint}-${tag}-${seedTag}-${scopeTag}-${next()}`,
    // Below 2^53: about 1.3e8 seconds of runs times 1e5 ids each; a scope has 1000 of them.
    integerOrderId: () => runNumber * 100_000 + ((parseInt(salt, 16) * 7 + scope * 1000 + next()) % 100_000),
    nonce: () => `${tag}-${scopeTag}-${next()}`,
  };
}

/** The part of every text id that is this run's own: no other run's request carries it. */
export function runTag(runNumber: number, salt: string): string {
  return runNumber.toString(36).toUpperCase() + salt;
}

/** Four hex digits, fresh for each run. */
export function runSalt(): string {
  return randomBytes(2).toString('hex').toUpperCase();
}
