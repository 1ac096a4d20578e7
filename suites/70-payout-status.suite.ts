import { payoutStatusChecks } from './checks/payouts.js';
import { registerChecks } from './vitest-adapter.js';

registerChecks('Payout Status', payoutStatusChecks);
