// What the sandbox answers a request it cannot hand to the app (a body past its limit, a header or
// target the Fetch API refuses), for both its socket layers: node's (http.ts) and nock's (clients/harness.ts).
import type { ReceivedOn, SandboxApp } from './context.js';
import { errorResponse, type SandboxResponse } from './envelope.js';

interface WireRequest {
  method: string;
  /** The request target as sent (path and query), resolved against `origin`. */
  target: string;
  origin: string;
  headers: Iterable<readonly [string, string]>;
  /** The body's bytes, or 'too-large' when the socket layer stopped reading it past the limit. */
  body: Buffer | 'too-large';
}

export interface WireAnswer {
  response: SandboxResponse;
  /** The request was not read whole or not understood: the connection is dropped after the answer. */
  closeAfter: boolean;
}

/** A 400 error envelope, the connection dropped after it: the request was not read whole or not understood. */
function refused(app: SandboxApp, message: string): WireAnswer {
  return { response: errorResponse(400, message, app.options.faults), closeAfter: true };
}

/** The answer to a request that could not be read at all (a malformed header or target, a client gone mid-body). */
export const unreadableRequest = (app: SandboxApp) => refused(app, 'the request could not be read (malformed header or target)');

export async function answerWire(app: SandboxApp, wire: WireRequest, received?: ReceivedOn): Promise<WireAnswer> {
  const limit = app.options.maxBodyBytes;
  if (wire.body === 'too-large' || wire.body.length > limit) return refused(app, `the request body is larger than ${limit} bytes`);
  let request: Request;
  try {
    // The body goes beside it, as bytes; a malformed method, header or target throws a TypeError.
    const headers = Array.from(wire.headers, ([name, value]) => [name, value]);
    request = new Request(new URL(wire.target, wire.origin), { method: wire.method, headers });
  } catch {
    return unreadableRequest(app);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return { response: await app.handle(request, received, hasBody ? wire.body : new Uint8Array()), closeAfter: false };
}
