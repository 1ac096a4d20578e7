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

export function unreadable(message: string): CaptureError {
  return new CaptureError('SVC_CAPTURE_UNREADABLE', `capture: ${message}`);
}

export function unsupported(message: string): CaptureError {
  return new CaptureError('SVC_CAPTURE_UNSUPPORTED', `capture: ${message}`);
}

/** A JSON-quoted excerpt for messages, cut at `max` characters. */
export function quoteExcerpt(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
