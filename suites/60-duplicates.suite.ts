import { duplicateChecks } from './checks/duplicates.js';
import { registerChecks } from './vitest-adapter.js';

registerChecks('Duplicates', duplicateChecks);
