// svc-conformance/signer: canonical JSON, signing, verification and diagnosis, for a team that only
// signs. Nothing here loads faker, ajv, undici or fast-check.
export { canonicalize } from '../signer/canonical.js';
export { signPayload, signText, timestampText, type SignInput, type Signed } from '../signer/sign.js';
export {
  verifyRequest,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyInput,
  type VerifyResult,
  type VerifyFailure,
  type VerifyMode,
} from '../signer/verify.js';
export { SignerError, type SignerErrorCode } from '../signer/errors.js';
export {
  diagnose,
  DiagnoseInputError,
  type Diagnosis,
  type DiagnosisDetail,
  type DiagnoseInput,
  type Divergence,
} from '../signer/diagnose.js';
export { formatDiagnosis } from '../signer/diagnose-report.js';
export { VARIANTS, type VariantId } from '../signer/variants.js';
export { parseCapturedRequest, CaptureError, type CapturedRequest } from '../signer/capture.js';
