// The library entry point: what a team imports to use the kit's pieces in its own tests.
export { canonicalize } from './signer/canonical.js';
export { signPayload, signText, timestampText, type SignInput, type Signed } from './signer/sign.js';
export {
  verifyRequest,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyInput,
  type VerifyResult,
  type VerifyFailure,
  type VerifyMode,
} from './signer/verify.js';
export { SignerError, type SignerErrorCode } from './signer/errors.js';
export {
  diagnose,
  DiagnoseInputError,
  type Diagnosis,
  type DiagnosisDetail,
  type DiagnoseInput,
  type Divergence,
} from './signer/diagnose.js';
export { formatDiagnosis } from './signer/diagnose-report.js';
export { VARIANTS, type VariantId } from './signer/variants.js';
export { parseCapturedRequest, authHeaders, headerValue, CaptureError, type CapturedRequest } from './signer/capture.js';
export * from './schemas/types.js';
export {
  validateSchema,
  isValid,
  loadSchema,
  describeErrors,
  schemaIds,
  type SchemaId,
  type SchemaError,
  type ValidationResult,
} from './schemas/index.js';
export * from './generators/index.js';
export {
  startSandbox,
  createSandbox,
  SANDBOX_FIXTURES,
  OPERATION_PATHS,
  FAULTS,
  FAULT_NAMES,
  parseFaults,
  DEFAULT_VARIANT,
  allVariants,
  type RunningSandbox,
  type StartOptions,
  type SandboxApp,
  type SandboxVariant,
  type SandboxOptions,
  type FaultName,
} from './sandbox/index.js';
export { SCENARIOS, SCENARIO_NAMES, DEFAULT_HANG_SECONDS, parseScenarios, type ScenarioName, type ScenarioSpec } from './sandbox/index.js';
export { installClientHarness, ClientConformanceError, type ClientHarness, type ClientHarnessOptions } from './clients/harness.js';
// Checks as a public API: a team's own checks (config key "checks"), run and reported like the kit's.
export {
  defineCheck,
  defineRequirement,
  CheckFailure,
  CheckSkipped,
  expectStatus,
  expectSchema,
  expectThat,
  answered,
  type Check,
  type CheckContext,
  type IdSource,
  type Need,
} from './suites/check.js';
export { forAll } from './suites/property.js';
export type { SendOptions, Credentials } from './suites/http.js';
export type { TargetConfig } from './suites/config.js';
export type { Exchange, HttpAnswer, TransportError } from './core/exchange.js';
export type { Requirement, Level, CheckOutcome, CheckResult, Report, RequirementReport, Evidence } from './core/report.js';
export { OPERATIONS, type Operation, type OperationName } from './core/operations.js';
