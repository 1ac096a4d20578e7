// Test support shared by wire.test.ts and edges.test.ts: run a list of checks against a sandbox (a
// variant, or one fault) and say how each ended, so each test reads as a table of expected outcomes.
import type { FaultName } from '../../sandbox/faults.js';
import type { SandboxOptions, SandboxVariant } from '../../sandbox/options.js';
import type { Check } from '../check.js';
import { sandboxTarget } from '../check-test-support.js';
import type { TargetConfig } from '../config.js';

export interface Ended {
  check: string;
  requirement: string;
  outcome: string;
  /** Why it failed or was skipped, for a readable diff when a test breaks. */
  why?: string;
}

export async function runAgainst(
  checks: readonly Check[],
  options: { variant?: Partial<SandboxVariant>; faults?: FaultName[]; record?: NonNullable<SandboxOptions['record']> },
  edit: (config: TargetConfig) => TargetConfig = (c) => c,
): Promise<Ended[]> {
  const target = await sandboxTarget(options, edit, 3);
  try {
    const ended: Ended[] = [];
    for (const check of checks) {
      const { outcome, meta } = await target.run(check);
      const why = meta.failure?.message ?? meta.skipped ?? meta.error?.message;
      ended.push({ check: check.id, requirement: check.requirement, outcome, ...(why !== undefined ? { why } : {}) });
    }
    return ended;
  } finally {
    await target.close();
  }
}

/** Outcomes by check id: what a test compares with its table. */
export function outcomes(ended: readonly Ended[]): Record<string, string> {
  return Object.fromEntries(ended.map((e) => [e.check, e.outcome]));
}
