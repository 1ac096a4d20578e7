// svc-conformance/checks: a team's own checks (config key "checks"), run and reported like the kit's.
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
} from '../suites/check.js';
export { forAll } from '../suites/property.js';
export type { SendOptions, Credentials } from '../suites/http.js';
export type { TargetConfig } from '../suites/config.js';
export type { Exchange, HttpAnswer, TransportError } from '../core/exchange.js';
export type { Requirement, Level, CheckOutcome, CheckResult, Report, RequirementReport, Evidence } from '../core/report.js';
export { OPERATIONS, type Operation, type OperationName } from '../core/operations.js';
