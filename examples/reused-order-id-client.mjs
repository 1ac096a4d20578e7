#!/usr/bin/env node
// BROKEN ON PURPOSE: P-CLIENT-6 (a fresh order_id for every new order). Like a shop that takes its
// order number from a counter that was never persisted, it creates two DIFFERENT orders (another
// amount, another note) under the same hard-coded order_id. The service refuses the second with
// 409 (P-DUP-1); the client logs it and moves on. Everything else conforms (canonical bodies,
// fresh whole-second timestamps, Order Status after the first create).
import { PATHS, createClient, describe, runAsScript, targetOf } from './lib/client.mjs';
import { sampleOrder } from './lib/sample-order.mjs';

/** The flow against the target in `env` (SVC_* variables); resolves to the exit status the script would have. */
export async function run(env, { log = (line) => console.log(`[reused-order-id-client] ${line}`) } = {}) {
  const client = createClient(targetOf(env));
  const ORDER_ID = 'ORDER-1001'; // the defect: the same id for every order this process creates

  const first = await client.send(PATHS.createOrder, sampleOrder(ORDER_ID, { amount: 1499.5, note: 'Two notebooks, gift wrapped' }));
  log(`Create Order ${ORDER_ID} (notebooks, 1499.5) → ${describe(first)}${first.body?.message ? ` (${first.body.message})` : ''}`);
  if (first.status >= 200 && first.status < 300) {
    const status = await client.send(PATHS.orderStatus, { order_id: ORDER_ID });
    log(
      `Order Status ${ORDER_ID} → ${describe(status)}${status.status === 200 ? `: ${status.body.data.order_status}, ${status.body.data.order_amount}` : ''}`,
    );
  }

  const second = await client.send(PATHS.createOrder, sampleOrder(ORDER_ID, { amount: 320.75, note: 'Fountain pen refill' }));
  log(`Create Order ${ORDER_ID} (pen refill, 320.75) → ${describe(second)}${second.body?.message ? ` (${second.body.message})` : ''}`);
  if (second.status === 409) log(`Create Order ${ORDER_ID}: refused as a duplicate; the pen refill order was not placed`);
  return 0;
}

await runAsScript(import.meta.url, run);
