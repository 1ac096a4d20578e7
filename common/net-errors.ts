// What a failed request says about the other end, from undici's or Node's error: one rule for the
// suites' requests (suites/http.ts) and webhook deliveries (webhooks/delivery.ts). Each caller turns
// the kind into its own sentence; which codes mean what is decided here only. By code, not by
// undici's classes (every undici error carries its UND_ERR_ code, tested): importing undici here would
// load it with the signer and the sandbox, which load it only at their first request.
import { tlsProblemOf, type TlsProblem } from '../core/tls.js';

/** Why no answer came: 'timeout' says which wait ran out ('whole': the caller's own deadline or an abort). */
export type TransportFailure =
  | { kind: 'refused' }
  | { kind: 'unresolved' }
  | { kind: 'timeout'; wait: 'whole' | 'connect' | 'headers' | 'body' }
  | { kind: 'reset' }
  | { kind: 'tls'; problem: TlsProblem }
  | { kind: 'other' };

/** The error's own code, or its cause's (undici wraps Node's socket errors). */
function codeOf(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' ? code : undefined;
}

export function transportFailureOf(error: unknown): TransportFailure {
  const code = codeOf(error);
  const name = error !== null && typeof error === 'object' ? (error as { name?: unknown }).name : undefined;
  if (code === 'ECONNREFUSED') return { kind: 'refused' };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'unresolved' };
  if (name === 'TimeoutError' || name === 'AbortError' || code === 'UND_ERR_ABORTED') return { kind: 'timeout', wait: 'whole' };
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return { kind: 'timeout', wait: 'connect' };
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return { kind: 'timeout', wait: 'headers' };
  if (code === 'UND_ERR_BODY_TIMEOUT') return { kind: 'timeout', wait: 'body' };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return { kind: 'reset' };
  const tls = tlsProblemOf(error);
  if (tls !== undefined) return { kind: 'tls', problem: tls };
  return { kind: 'other' };
}
