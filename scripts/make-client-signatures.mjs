#!/usr/bin/env node
// Signatures made as real JavaScript clients make them, without the kit's code, for diagnose's tests
// to name the variants written here by hand. Run: node scripts/make-client-signatures.mjs [OUT | -]
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';

const SECRET = 'sk_test_diag_5f2c9a';
const TS = '1732147200';

// The order as client code builds it: fields in the interface's order, not sorted.
const ORDER = {
  order_id: 'ORD-2026-0042',
  order_amount: '1499.50',
  order_currency: 'INR',
  order_note: 'gift wrap <fragile> & quick',
  service_type: 'payment',
  customer: {
    name: 'José Müller',
    email: 'jose@example.com',
    phone: '+919812345678',
    address: { line1: '12 MG Road', city: 'Pune', state: 'MH', country: 'IN', postal_code: '411001' },
  },
  return_url: 'https://shop.example.com/return?order=ORD-2026-0042&lang=en',
  // Integer-like keys, as a merchant's own metadata may have (line numbers, SKU counts).
  metadata: { 10: 'ten', 9: 'nine', gift: 'yes' },
};

/** A correct canonicalizer: sorted key/value pairs written out, never an object rebuilt in order. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The common mistake: sort the keys into a new object, then JSON.stringify it. */
function sortedObject(value) {
  if (Array.isArray(value)) return value.map(sortedObject);
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const k of Object.keys(value).sort()) out[k] = sortedObject(value[k]);
    return out;
  }
  return value;
}

const hmac = (algorithm, text, encoding = 'hex', secret = SECRET) => createHmac(algorithm, secret).update(text, 'utf8').digest(encoding);
const sig = (text) => hmac('sha256', text);

const CANONICAL = canonical(ORDER);
const AS_BUILT = JSON.stringify(ORDER); // insertion order, with integer-like keys first as JS does
const SORTED_OBJECT = JSON.stringify(sortedObject(ORDER));

/** One case: the body sent, the signature sent with it, and the variants diagnose names for them. */
const entry = (name, body, signature, ...variants) => ({ name, body, timestamp: TS, secret: SECRET, signature, variants });
const WITH_TS = canonical({ ...ORDER, timestamp: Number(TS) });

const cases = [
  entry('node: a correct canonicalizer', CANONICAL, sig(CANONICAL + TS), 'canonical'),
  // Sort into a new object and stringify it: "10" and "9" come first, at every depth.
  entry('node: keys sorted into a new object, then JSON.stringify', SORTED_OBJECT, sig(SORTED_OBJECT + TS), 'integer-keys-first'),
  // Signs the canonical text, then fetch(..., { body: JSON.stringify(order) }) sends the object again.
  entry('node: canonical text signed, JSON.stringify(order) sent', AS_BUILT, sig(CANONICAL + TS), 'body-not-canonical'),
  entry('node: HMAC-SHA512 in hex', CANONICAL, hmac('sha512', CANONICAL + TS), 'hmac-sha512'),
  entry('node: HMAC-SHA512 in base64', CANONICAL, hmac('sha512', CANONICAL + TS, 'base64'), 'hmac-sha512', 'base64'),
  entry('node: HMAC-SHA1 in hex', CANONICAL, hmac('sha1', CANONICAL + TS), 'hmac-sha1'),
  entry('node: HMAC-SHA1 in base64url', CANONICAL, hmac('sha1', CANONICAL + TS, 'base64url'), 'hmac-sha1', 'base64'),
  entry(
    'node: HMAC-SHA512 over an object rebuilt in sorted order',
    SORTED_OBJECT,
    hmac('sha512', SORTED_OBJECT + TS),
    'integer-keys-first',
    'hmac-sha512',
  ),
  // The timestamp as a field of the payload, sent along, and the canonical text signed alone.
  entry('node: timestamp put in the payload as a number and sent', WITH_TS, sig(WITH_TS), 'timestamp-in-body'),
  // The timestamp added as a field for signing only; the body sent is the plain payload.
  entry('node: timestamp added as "ts" for signing only', CANONICAL, sig(canonical({ ...ORDER, ts: TS })), 'timestamp-in-body'),
];

const text = JSON.stringify({ generator: 'scripts/make-client-signatures.mjs', runtime: 'node', cases }, null, 2) + '\n';
const out = process.argv[2] ?? new URL('../signer/fixtures/client-signatures-node.json', import.meta.url).pathname;
if (out === '-') process.stdout.write(text);
else {
  writeFileSync(out, text);
  console.error(`wrote ${cases.length} cases to ${out}`);
}
