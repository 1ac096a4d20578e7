import { authenticationChecks } from './checks/authentication.js';
import { registerChecks } from './vitest-adapter.js';

registerChecks('Authentication', authenticationChecks);
