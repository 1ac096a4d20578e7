import { signatureChecks } from './checks/signature.js';
import { registerChecks } from './vitest-adapter.js';

registerChecks('Signature', signatureChecks);
