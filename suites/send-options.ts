// What a check asks to send (SendOptions), how it is signed, and the body and headers it becomes.
import { canonicalize } from '../signer/canonical.js';

export interface Credentials {
  apiKey: string;
  secretKey: string;
}

export type AuthHeader = 'X-API-KEY' | 'X-SIGNATURE' | 'X-TIMESTAMP' | 'Content-Type' | 'Accept';

export interface SendOptions {
  /** What the exchange is for, shown with its evidence. */
  label: string;
  path: string;
  /** POST by default; PUT, PATCH and DELETE only to see how a path answers another method (P-HTTP-1). */
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Content-Type as sent, in place of `application/json` (P-HTTP-2: a charset parameter, another letter case). */
  contentType?: string;
  /** A JSON payload, sent as its canonical text (P-SIGN-3)… */
  payload?: unknown;
  /** …or a body text sent and signed exactly as given (malformed bodies, P-ERR-4). */
  raw?: string;
  /** Whose keys sign and identify the request; default the configured merchant. */
  as?: Credentials | undefined;
  /** X-TIMESTAMP as sent; default the client clock's whole seconds. */
  timestamp?: string | number;
  /** Sign with this timestamp text instead of the one sent (a timestamp changed after signing). */
  signedTimestamp?: string;
  /** Sign this text instead of the body sent (a body changed after signing), or null to leave the timestamp out. */
  signedBody?: string;
  /** Leave the timestamp out of the signed message (a client that signs the body alone). */
  signBodyOnly?: boolean;
  /** Replace the signature, e.g. to truncate or alter it. */
  signature?: string | ((signature: string) => string);
  omit?: readonly AuthHeader[];
  /** Header names as written: the interface's capitals, or all lower case (P-AUTH-1). */
  headerCase?: 'interface' | 'lower';
  /** Allow the same (timestamp, signature) as an earlier request: only the replay check wants it. */
  reuse?: boolean;
  /** A browser's form (the sandbox's hosted checkout): sent unsigned, urlencoded; answered by a page. */
  form?: Record<string, string>;
  /** The body streamed with Transfer-Encoding: chunked, no Content-Length (P-HTTP-3). */
  chunked?: boolean;
}

/** Whether a request is signed the profile's way over the bytes it sends, with a timestamp the client chose: nothing altered, omitted or reused. */
export function isCorrectlySigned(options: SendOptions): boolean {
  const { timestamp, omit = [], reuse, form } = options;
  return !isMisSigned(options) && timestamp === undefined && omit.length === 0 && !reuse && form === undefined;
}

/** A header left out, the signature replaced or altered, the body or timestamp changed after signing. */
export function isMisSigned(options: SendOptions): boolean {
  return (
    options.signature !== undefined ||
    options.signedBody !== undefined ||
    options.signedTimestamp !== undefined ||
    options.signBodyOnly === true ||
    (options.omit ?? []).some((header) => header === 'X-API-KEY' || header === 'X-SIGNATURE' || header === 'X-TIMESTAMP')
  );
}

/** Signed the profile's way with the merchant's own keys, nothing altered or reused: a server with the
 *  right keys never answers it 401, so when every one is, the keys are wrong. */
export function isPlainlySigned(options: SendOptions, merchant: Credentials): boolean {
  const as = options.as ?? merchant;
  return as.apiKey === merchant.apiKey && as.secretKey === merchant.secretKey && options.raw === undefined && isCorrectlySigned(options);
}

/** A GET's fields as a query string (scalars only; the interface shows no GET payloads). */
export function queryOf(payload: unknown): string {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return '';
  const scalars = Object.entries(payload).filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value));
  const text = new URLSearchParams(scalars.map(([key, value]): [string, string] => [key, String(value)])).toString();
  return text ? `?${text}` : '';
}

/** The body sent: a form's fields, the raw text, or the payload's canonical JSON; a GET's is empty (P-SIGN-4). */
export function bodyOf(options: SendOptions, method: string, form: string | undefined): string {
  if (method === 'GET') return '';
  return form ?? options.raw ?? (options.payload === undefined ? '' : canonicalize(options.payload));
}

/** The request's headers, as cased and left out as the options say; a form's are a browser's. */
export function headersOf(
  options: SendOptions,
  as: Credentials,
  signed: { method: string; timestamp: string; signature: string; form: string | undefined },
): Record<string, string> {
  if (signed.form !== undefined) return { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' };
  const lower = options.headerCase === 'lower';
  const headers: Record<string, string> = {};
  const put = (name: AuthHeader, value: string) => {
    if (!options.omit?.includes(name)) headers[lower ? name.toLowerCase() : name] = value;
  };
  if (signed.method !== 'GET') put('Content-Type', options.contentType ?? 'application/json');
  put('Accept', 'application/json');
  put('X-API-KEY', as.apiKey);
  put('X-TIMESTAMP', signed.timestamp);
  put('X-SIGNATURE', signed.signature);
  return headers;
}
