import { isJsonContentType } from '../core/predicates.js';
import { jsonTextFault, TOO_DEEP } from '../common/json-duplicate-keys.js';
import { nestedDeeperThan } from '../common/json-depth.js';
import { strictTextAsSent, textAsSent } from '../common/utf8.js';
import { Answer, asResponse, type SandboxResponse } from './answer.js';
import { authenticate, ReplayCache } from './auth.js';
import { OperationError, type OperationContext, type OperationHandler } from './context.js';
import { errorResponse } from './envelope.js';
import { incomingFromFetch, type Incoming, type IncomingUrl } from './incoming.js';
import { resolveOptions, type ResolvedOptions, type SandboxOptions } from './options.js';
import { statusRecord } from './operations/orders.js';
import { payoutRecord } from './operations/payout-lifecycle.js';
import { SandboxStore } from './store.js';
import { Timers } from './timers.js';
import { WebhookSender } from './webhook-sender.js';

export interface Route {
  method: 'GET' | 'POST';
  path: string;
  handler: OperationHandler;
  /** Whether the route is an API operation (signed) or a page/control endpoint of its own. */
  kind: 'operation';
}

export interface PageRoute {
  method: 'GET' | 'POST';
  /** A path prefix, e.g. /checkout/ */
  prefix: string;
  kind: 'page';
  handle(request: Request, rest: string, app: SandboxApp): Promise<SandboxResponse> | SandboxResponse;
}

export interface SandboxApp {
  readonly options: ResolvedOptions;
  readonly store: SandboxStore;
  /** Delivers the merchants' webhooks (P-HOOK). */
  readonly webhooks: WebhookSender;
  /** Runs a task later on the sandbox's clock, unless it has closed by then. */
  later(ms: number, task: () => void): void;
  /**
   * Handles one request: the same code serves a socket and an in-process call. `received` says what
   * the socket layer knows beyond the Request (recorded with it).
   */
  handle(request: Request, received?: ReceivedOn): Promise<Response>;
  /**
   * The same for a request a socket layer read (sandbox/wire.ts): no WHATWG Request is built for it,
   * and the answer is a Response or the lighter Answer (sandbox/answer.ts).
   */
  answer(request: Incoming, received?: ReceivedOn): Promise<SandboxResponse>;
  /**
   * Stops holding answers (a scenario's hang): a held answer goes out at once and later ones are not
   * held. Stops its timers and webhook deliveries. Resolves once every request in hand has been
   * answered and recorded.
   */
  close(): Promise<void>;
}

/** What the socket layer knows of a request beyond the Request itself. */
export interface ReceivedOn {
  /** The connection it came on, numbered from 1 in the order the listener accepted them. */
  connection: number;
  /** When the listener accepted that connection, on the sandbox's clock. */
  connectedAt: number;
  /** The longest recent stall of the sandbox's event loop, ms: the request may have arrived that much before it was read. */
  stalledMs?: number;
}

/**
 * How deep a request body may nest (a sandbox rule: the interface shows no size limits). The deepest
 * body of the interface nests 3 levels (customer.address); anything past this answers 400.
 */
export const MAX_BODY_DEPTH = 32;

/** Each app's answer that comes at once when it can (see answerOne): for the kit's own socket layers. */
const atOnce = new WeakMap<SandboxApp, (request: Incoming, received?: ReceivedOn) => SandboxResponse | Promise<SandboxResponse>>();

/**
 * The app's answer to a request a socket layer read: the answer itself when the app has it at once,
 * else a promise; may throw where `answer` would reject. An app this module did not make answers
 * through its own `answer`; one it made answers through the function it registered, so replacing
 * or spying on a made app's `answer` does not change what its sockets answer.
 */
export function answerAtOnce(app: SandboxApp, request: Incoming, received?: ReceivedOn): SandboxResponse | Promise<SandboxResponse> {
  const answer = atOnce.get(app);
  return answer === undefined ? app.answer(request, received) : answer(request, received);
}

export function createApp(routes: readonly (Route | PageRoute)[], sandboxOptions: SandboxOptions = {}): SandboxApp {
  const options = resolveOptions(sandboxOptions);
  const store = new SandboxStore(options.clock(), options.maxRecords, options.wallets);
  const timers = new Timers(options.timerClock);
  const webhooks = new WebhookSender(options, timers);
  const fault = (name: Parameters<OperationContext['fault']>[0]) => options.faults.has(name);
  // One function for every request's context, rather than a closure built per request.
  const later = (ms: number, task: () => void) => timers.after(ms, task);
  // Every change of state fires its event with the record its status operation answers now (P-HOOK-2).
  store.onChange = (change) => {
    if ('payout' in change) {
      const { payout } = change;
      webhooks.notify({ merchantId: payout.merchantId, subject: 'payout', state: payout.status, record: payoutRecord(payout, fault) });
    } else {
      const { order } = change;
      webhooks.notify({ merchantId: order.merchantId, subject: 'payment', state: order.status, record: statusRecord(order, order.origin) });
    }
  };
  const replays = new ReplayCache();
  const operations = new Map(routes.filter((r): r is Route => r.kind === 'operation').map((r) => [r.path, r]));
  const pages = routes.filter((r): r is PageRoute => r.kind === 'page');
  const fail = (status: number, message: string) => errorResponse(status, message, options.faults);

  // How many requests are being answered, so close() can wait until each is answered and recorded:
  // a count rather than a set of promises, since one more promise per request costs under load.
  let inHand = 0;
  let allAnswered: Promise<void> | undefined;
  let nowAllAnswered = () => {};
  const released = () => {
    inHand -= 1;
    if (inHand > 0) return;
    nowAllAnswered();
    allAnswered = undefined;
  };

  const app: SandboxApp = {
    options,
    store,
    webhooks,
    later,
    handle(request, received) {
      // In hand from the start: close() also waits for a request whose body is still being read.
      inHand += 1;
      return incomingFromFetch(request)
        .then((incoming) => answerOne(incoming, received))
        .finally(released)
        .then(asResponse);
    },
    answer(request, received) {
      try {
        return Promise.resolve(answerOne(request, received));
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        return Promise.reject(error);
      }
    },
    async close() {
      options.scenarios.releaseHeld();
      timers.close();
      if (inHand > 0) await (allAnswered ??= new Promise((resolve) => (nowAllAnswered = resolve)));
      await webhooks.close();
    },
  };
  atOnce.set(app, answerOne);

  /**
   * One request's answer, logged and recorded: at once when its operation answers at once (most do),
   * a promise otherwise, so a socket layer makes none for it (see respond in http.ts). Whatever throws
   * (a recording, a log sink, the clock) throws or rejects as before, and the request is never left
   * in hand (close() waits for those).
   */
  function answerOne(request: Incoming, received: ReceivedOn | undefined): SandboxResponse | Promise<SandboxResponse> {
    inHand += 1;
    let out: SandboxResponse | Promise<SandboxResponse>;
    try {
      const started = options.clock();
      let dispatched: SandboxResponse | PromiseLike<SandboxResponse>;
      try {
        dispatched = dispatch(request, request.url);
      } catch (error) {
        dispatched = internalError(request, error);
      }
      // A handler's answer later may be any thenable (the types say a Promise; await took any).
      out = isThenable(dispatched)
        ? Promise.resolve(dispatched)
            .catch((error: unknown) => internalError(request, error))
            .then((response) => finished(request, response, started, received))
        : finished(request, dispatched, started, received);
    } catch (error) {
      released();
      throw error;
    }
    if (out instanceof Promise) return out.finally(released);
    released();
    return out;
  }

  /** The sandbox's own bug: a 500 envelope, never a crash and never a stack to the client. */
  function internalError(request: Incoming, error: unknown): SandboxResponse {
    options.log(`sandbox: internal error on ${request.method} ${request.url.pathname}: ${(error as Error).message}`);
    return fail(500, 'internal error in the sandbox');
  }

  /** A response as it leaves: its log line and its recording written first (only a Response's body is waited for). */
  function finished(
    request: Incoming,
    response: SandboxResponse,
    started: number,
    received: ReceivedOn | undefined,
  ): SandboxResponse | Promise<SandboxResponse> {
    const { url } = request;
    // The line is built only for a log that was asked for: formatting it costs as much as a small answer.
    if (sandboxOptions.log !== undefined) options.log(logLine(request, url, response.status, started, options.clock() - started));
    if (!options.record) return response;
    const record = (responseBody: string) => {
      const headers: Array<[string, string]> = [];
      request.headers.forEach((value, name) => headers.push([name, value]));
      const retryAfter = response.headers.get('retry-after');
      const scenario = options.scenarios.appliedTo(response);
      options.record?.({
        method: request.method,
        path: url.pathname + url.search,
        headers,
        // As the bytes were sent (a byte-order mark kept).
        body: request.body === undefined ? '' : textAsSent(request.body),
        receivedAt: started,
        respondedAt: options.clock(),
        status: response.status,
        responseBody,
        ...(retryAfter !== null ? { retryAfter } : {}),
        ...(scenario !== undefined ? { scenario } : {}),
        ...(received !== undefined
          ? {
              connection: received.connection,
              connectedAt: received.connectedAt,
              ...(received.stalledMs ? { stalledMs: Math.round(received.stalledMs) } : {}),
            }
          : {}),
      });
      return response;
    };
    // An Answer's body is at hand; a Response's is read from a copy, so the socket layer can still read the original.
    if (response instanceof Answer) return record(response.body);
    return response
      .clone()
      .text()
      .catch(() => '')
      .then(record);
  }

  // Not async: most operations answer at once, and each promise between the socket and the handler
  // costs the sandbox a measurable share of its time under load.
  function dispatch(request: Incoming, url: IncomingUrl): SandboxResponse | Promise<SandboxResponse> {
    const route = operations.get(url.pathname);
    if (route === undefined) {
      const page = pages.find((p) => url.pathname.startsWith(p.prefix) && p.method === request.method);
      if (page) return page.handle(request.toRequest(), url.pathname.slice(page.prefix.length), app);
      return fail(404, `no operation at ${request.method} ${url.pathname}; see the interface's Endpoints`);
    }
    if (request.method !== route.method) return otherMethod(request.method, url.pathname, route.method);

    let text: string;
    try {
      // The bytes as sent, a leading byte-order mark included: the signature must cover exactly them.
      if (request.body === undefined) throw new TypeError('the body could not be read');
      text = strictTextAsSent(request.body);
    } catch {
      return fail(400, 'the body is not UTF-8 text');
    }

    const auth = authenticate(request.headers, text, options, replays);
    if (!auth.ok) {
      // The faults that let a request refused for its signature take effect anyway (P-AUTH-5).
      const effectAnyway =
        (options.faults.has('auth-failure-creates-order') && url.pathname.endsWith('/order/create')) ||
        (options.faults.has('auth-failure-cancels-order') && url.pathname.endsWith('/order/cancel'));
      if (effectAnyway && auth.merchant) {
        return runQuietly(route.handler, text, auth.merchant, request).then(() => authRefusal(auth));
      }
      return authRefusal(auth);
    }

    const type = request.headers.get('content-type') ?? '';
    if (!isJsonContentType(type)) return fail(400, 'Content-Type must be application/json');
    // The fault: the header compared as a string, as a hand-written check does (P-HTTP-2).
    if (options.faults.has('http-media-type-exact') && type !== 'application/json')
      return fail(415, `Content-Type must be exactly application/json, not ${type}`);
    if (text.trim() === '') return fail(400, 'the body is empty; send a JSON object');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      if (options.faults.has('errors-invalid-json-500')) return fail(500, 'internal error');
      return fail(400, `the body is not valid JSON: ${(error as Error).message}`);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail(400, 'the body must be a JSON object');
    // P-HTTP-4: JSON.parse kept the last of a repeated key; the signature covered a text with both.
    // And before any handler walks the body recursively, a deep body is a 400, never a stack overflow.
    // Both found in one pass over the text; under the fault that keeps the last value, the depth is the
    // parsed value's (a repeat's dropped value no longer counts).
    const fault = options.faults.has('http-repeated-key-last-wins')
      ? nestedDeeperThan(body, MAX_BODY_DEPTH)
        ? TOO_DEEP
        : undefined
      : jsonTextFault(text, MAX_BODY_DEPTH);
    if (fault === TOO_DEEP) return fail(400, `the body nests objects or arrays more than ${MAX_BODY_DEPTH} levels deep`);
    if (fault !== undefined)
      return fail(
        400,
        `the body repeats the key ${JSON.stringify(fault.key)} in the object at ${JSON.stringify(fault.pointer)}; send each key once`,
      );

    const run = (): SandboxResponse | Promise<SandboxResponse> => {
      try {
        const answered = route.handler(context(auth.merchant, body as Record<string, unknown>, request));
        return answered instanceof Promise ? answered.catch(refusalAnswer) : answered;
      } catch (error) {
        return refusalAnswer(error);
      }
    };
    // Scenarios apply here, after authentication: a refused request leaves them armed.
    return options.scenarios.around(url.pathname, auth.merchant.id, run, fail);
  }

  /** A request refused for its signature (or key, or timestamp): the envelope, or the HTML page of its fault. */
  function authRefusal(auth: { status: number; message: string }): SandboxResponse {
    if (options.faults.has('auth-failure-html')) {
      return new Response(`<html><body><h1>${auth.status} Unauthorized</h1></body></html>`, {
        status: auth.status,
        headers: { 'content-type': 'text/html' },
      });
    }
    return fail(auth.status, auth.message);
  }

  /** A handler's refusal (an OperationError) as its error envelope; any other error is the sandbox's own bug and goes on up. */
  function refusalAnswer(error: unknown): SandboxResponse {
    if (!(error instanceof OperationError)) throw error;
    const response = fail(error.status, error.message);
    for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
    return response;
  }

  /**
   * Another method than the operation's on its path (P-HTTP-1): the variant's 405 (saying which
   * method the path takes) or 404, always the error envelope; under `http-method-html` the HTML page
   * a web framework's default handler answers.
   */
  function otherMethod(method: string, path: string, allowed: string): SandboxResponse {
    const status = options.variant.otherMethod;
    if (options.faults.has('http-method-html')) {
      const title = status === 405 ? '405 Method Not Allowed' : '404 Not Found';
      return new Response(`<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`, {
        status,
        headers: { 'content-type': 'text/html; charset=utf-8', ...(status === 405 ? { allow: allowed } : {}) },
      });
    }
    if (status === 404) return fail(404, `no operation at ${method} ${path}; see the interface's Endpoints`);
    const response = fail(405, `${path} takes ${allowed}, not ${method}`);
    response.headers.set('allow', allowed);
    return response;
  }

  function context(merchant: OperationContext['merchant'], body: Record<string, unknown>, request: Incoming): OperationContext {
    return {
      merchant,
      body,
      store,
      options,
      origin: request.url.origin,
      fault,
      now: options.clock,
      later,
      webhooks,
    };
  }

  async function runQuietly(
    handler: OperationHandler,
    text: string,
    merchant: OperationContext['merchant'],
    request: Incoming,
  ): Promise<void> {
    try {
      await handler(context(merchant, JSON.parse(text) as Record<string, unknown>, request));
    } catch {
      // The fault stores what it can; a body that fails validation stores nothing.
    }
  }

  return app;
}

function isThenable(value: unknown): value is PromiseLike<SandboxResponse> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** One line per request; the API key is shortened and nothing secret is written. */
function logLine(request: Incoming, url: IncomingUrl, status: number, at: number, ms: number): string {
  const key = request.headers.get('x-api-key') ?? request.headers.get('x-client-id');
  const who = key ? ` key=${key.slice(0, 8)}…${key.slice(-4)}` : '';
  return `${new Date(at).toISOString()} ${request.method} ${url.pathname} ${status} ${ms}ms${who}`;
}
