import { strictTextAsSent } from '../common/utf8.js';
import { authenticate, ReplayCache, type AuthOutcome } from './auth.js';
import { OperationError, type OperationContext, type OperationHandler, type Routes, type SandboxApp } from './context.js';
import { errorResponse, SandboxResponse } from './envelope.js';
import { jsonObjectOf } from './request-body.js';
import type { Merchant } from './tenants.js';

/** Answers a request read whole (`body` undefined when it could not be read) by its route. */
export type Dispatch = (request: Request, body: Uint8Array | undefined) => Promise<SandboxResponse>;

export function routeRequests({ operations, pages }: Routes, app: SandboxApp): Dispatch {
  const handlers = new Map(Object.entries(operations));
  const replays = new ReplayCache();
  return async (request, body) => {
    const { pathname } = new URL(request.url);
    const handler = handlers.get(pathname);
    if (handler === undefined) {
      const page = pages.find((p) => pathname.startsWith(p.prefix) && p.method === request.method);
      if (page) return page.handle(request, pathname.slice(page.prefix.length), app, body);
      return errorResponse(404, `no operation at ${request.method} ${pathname}; see the interface's Endpoints`, app.options.faults);
    }
    if (request.method !== 'POST') return otherMethod(request.method, pathname, app);
    return operation({ path: pathname, handler }, request, body, app, replays);
  };
}

type Route = { path: string; handler: OperationHandler };

/** An API operation: the body decoded, the signature checked, the JSON read, then the handler under the scenarios. */
async function operation(route: Route, request: Request, bytes: Uint8Array | undefined, app: SandboxApp, replays: ReplayCache) {
  const { options } = app;
  const fail = (status: number, message: string) => errorResponse(status, message, options.faults);
  let text: string;
  try {
    // The bytes as sent, a leading byte-order mark included: the signature must cover exactly them.
    if (bytes === undefined) throw new TypeError('the body could not be read');
    text = strictTextAsSent(bytes);
  } catch {
    return fail(400, 'the body is not UTF-8 text');
  }
  const origin = new URL(request.url).origin;
  const parsed = () => jsonObjectOf(text, request.headers.get('content-type') ?? '', options.faults);
  const early = options.faults.has('auth-after-parsing') ? parsed() : undefined;
  if (early instanceof SandboxResponse) return early;
  const auth = authenticate(request.headers, text, options, replays);
  if (!auth.ok) return refusedAnyway(route, auth, text, origin, app);
  const body = early ?? parsed();
  if (body instanceof SandboxResponse) return body;
  const context = contextOf(app, auth.merchant, body, origin);
  // Scenarios apply after authentication: a refused request leaves them armed.
  return options.scenarios.around(route.path, auth.merchant.id, () => run(route.handler, context, app), options.faults);
}

/** A handler's answer; its refusal (an OperationError) as the error envelope, any other error goes on up. */
async function run(handler: OperationHandler, context: OperationContext, app: SandboxApp): Promise<SandboxResponse> {
  try {
    return await handler(context);
  } catch (error) {
    if (!(error instanceof OperationError)) throw error;
    return errorResponse(error.status, error.message, app.options.faults);
  }
}

/** A request refused for its signature; under two faults it takes effect anyway (P-AUTH-5). */
async function refusedAnyway(route: Route, auth: Extract<AuthOutcome, { ok: false }>, text: string, origin: string, app: SandboxApp) {
  const { faults } = app.options;
  const effectAnyway =
    (faults.has('auth-failure-creates-order') && route.path.endsWith('/order/create')) ||
    (faults.has('auth-failure-cancels-order') && route.path.endsWith('/order/cancel'));
  if (effectAnyway && auth.merchant) {
    try {
      await route.handler(contextOf(app, auth.merchant, JSON.parse(text) as Record<string, unknown>, origin));
    } catch {
      // The fault stores what it can; a body that fails validation stores nothing.
    }
  }
  if (faults.has('auth-failure-html')) {
    return new SandboxResponse(`<html><body><h1>${auth.status} Unauthorized</h1></body></html>`, {
      status: auth.status,
      headers: { 'content-type': 'text/html' },
    });
  }
  return errorResponse(auth.status, auth.message, faults);
}

/** Another method on an operation's path (P-HTTP-1): the variant's 405 (with Allow) or 404 envelope; under
 * `http-method-html` a web framework's default HTML page. */
function otherMethod(method: string, path: string, app: SandboxApp): SandboxResponse {
  const { faults, variant } = app.options;
  const allowed = 'POST';
  const status = variant.otherMethod;
  if (faults.has('http-method-html')) {
    const title = status === 405 ? '405 Method Not Allowed' : '404 Not Found';
    return new SandboxResponse(`<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`, {
      status,
      headers: { 'content-type': 'text/html; charset=utf-8', ...(status === 405 ? { allow: allowed } : {}) },
    });
  }
  if (status === 404) return errorResponse(404, `no operation at ${method} ${path}; see the interface's Endpoints`, faults);
  const response = errorResponse(405, `${path} takes ${allowed}, not ${method}`, faults);
  response.headers.set('allow', allowed);
  return response;
}

function contextOf(app: SandboxApp, merchant: Merchant, body: Record<string, unknown>, origin: string): OperationContext {
  const { options, store, webhooks } = app;
  return {
    merchant,
    body,
    store,
    options,
    origin,
    fault: (name) => options.faults.has(name),
    now: options.clock,
    later: (ms, task) => app.later(ms, task),
    webhooks,
  };
}
