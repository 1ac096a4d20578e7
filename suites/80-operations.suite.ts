import { operationChecks } from './checks/operations.js';
import { registerChecks } from './vitest-adapter.js';

registerChecks('Profile operations', operationChecks);
