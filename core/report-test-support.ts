// Catalog entries and check results as tests of the verdict and its report forms build them.
import type { CheckResult, Requirement } from './report.js';

export function requirementOf(id: string, level: Requirement['level'] = 'MUST', extra: Partial<Requirement> = {}): Requirement {
  return { id, title: `${id} holds`, level, section: 'Section', profile: ['P-OPS-1'], extension: false, ...extra };
}

/** A result of `state`; a failed one carries the message "<id> broke". */
export function resultOf(id: string, state: CheckResult['state'], meta: Partial<CheckResult['meta']> = {}): CheckResult {
  return {
    meta: {
      check: id.toLowerCase(),
      requirement: id,
      title: id,
      evidence: [],
      findings: [],
      ...(state === 'failed' ? { failure: { message: `${id} broke` } } : {}),
      ...meta,
    },
    state,
    durationMs: 1,
  };
}
