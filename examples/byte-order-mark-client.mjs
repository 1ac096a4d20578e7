#!/usr/bin/env node
// BROKEN ON PURPOSE: P-CLIENT-2 (signed over exactly the bytes sent, and those bytes the canonical
// text). Like a client whose writer encodes "UTF-8 with BOM" (.NET's Encoding.UTF8, a StreamWriter,
// PowerShell 5), it signs the canonical text but puts the byte-order mark EF BB BF before every
// body it sends. A server verifying the raw bytes refuses it with 401; the client logs that and
// exits 1. Everything else conforms: headers, whole-second fresh timestamps, a fresh order_id.
import { randomUUID } from 'node:crypto';
import { PATHS, createClient, describe, runAsScript, targetOf } from './lib/client.mjs';
import { sampleOrder } from './lib/sample-order.mjs';

const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

/** The flow against the target in `env` (SVC_* variables); resolves to the exit status the script would have. */
export async function run(env, { log = (line) => console.log(`[byte-order-mark-client] ${line}`) } = {}) {
  // The defect: the bytes on the wire are the mark, then the text that was signed.
  const client = createClient(targetOf(env), { encode: (text) => Buffer.concat([BYTE_ORDER_MARK, Buffer.from(text, 'utf8')]) });

  const orderId = `ORD-${randomUUID()}`;
  const created = await client.send(PATHS.createOrder, sampleOrder(orderId));
  log(
    `Create Order ${orderId} (body sent as UTF-8 with a byte-order mark) → ${describe(created)}${created.body?.message ? ` (${created.body.message})` : ''}`,
  );
  if (created.status < 200 || created.status >= 300) {
    log('cannot continue without the order');
    return 1;
  }
  const status = await client.send(PATHS.orderStatus, { order_id: orderId });
  log(`Order Status ${orderId} → ${describe(status)}${status.status === 200 ? `: ${status.body.data.order_status}` : ''}`);
  return 0;
}

await runAsScript(import.meta.url, run);
