/** Stable codes of the signer module; tools may branch on them, people read the message. */
export type SignerErrorCode = 'SVC_NOT_JSON_VALUE' | 'SVC_BAD_TIMESTAMP' | 'SVC_BAD_SECRET' | 'SVC_BODY_NOT_JSON' | 'SVC_TOO_DEEP';

export class SignerError extends Error {
  override readonly name = 'SignerError';
  constructor(
    readonly code: SignerErrorCode,
    message: string,
  ) {
    super(message);
  }
}
