/** Stable codes: UNREADABLE when the text is not a request, UNSUPPORTED when it is one this kit cannot rebuild. */
export type CaptureErrorCode = 'SVC_CAPTURE_UNREADABLE' | 'SVC_CAPTURE_UNSUPPORTED';

export class CaptureError extends Error {
  override readonly name = 'CaptureError';
  constructor(
    readonly code: CaptureErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Makes the CaptureErrors of one code, each message under the `capture:` prefix. */
const ofCode = (code: CaptureErrorCode) => (message: string) => new CaptureError(code, `capture: ${message}`);
export const unreadable = ofCode('SVC_CAPTURE_UNREADABLE');
export const unsupported = ofCode('SVC_CAPTURE_UNSUPPORTED');

/** A JSON-quoted excerpt for messages, cut at `max` characters. */
export function quoteExcerpt(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
