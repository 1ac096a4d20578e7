import type { Exchange } from '../core/exchange.js';
import type { CheckResult } from '../core/report.js';

/** What a rule judged from recorded traffic found; a failure names the items its evidence shows. */
export type Outcome<T> =
  | { status: 'passed' }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; message: string; offending: T[]; expected?: string; actual?: string };

/** Offending items a failed result shows as evidence, at most. */
const MAX_EVIDENCE = 6;

/** A requirement's result from the outcome of its rule, each offending item shown as `evidence` makes it. */
export function resultOf<T>(requirement: { id: string; title: string }, outcome: Outcome<T>, evidence: (item: T) => Exchange): CheckResult {
  const meta = { check: requirement.id.toLowerCase(), requirement: requirement.id, title: requirement.title, evidence: [], findings: [] };
  if (outcome.status === 'skipped') return { meta: { ...meta, skipped: outcome.reason }, state: 'skipped', durationMs: 0 };
  if (outcome.status === 'passed') return { meta, state: 'passed', durationMs: 0 };
  const { message, expected, actual, offending } = outcome;
  return {
    meta: {
      ...meta,
      failure: { message, ...(expected ? { expected } : {}), ...(actual ? { actual } : {}) },
      evidence: offending.slice(0, MAX_EVIDENCE).map(evidence),
    },
    state: 'failed',
    durationMs: 0,
  };
}
