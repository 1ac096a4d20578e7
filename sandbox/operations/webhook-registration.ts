// The sandbox's control endpoint for webhook registration (P-HOOK-5: the interface leaves it to the
// developer console). POST /sandbox/webhooks, signed like the API, as the merchant whose receiver it
// is: `{ "url": "https://…" }` registers, `{ "url": null }` removes, `{}` only asks.
import { webhookUrlProblem } from '../../core/webhooks.js';
import { OperationError, type OperationHandler } from '../context.js';
import { successResponse } from '../envelope.js';

export const registerWebhook: OperationHandler = (ctx) => {
  const { url } = ctx.body;
  const extra = Object.keys(ctx.body).filter((key) => key !== 'url');
  if (extra.length > 0) throw new OperationError(400, `unknown field ${extra[0]}; the body is { "url": "https://…" }, { "url": null } or {}`);
  if (!('url' in ctx.body)) {
    return successResponse({ url: ctx.webhooks.urlOf(ctx.merchant.id) ?? null }, 'Webhook registration fetched');
  }
  if (url !== null && typeof url !== 'string') throw new OperationError(400, 'url must be an http(s) URL, or null to remove the registration');
  if (typeof url === 'string') {
    const problem = webhookUrlProblem(url);
    if (problem !== undefined) throw new OperationError(400, `url cannot be used: ${problem}`);
  }
  const previous = ctx.webhooks.register(ctx.merchant.id, url);
  return successResponse({ url: url ?? null, previous_url: previous ?? null }, url === null ? 'Webhook registration removed' : 'Webhook registered');
};
