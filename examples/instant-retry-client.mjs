#!/usr/bin/env node
// BROKEN ON PURPOSE: P-CLIENT-6 (retry follows a status query, not an instant repeat). When Create
// Order fails with a 5xx, a 429 or no answer, it sends the same order again at once, without asking
// Order Status whether the first attempt went through. Meant for --scenario create-order-503-once.
// Everything else conforms: each attempt is signed afresh (the helper makes sure an identical body
// never goes out twice in the same second, so no timestamp/signature pair repeats), a fresh
// order_id for the order, Order Status at the end.
import { randomUUID } from 'node:crypto';
import { PATHS, createClient, describe, isRecoverable, runAsScript, targetOf } from './lib/client.mjs';
import { sampleOrder } from './lib/sample-order.mjs';

/** The flow against the target in `env` (SVC_* variables); resolves to the exit status the script would have. */
export async function run(env, { log = (line) => console.log(`[instant-retry-client] ${line}`) } = {}) {
  const client = createClient(targetOf(env));

  const orderId = `ORD-${randomUUID()}`;
  const order = sampleOrder(orderId);
  let created;
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    created = await client.send(PATHS.createOrder, order);
    log(`Create Order ${orderId} (attempt ${attempt}) → ${describe(created)}`);
    if (!isRecoverable(created)) break;
    log(`Create Order ${orderId}: failed, sending it again right away`); // the defect: no Order Status first
  }
  if (created.status < 200 || created.status >= 300) {
    log(`Create Order ${orderId}: gave up (${created.body?.message ?? describe(created)})`);
    return 1;
  }
  log(`Create Order ${orderId}: ${created.body.return_data.order_status}, checkout at ${created.body.return_data.payment_link}`);

  const status = await client.send(PATHS.orderStatus, { order_id: orderId });
  log(`Order Status ${orderId} → ${describe(status)}${status.status === 200 ? `: ${status.body.data.order_status}` : ''}`);
  return 0;
}

await runAsScript(import.meta.url, run);
