// One request through undici, its body read within the kit's bounds (common/bounded-body.ts): the suites' transport.
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { readBounded, type BoundedBody, type BodyLimits } from '../common/bounded-body.js';

export interface Answer {
  status: number;
  /** By lower-case name; a header sent more than once is its values joined by ", ". */
  headers: Record<string, string>;
  body: BoundedBody;
}

interface DispatchInit {
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  /** None for a request without a body (a GET); chunks are sent with Transfer-Encoding: chunked. */
  body: string | Readable | undefined;
  /** The whole exchange's deadline (ms): undici's own timeouts bound each wait, so a target trickling a byte at a time passes them all. */
  timeoutMs: number;
  limits: Pick<BodyLimits, 'keep' | 'stopAfter'>;
}

/** Keeps the first `keep` bytes of the body and counts the rest; past `stopAfter` the connection is
 *  dropped. Rejects with undici's error, or a DOMException named TimeoutError at the deadline. */
export async function dispatch(agent: Dispatcher, url: string, init: DispatchInit): Promise<Answer> {
  const { origin, pathname, search } = new URL(url);
  const response = await agent.request({
    origin,
    path: pathname + search,
    method: init.method,
    headers: init.headers,
    body: init.body ?? null,
    headersTimeout: init.timeoutMs,
    bodyTimeout: init.timeoutMs,
    signal: AbortSignal.timeout(init.timeoutMs),
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return { status: response.statusCode, headers, body: await readBounded(response.body, init.limits) };
}
