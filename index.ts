// The library entry point. Each part is also its own entry (svc-conformance/signer, /generators,
// /sandbox, /harness, /checks), so a team that only signs loads only the signer.
export * from './entries/signer.js';
export * from './schemas/types.js';
export {
  validateSchema,
  type SchemaId,
  type SchemaError,
  type ValidationResult,
} from './schemas/index.js';
export * from './entries/generators.js';
export * from './entries/sandbox.js';
export * from './entries/harness.js';
export * from './entries/checks.js';
