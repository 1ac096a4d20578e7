// What a failed request says about the other end: one rule for suites/http.ts and webhooks/delivery.ts.
// By error code, not undici's classes: importing undici here would load it with the signer and sandbox.
import { errorCodeOf, tlsProblemOf, type TlsProblem } from '../core/tls.js';

/** Why no answer came: 'timeout' says which wait ran out ('whole': the caller's own deadline or an abort). */
export type TransportFailure =
  | { kind: 'refused' }
  | { kind: 'unresolved' }
  | { kind: 'timeout'; wait: 'whole' | 'connect' | 'headers' | 'body' }
  | { kind: 'reset' }
  | { kind: 'tls'; problem: TlsProblem }
  | { kind: 'other' };

export function transportFailureOf(error: unknown): TransportFailure {
  const code = errorCodeOf(error);
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
