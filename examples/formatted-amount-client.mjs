#!/usr/bin/env node
// BROKEN ON PURPOSE: P-CLIENT-5 (the body satisfies the operation's request schema). Amounts may be
// sent as JSON numbers or as decimal strings (P-AMOUNT-1), but this client sends the amount as its
// shop front displays it: "1,499.50", with a thousands separator. The service refuses the order with
// 400; the client logs it and asks Order Status, which finds nothing. Everything else conforms
// (canonical bodies, fresh whole-second timestamps, a fresh order_id).
import { randomUUID } from 'node:crypto';
import { PATHS, createClient, describe, runAsScript, targetOf } from './lib/client.mjs';
import { sampleOrder } from './lib/sample-order.mjs';

/** The flow against the target in `env` (SVC_* variables); resolves to the exit status the script would have. */
export async function run(env, { log = (line) => console.log(`[formatted-amount-client] ${line}`) } = {}) {
  const client = createClient(targetOf(env));
  const orderId = `ORD-${randomUUID()}`;
  const displayed = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2 }).format(1499.5); // the defect: "1,499.50"

  const created = await client.send(PATHS.createOrder, sampleOrder(orderId, { amount: displayed }));
  log(
    `Create Order ${orderId} (amount ${JSON.stringify(displayed)}) → ${describe(created)}${created.body?.message ? ` (${created.body.message})` : ''}`,
  );
  const status = await client.send(PATHS.orderStatus, { order_id: orderId });
  log(`Order Status ${orderId} → ${describe(status)}`);
  return 0;
}

await runAsScript(import.meta.url, run);
