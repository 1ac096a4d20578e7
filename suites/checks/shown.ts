import { answered, type CheckFailure } from '../check.js';
import type { Exchange } from '../http.js';

/** A failure's evidence: the exchange, what came back in it, and what was expected when said. */
export function shown(exchange: Exchange, expected?: string): CheckFailure['details'] {
  return { ...(expected === undefined ? {} : { expected }), actual: answered(exchange), exchange };
}
