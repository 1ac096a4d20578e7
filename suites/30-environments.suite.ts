import { environmentChecks } from './checks/environments.js';
import { registerChecks } from './vitest-adapter.js';

registerChecks('Environments', environmentChecks);
