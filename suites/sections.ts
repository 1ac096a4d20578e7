import type { Check } from './check.js';
import { authEffectChecks } from './checks/auth-effects.js';
import { authenticationChecks } from './checks/authentication.js';
import { duplicateChecks } from './checks/duplicates.js';
import { edgeChecks, longPayoutIdChecks } from './checks/edges.js';
import { environmentChecks } from './checks/environments.js';
import { errorChecks } from './checks/errors.js';
import { modelChecks } from './checks/model.js';
import { operationChecks } from './checks/operations.js';
import { moneyChecks } from './checks/money.js';
import { createOrderChecks } from './checks/orders.js';
import { payoutStatusChecks } from './checks/payouts.js';
import { raceChecks } from './checks/races.js';
import { revisitChecks } from './checks/revisit.js';
import { signatureChecks } from './checks/signature.js';
import { tenantChecks } from './checks/tenants.js';
import { webhookChecks } from './checks/webhooks.js';
import { wireChecks } from './checks/wire.js';

/** A group of checks shown together: the interface's sections, in the order a run takes them. */
export interface Section {
  name: string;
  checks: readonly Check[];
  /** A team's own checks (config "checks"): they start once the kit's have all ended. */
  team?: boolean;
}

/** The kit's own checks, by the interface's sections (P-OPS and webhooks last: they build on orders and payouts). */
export const SECTIONS: readonly Section[] = [
  { name: 'Authentication', checks: [...authenticationChecks, ...authEffectChecks] },
  { name: 'Signature', checks: signatureChecks },
  { name: 'Environments', checks: environmentChecks },
  { name: 'Errors', checks: errorChecks },
  { name: 'Wire', checks: wireChecks },
  { name: 'Edges', checks: edgeChecks },
  { name: 'Create Order', checks: createOrderChecks },
  { name: 'Duplicates', checks: duplicateChecks },
  { name: 'Payout Status', checks: payoutStatusChecks },
  // Wallet first: a check that measures the balance must come before the payouts other checks leave
  // settling, and the races before the other operation checks.
  { name: 'Wallet', checks: moneyChecks },
  { name: 'Profile operations', checks: [...raceChecks, ...operationChecks, ...longPayoutIdChecks] },
  { name: 'Isolation', checks: tenantChecks },
  { name: 'Records over time', checks: [...modelChecks, ...revisitChecks] },
  { name: 'Webhooks', checks: webhookChecks },
];
