// POST /sandbox/webhooks registers the merchant's receiver (P-HOOK-5; the interface leaves it to a
// console): `{ "url": "https://…" }` registers, `{ "url": null }` removes, `{}` only asks.
import { isLoopbackHost } from '../../core/loopback.js';
import { webhookUrlProblem } from '../../core/webhooks.js';
import { OperationError, type OperationHandler } from '../context.js';
import { successResponse } from '../envelope.js';

export const registerWebhook: OperationHandler = (ctx) => {
  const { url } = ctx.body;
  const extra = Object.keys(ctx.body).filter((key) => key !== 'url');
  if (extra.length > 0)
    throw new OperationError(400, `unknown field ${extra[0]}; the body is { "url": "https://…" }, { "url": null } or {}`);
  if (!('url' in ctx.body)) {
    return successResponse({ url: ctx.webhooks.urlOf(ctx.merchant.id) ?? null }, 'Webhook registration fetched');
  }
  if (url !== null && typeof url !== 'string')
    throw new OperationError(400, 'url must be an http(s) URL, or null to remove the registration');
  if (typeof url === 'string') {
    const problem = webhookUrlProblem(url);
    if (problem !== undefined) throw new OperationError(400, `url cannot be used: ${problem}`);
    // Sandbox policy: the demo credentials are public, so only loopback receivers, or the one the operator
    // chose however it is spelled (serve --webhook-url, which a run puts back when it ends).
    const { hostname, href } = new URL(url);
    const operators = ctx.options.webhookUrl;
    if (!ctx.options.allowRemoteWebhooks && !isLoopbackHost(hostname) && (operators === undefined || href !== new URL(operators).href)) {
      throw new OperationError(
        403,
        'url must be on this machine (127.0.0.0/8, ::1 or localhost): the demo credentials are public, so this sandbox delivers elsewhere only when started with serve --allow-remote-webhooks',
      );
    }
  }
  const previous = ctx.webhooks.register(ctx.merchant.id, url);
  return successResponse(
    { url: url ?? null, previous_url: previous ?? null },
    url === null ? 'Webhook registration removed' : 'Webhook registered',
  );
};
