// One request through undici's dispatcher, its answer read as it arrives: the suites' transport.
// Not `request()`: that one wraps every answer's body in a Readable stream, and reading it back
// costs more than the rest of the client's work on a request (a bare loop over the same requests
// spends about a quarter less CPU this way, sandbox included).
import type { Dispatcher } from 'undici';
import type { BoundedBody, BodyLimits } from '../common/bounded-body.js';

export interface Answer {
  status: number;
  /** By lower-case name; a header sent more than once is its values joined by ", ". */
  headers: Record<string, string>;
  body: BoundedBody;
}

export interface DispatchInit {
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body?: string;
  /**
   * The whole exchange's deadline (ms): undici's own timeouts bound each wait (for the headers, for
   * the next chunk of the body), so a target trickling a byte at a time passes them all.
   */
  timeoutMs: number;
  limits: Pick<BodyLimits, 'keep' | 'stopAfter'>;
}

/**
 * The URLs parsed, by their text: a run sends a few dozen paths over and over, and parsing one costs
 * more than looking it up. Bounded: past 256 the cache starts again.
 */
const parsedUrls = new Map<string, { origin: string; path: string }>();
function originAndPath(url: string): { origin: string; path: string } {
  let parsed = parsedUrls.get(url);
  if (parsed === undefined) {
    const { origin, pathname, search } = new URL(url);
    parsed = { origin, path: pathname + search };
    if (parsedUrls.size >= 256) parsedUrls.clear();
    parsedUrls.set(url, parsed);
  }
  return parsed;
}

/**
 * Sends a request and reads its answer: the first `keep` bytes of the body kept, the rest counted;
 * past `stopAfter` bytes in all, reading stops and the connection is dropped. Rejects with undici's
 * error for a transport failure, or a DOMException named TimeoutError when the deadline passes first.
 */
export function dispatch(agent: Dispatcher, url: string, init: DispatchInit): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // Parsed first: a URL that does not parse rejects before any timer is set.
    const { origin, path } = originAndPath(url);
    const { keep, stopAfter } = init.limits;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let receivedBytes = 0;
    let status = 0;
    let headers: Record<string, string> = {};
    let controller: Dispatcher.DispatchController | undefined;
    let done = false;
    const finish = (outcome: Answer | Error) => {
      if (done) return false;
      done = true;
      clearTimeout(timer);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
      return true;
    };
    const answer = (stopped: boolean): Answer => ({
      status,
      headers,
      body: { kept: Buffer.concat(kept, keptBytes), receivedBytes, cut: receivedBytes > keptBytes, stopped },
    });
    const timer = setTimeout(() => {
      const timeout = new DOMException(`no answer within ${init.timeoutMs} ms`, 'TimeoutError');
      // Not yet on a connection: it is dropped as it gets one (onRequestStart).
      if (finish(timeout)) controller?.abort(timeout);
    }, init.timeoutMs);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        if (done) started.abort(new DOMException('the exchange already ended', 'AbortError'));
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        // An informational answer (103 Early Hints) comes here too, before the real one, which replaces it.
        status = statusCode;
        headers = {};
        for (const name in responseHeaders) {
          const value = responseHeaders[name];
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
      },
      onResponseData(started, chunk) {
        if (done) return;
        receivedBytes += chunk.length;
        if (keptBytes < keep) {
          // A chunk kept whole is kept as it is: no view of it built per chunk.
          const part = chunk.length <= keep - keptBytes ? chunk : chunk.subarray(0, keep - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        }
        // The target is flooding: what is kept is the answer, and the connection goes.
        if (receivedBytes > stopAfter && finish(answer(true))) started.abort(new Error(`the answer passed ${stopAfter} bytes`));
      },
      onResponseEnd() {
        finish(answer(false));
      },
      onResponseError(_controller, error) {
        finish(error);
      },
    };
    agent.dispatch(
      {
        origin,
        path,
        method: init.method,
        headers: init.headers,
        ...(init.body === undefined ? {} : { body: init.body }),
        headersTimeout: init.timeoutMs,
        bodyTimeout: init.timeoutMs,
      },
      handler,
    );
  });
}
