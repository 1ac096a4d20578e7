// The checks of two areas, as their test files and the variant matrices (test/check-variants.test.ts)
// judge them against the reference sandbox.
import type { SandboxVariant } from '../../sandbox/options.js';
import type { Check } from '../check.js';
import type { TargetConfig } from '../config.js';
import { authEffectChecks } from './auth-effects.js';
import { authenticationChecks } from './authentication.js';
import { duplicateChecks } from './duplicates.js';
import { edgeChecks } from './edges.js';
import { environmentChecks } from './environments.js';
import { errorChecks } from './errors.js';
import { modelChecks } from './model.js';
import { operationChecks } from './operations.js';
import { createOrderChecks } from './orders.js';
import { payoutStatusChecks } from './payouts.js';
import { raceChecks } from './races.js';
import { revisitChecks } from './revisit.js';
import { signatureChecks } from './signature.js';

/**
 * Authentication, Signature, Environments and Errors. ERR-NO-5XX over the text edges is checked among
 * the edges (checks/edges.ts); its faults are of this area.
 */
export const AUTH_AREA_CHECKS: readonly Check[] = [
  ...authenticationChecks,
  ...authEffectChecks,
  ...signatureChecks,
  ...environmentChecks,
  ...errorChecks,
  ...edgeChecks.filter((c) => c.requirement === 'ERR-NO-5XX'),
];

/**
 * Create Order, Duplicates, Payout Status and Profile operations. DUP-EXACT-IDS is checked among the
 * edges (checks/edges.ts), with the identifier edges it rests on; DUP-PERMANENT by the model
 * (checks/model.ts), over sequences that end a record before its id is used again, and by the
 * revisit (checks/revisit.ts), last, once what the others wrote is old.
 */
export const ORDER_AREA_CHECKS: readonly Check[] = [
  ...createOrderChecks,
  ...duplicateChecks,
  ...payoutStatusChecks,
  ...operationChecks,
  ...raceChecks,
  ...edgeChecks.filter((c) => c.requirement.startsWith('DUP-')),
  ...modelChecks.filter((c) => c.requirement.startsWith('DUP-')),
  ...revisitChecks.filter((c) => c.requirement.startsWith('DUP-')),
];

export function variantName(v: SandboxVariant): string {
  return `create ${v.createStatus}, verify ${v.verify}, replay ${v.replay}, window ${v.toleranceSeconds} s`;
}

/** The config of a sandbox with this timestamp window, as its deployment would say it. */
export function withWindow(seconds: number): (config: TargetConfig) => TargetConfig {
  return (config) => ({ ...config, profile: { ...config.profile, timestampToleranceSeconds: seconds } });
}
