/** A captured request as `diagnose` reads it: the shape both capture parsers (HTTP text, curl) produce. */
export type CaptureFormat = 'http' | 'curl';

export interface CapturedRequest {
  format: CaptureFormat;
  /** Upper-case. For curl: -X if given, else POST when data is given, else GET. */
  method: string;
  /** The request-target (http) or the URL (curl), as written. */
  target: string;
  /** In order, names as written; for curl, then the headers curl adds for data unless the command sets them. */
  headers: Array<[name: string, value: string]>;
  /** The exact body text ("" when none), after Content-Length and chunked framing are applied. */
  body: string;
}
