import { randomBytes } from 'node:crypto';
import type { IdSource } from './check.js';

/** The seed fixes every value; `runNumber` (whole seconds since 2024) keeps a rerun from colliding with
 *  earlier records. Each check draws from its own scope, so its ids do not depend on concurrency. */
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
