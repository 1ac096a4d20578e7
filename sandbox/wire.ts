// A request as a socket layer has it, before the app reads it: the one place that decides
// what the sandbox answers when it cannot hand one to the app (a body past its limit, a header or
// target the Fetch API refuses). Its two socket layers, node's (sandbox/http.ts) and nock's
// (clients/harness.ts), both go through here, so a client meets the same answers from either.
import type { Readable } from 'node:stream';
import { collectBounded } from '../common/bounded-body.js';
import { answerAtOnce, type ReceivedOn, type SandboxApp } from './app.js';
import type { SandboxResponse } from './answer.js';
import { errorResponse } from './envelope.js';
import { incomingFromWire, type Incoming } from './incoming.js';

export interface WireRequest {
  method: string;
  /** The request target as sent (path and query), resolved against `origin`. */
  target: string;
  origin: string;
  headers: Iterable<readonly [string, string]>;
  /** The body's bytes, or 'too-large' when the socket layer stopped reading it past the limit. */
  body: Buffer | 'too-large';
  /** The headers were read by node's parser, which checks them as a Headers would (see incomingFromWire). */
  headersChecked?: boolean;
}

export interface WireAnswer {
  response: SandboxResponse;
  /** The request was not read whole or not understood: the connection is dropped after the answer. */
  closeAfter: boolean;
}

/**
 * A request body read up to the sandbox's limit: nothing past it is read or kept, and the stream is
 * left paused, so the answer can still go out on its connection. Told through callbacks, not a
 * promise: every request the sandbox serves is read here.
 */
export function readRequestBody(
  app: SandboxApp,
  body: Readable,
  done: (body: Buffer | 'too-large') => void,
  failed: (error: unknown) => void,
): void {
  const limit = app.options.maxBodyBytes;
  collectBounded(body, { keep: limit, stopAfter: limit, onStop: 'pause' }, (read) => done(read.stopped ? 'too-large' : read.kept), failed);
}

/** The answer to a request that could not be read at all (a malformed header or target, a client gone mid-body). */
export function unreadableRequest(app: SandboxApp): SandboxResponse {
  return errorResponse(400, 'the request could not be read (malformed header or target)', app.options.faults);
}

export async function answerWire(app: SandboxApp, wire: WireRequest, received?: ReceivedOn): Promise<WireAnswer> {
  return answerWireAtOnce(app, wire, received);
}

/** answerWire's answer at once when the app has it at once (see answerAtOnce); may throw where answerWire rejects. */
export function answerWireAtOnce(app: SandboxApp, wire: WireRequest, received?: ReceivedOn): WireAnswer | Promise<WireAnswer> {
  if (wire.body === 'too-large' || wire.body.length > app.options.maxBodyBytes) {
    return {
      response: errorResponse(400, `the request body is larger than ${app.options.maxBodyBytes} bytes`, app.options.faults),
      closeAfter: true,
    };
  }
  let request: Incoming;
  try {
    request = incomingFromWire(wire.method, wire.target, wire.origin, wire.headers, wire.body, wire.headersChecked);
  } catch {
    return { response: unreadableRequest(app), closeAfter: true };
  }
  const response = answerAtOnce(app, request, received);
  return response instanceof Promise
    ? response.then((answered) => ({ response: answered, closeAfter: false }))
    : { response, closeAfter: false };
}
