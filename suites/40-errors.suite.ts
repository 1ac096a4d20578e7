import { errorChecks } from './checks/errors.js';
import { registerChecks } from './vitest-adapter.js';

registerChecks('Errors', errorChecks);
