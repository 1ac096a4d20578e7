import type { ReceivedOn, Routes, SandboxApp } from './context.js';
import { routeRequests, type Dispatch } from './dispatch.js';
import { errorResponse, type SandboxResponse } from './envelope.js';
import { logLine, recordOf } from './exchange-record.js';
import { resolveOptions, type ResolvedOptions, type SandboxOptions } from './options.js';
import { statusRecord } from './operations/orders.js';
import { payoutRecord } from './operations/payout-lifecycle.js';
import { SandboxStore, type Order, type Payout } from './store.js';
import { Timers } from './timers.js';
import { WebhookSender, type StateChange } from './webhook-sender.js';

export function createApp(routes: Routes, sandboxOptions: SandboxOptions = {}): SandboxApp {
  const options = resolveOptions(sandboxOptions);
  const store = new SandboxStore(options.clock(), options.maxRecords, options.wallets);
  const timers = new Timers(options.timerClock);
  const webhooks = new WebhookSender(options, timers);
  store.changed = (change) => webhooks.notify(stateChangeOf(change, options));
  const inHand = new Set<Promise<SandboxResponse>>();
  const app: SandboxApp = {
    options,
    store,
    webhooks,
    later: (ms, task) => timers.after(ms, task),
    handle(request, received, body) {
      const answering = answer(dispatch, options, request, received, body);
      inHand.add(answering);
      const done = () => void inHand.delete(answering);
      answering.then(done, done);
      return answering;
    },
    async close() {
      options.scenarios.releaseHeld();
      timers.close();
      await Promise.allSettled([...inHand]);
      await webhooks.close();
    },
  };
  const dispatch = routeRequests(routes, app);
  return app;
}

/** One request's answer, logged and recorded; rejects only when the log or the recording fails. */
async function answer(dispatch: Dispatch, options: ResolvedOptions, request: Request, received?: ReceivedOn, bytes?: Uint8Array) {
  const started = options.clock();
  // The bytes as sent: the socket layer's, or read from an in-process Request.
  const body =
    bytes ??
    (await request.arrayBuffer().then(
      (read) => new Uint8Array(read),
      () => undefined,
    ));
  let response: SandboxResponse;
  try {
    response = await dispatch(request, body);
  } catch (error) {
    // The sandbox's own bug: a 500 envelope, never a crash and never a stack to the client.
    options.log(`sandbox: internal error on ${request.method} ${new URL(request.url).pathname}: ${(error as Error).message}`);
    response = errorResponse(500, 'internal error in the sandbox', options.faults);
  }
  options.log(logLine(request, response.status, started, options.clock() - started));
  if (options.record) {
    const responseBody = await response.text();
    options.record(recordOf({ request, body, response, responseBody, started, received, options }));
  }
  return response;
}

/** The event a change of state fires, with the record its status operation answers now (P-HOOK-2). */
function stateChangeOf(change: { order: Order } | { payout: Payout }, options: ResolvedOptions): StateChange {
  if ('payout' in change) {
    const { payout } = change;
    const record = payoutRecord(payout, (name) => options.faults.has(name));
    return { merchantId: payout.merchantId, subject: 'payout', state: payout.status, record };
  }
  const { order } = change;
  return { merchantId: order.merchantId, subject: 'payment', state: order.status, record: statusRecord(order, order.origin) };
}
