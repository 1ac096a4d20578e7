#!/usr/bin/env node
// BROKEN ON PURPOSE: P-CLIENT-7 (SHOULD: after a 429, wait before the next request, honouring
// Retry-After). After a 429 on Create Order it sends its next request at once, ignoring
// Retry-After. It still recovers correctly otherwise: it asks Order Status before repeating the
// same order (P-CLIENT-6 holds), signs every request afresh and uses a fresh order_id.
// Meant for --scenario create-order-429-once.
import { randomUUID } from 'node:crypto';
import { PATHS, createClient, createWithRecovery, runAsScript, targetOf } from './lib/client.mjs';
import { sampleOrder } from './lib/sample-order.mjs';

/** The flow against the target in `env` (SVC_* variables); resolves to the exit status the script would have. */
export async function run(env, { log = (line) => console.log(`[no-backoff-client] ${line}`) } = {}) {
  const client = createClient(targetOf(env));

  const orderId = `ORD-${randomUUID()}`;
  const created = await createWithRecovery(client, {
    label: `Create Order ${orderId}`,
    path: PATHS.createOrder,
    payload: sampleOrder(orderId),
    statusPath: PATHS.orderStatus,
    statusPayload: { order_id: orderId },
    recordOf: (body) => body.return_data,
    log,
    backoffMs: () => 0, // the defect: no pause after a 429, whatever Retry-After says
  });
  if (created.failed) {
    log(`Create Order ${orderId}: gave up (${created.failed.body?.message ?? created.failed.error})`);
    return 1;
  }
  log(`Create Order ${orderId}: ${created.record.order_status}`);

  const status = await client.send(PATHS.orderStatus, { order_id: orderId });
  log(`Order Status ${orderId} → ${status.status}${status.status === 200 ? `: ${status.body.data.order_status}` : ''}`);
  return 0;
}

await runAsScript(import.meta.url, run);
