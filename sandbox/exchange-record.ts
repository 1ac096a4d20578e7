import { textAsSent } from '../common/utf8.js';
import type { ReceivedOn } from './context.js';
import type { RecordedExchange, ResolvedOptions } from './options.js';
import type { SandboxResponse } from './envelope.js';

export interface Exchange {
  request: Request;
  /** The request body's bytes, or undefined when they could not be read. */
  body: Uint8Array | undefined;
  response: SandboxResponse;
  responseBody: string;
  started: number;
  received: ReceivedOn | undefined;
  options: ResolvedOptions;
}

/** A request and its answer as the recording mode keeps them. */
export function recordOf({ request, body, response, responseBody, started, received, options }: Exchange): RecordedExchange {
  const url = new URL(request.url);
  const retryAfter = response.headers.get('retry-after');
  const scenario = options.scenarios.applied.get(response);
  return {
    method: request.method,
    path: url.pathname + url.search,
    headers: [...request.headers],
    // As the bytes were sent (a byte-order mark kept).
    body: body === undefined ? '' : textAsSent(body),
    receivedAt: started,
    respondedAt: options.clock(),
    status: response.status,
    responseBody,
    ...(retryAfter !== null ? { retryAfter } : {}),
    ...(scenario !== undefined ? { scenario } : {}),
    ...(received !== undefined ? { connection: received.connection, connectedAt: received.connectedAt } : {}),
    ...(received?.stalledMs ? { stalledMs: Math.round(received.stalledMs) } : {}),
  };
}

/** One line per request; the API key is shortened and nothing secret is written. */
export function logLine(request: Request, status: number, at: number, ms: number): string {
  const key = request.headers.get('x-api-key') ?? request.headers.get('x-client-id');
  const who = key ? ` key=${key.slice(0, 8)}…${key.slice(-4)}` : '';
  return `${new Date(at).toISOString()} ${request.method} ${new URL(request.url).pathname} ${status} ${ms}ms${who}`;
}
