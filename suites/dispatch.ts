// One request through undici's dispatcher, its answer read as it arrives: the suites' transport. Not
// `request()`: it wraps every body in a Readable stream and needs an AbortController for the deadline.
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { BoundedCollector, type BoundedBody, type BodyLimits } from '../common/bounded-body.js';

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
  /** The whole exchange's deadline (ms): undici's own timeouts bound each wait, so a target trickling
   *  a byte at a time passes them all. */
  timeoutMs: number;
  limits: Pick<BodyLimits, 'keep' | 'stopAfter'>;
}

/** Keeps the first `keep` bytes of the body and counts the rest; past `stopAfter` the connection is
 *  dropped. Rejects with undici's error, or a DOMException named TimeoutError at the deadline. */
export function dispatch(agent: Dispatcher, url: string, init: DispatchInit): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // Parsed first: a URL that does not parse rejects before any timer is set.
    const { origin, pathname, search } = new URL(url);
    const reading = new Reading(init, resolve, reject);
    agent.dispatch(
      {
        origin,
        path: pathname + search,
        method: init.method,
        headers: init.headers,
        body: init.body ?? null,
        headersTimeout: init.timeoutMs,
        bodyTimeout: init.timeoutMs,
      },
      reading,
    );
  });
}

/** Headers as undici hands them over, by lower-case name. */
type ResponseHeaders = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[2];

class Reading implements Dispatcher.DispatchHandler {
  private readonly collector: BoundedCollector;
  private status = 0;
  private headers: Record<string, string> = {};
  private controller: Dispatcher.DispatchController | undefined;
  private done = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly init: DispatchInit,
    private readonly resolve: (answer: Answer) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.collector = new BoundedCollector(init.limits);
    this.timer = setTimeout(() => this.timeUp(), init.timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Past the deadline before it had a connection: dropped as it gets one.
    if (this.done) controller.abort(new DOMException('the exchange already ended', 'AbortError'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: ResponseHeaders): void {
    // An informational answer (103 Early Hints) comes here too, before the real one, which replaces it.
    this.status = statusCode;
    this.headers = {};
    for (const name in headers) {
      const value = headers[name];
      if (value !== undefined) this.headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    // The target is flooding: what is kept is the answer, and the connection goes.
    if (!this.done && this.collector.add(chunk) && this.finish(this.answer(true)))
      controller.abort(new Error(`the answer passed ${this.init.limits.stopAfter} bytes`));
  }

  onResponseEnd(): void {
    this.finish(this.answer(false));
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.finish(error);
  }

  /** The deadline passed: rejected now, and the request dropped (or dropped as it starts). */
  private timeUp(): void {
    const timeout = new DOMException(`no answer within ${this.init.timeoutMs} ms`, 'TimeoutError');
    if (this.finish(timeout)) this.controller?.abort(timeout);
  }

  private answer(stopped: boolean): Answer {
    return { status: this.status, headers: this.headers, body: this.collector.body(stopped) };
  }

  /** Settles the promise once; false when it already was. */
  private finish(outcome: Answer | Error): boolean {
    if (this.done) return false;
    this.done = true;
    clearTimeout(this.timer);
    if (outcome instanceof Error) this.reject(outcome);
    else this.resolve(outcome);
    return true;
  }
}
