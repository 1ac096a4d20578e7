#!/usr/bin/env node
// A conforming client with several requests in flight at once, as a batch job with a connection
// pool sends them: four Create Orders together, each recovered by examples/lib's createWithRecovery
// (after a 429 it waits Retry-After, asks Order Status, then repeats that order), then Order Status
// for each. Under create-order-429-once one of the four is answered 429 while the others are
// already on the wire: they are no sign of a client that did not wait (test/verify-client.test.ts).
import { randomUUID } from 'node:crypto';
import { PATHS, createClient, createWithRecovery, describe, targetFromEnv } from '../../examples/lib/client.mjs';
import { sampleOrder } from '../../examples/lib/sample-order.mjs';

const log = (line) => console.log(`[concurrent-creates-client] ${line}`);
const client = createClient(targetFromEnv());
const orderIds = Array.from({ length: 4 }, () => `ORD-${randomUUID()}`);
const created = await Promise.all(
  orderIds.map((orderId) =>
    createWithRecovery(client, {
      label: `Create Order ${orderId}`,
      path: PATHS.createOrder,
      payload: sampleOrder(orderId),
      statusPath: PATHS.orderStatus,
      statusPayload: { order_id: orderId },
      recordOf: (body) => body.return_data,
      log,
    }),
  ),
);
for (const orderId of orderIds) {
  const status = await client.send(PATHS.orderStatus, { order_id: orderId });
  log(`Order Status ${orderId} → ${describe(status)}`);
}
process.exitCode = created.some((c) => c.failed) ? 1 : 0;
