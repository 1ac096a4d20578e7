#!/usr/bin/env node
// BROKEN ON PURPOSE: P-CLIENT-2 (the body is not the canonical text). It serializes like PHP's
// json_encode with default flags: keys in the order they were written, "/" escaped as "\/",
// non-ASCII as lowercase \uXXXX. It signs that text and sends exactly that text, so the signature
// matches the bytes sent and a raw-body server accepts it; a re-canonicalizing server would not
// (P-SIGN-6). Everything else conforms: headers, whole-second fresh timestamps, a fresh order_id.
import { randomUUID } from 'node:crypto';
import { signText } from 'svc-conformance';
import { PATHS, createClient, describe, runAsScript, targetOf } from './lib/client.mjs';
import { sampleOrder } from './lib/sample-order.mjs';

/** What PHP's json_encode($value) writes with no flags (no JSON_UNESCAPED_SLASHES / _UNICODE). */
function phpJsonEncode(value) {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value); // serialize_precision = -1: shortest form
  if (typeof value === 'string') return phpString(value);
  if (Array.isArray(value)) return `[${value.map(phpJsonEncode).join(',')}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${phpString(k)}:${phpJsonEncode(v)}`)
    .join(',')}}`;
}

function phpString(text) {
  const named = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  let out = '"';
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    const code = text.charCodeAt(i); // UTF-16 code units: astral characters become surrogate pairs
    if (named[ch] !== undefined) out += named[ch];
    else if (code < 0x20 || code > 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** The flow against the target in `env` (SVC_* variables); resolves to the exit status the script would have. */
export async function run(env, { log = (line) => console.log(`[php-style-client] ${line}`) } = {}) {
  const target = targetOf(env);
  const client = createClient(target, {
    sign: (payload, timestamp, secret) => {
      const text = phpJsonEncode(payload);
      return { canonical: text, signature: signText(text, timestamp, secret).signature };
    },
  });

  const orderId = `ORD-${randomUUID()}`;
  const order = sampleOrder(orderId, { note: 'Café order / gift' });
  log(`Create Order ${orderId}: body as json_encode writes it: ${phpJsonEncode(order).slice(0, 90)}…`);
  const created = await client.send(PATHS.createOrder, order);
  log(`Create Order ${orderId} → ${describe(created)}${created.body?.message ? ` (${created.body.message})` : ''}`);
  if (created.status < 200 || created.status >= 300) {
    log('cannot continue without the order');
    return 1;
  }
  log(`Create Order ${orderId}: ${created.body.return_data.order_status}, checkout at ${created.body.return_data.payment_link}`);

  // {"order_id":"ORD-…"}: one key, no "/" and no non-ASCII, so json_encode happens to write it canonically.
  const status = await client.send(PATHS.orderStatus, { order_id: orderId });
  log(`Order Status ${orderId} → ${describe(status)}${status.status === 200 ? `: ${status.body.data.order_status}` : ''}`);
  return 0;
}

await runAsScript(import.meta.url, run);
