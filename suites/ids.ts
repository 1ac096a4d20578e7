import { randomBytes } from 'node:crypto';
import type { IdSource } from './check.js';

/**
 * Identifiers derived from the seed and a per-run number: the seed fixes every generated value, and
 * the run number keeps a rerun against the same long-lived server from colliding with its earlier
 * orders and payouts. `runNumber` is whole seconds since 2024 at the start of the run.
 */
export function idSource(seed: number, runNumber: number, salt = randomBytes(2).toString('hex').toUpperCase()): IdSource {
  // The salt keeps two runs started in the same second (parallel CI jobs, one seed) apart.
  const tag = runNumber.toString(36).toUpperCase() + salt;
  const seedTag = seed.toString(36).toUpperCase();
  let counter = 0;
  const next = () => ++counter;
  return {
    orderId: (hint = 'ORD') => `${hint}-${tag}-${seedTag}-${next()}`,
    payoutOrderId: (hint = 'PO') => `${hint}-${tag}-${seedTag}-${next()}`,
    // Below 2^53: about 1.3e8 seconds of runs times 1e5 ids each.
    integerOrderId: () => runNumber * 100_000 + ((parseInt(salt, 16) * 7 + next()) % 100_000),
    nonce: () => `${tag}-${next()}`,
  };
}

export function runNumberAt(nowMs: number): number {
  return Math.floor((nowMs - Date.UTC(2024, 0, 1)) / 1000);
}
