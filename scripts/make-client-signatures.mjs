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

const cases = [
  { name: 'node: a correct canonicalizer', body: CANONICAL, signature: sig(CANONICAL + TS), variants: ['canonical'] },
  // Sort into a new object and stringify it: "10" and "9" come first, at every depth.
  {
    name: 'node: keys sorted into a new object, then JSON.stringify',
    body: SORTED_OBJECT,
    signature: sig(SORTED_OBJECT + TS),
    variants: ['integer-keys-first'],
  },
  // Signs the canonical text, then fetch(..., { body: JSON.stringify(order) }) sends the object again.
  {
    name: 'node: canonical text signed, JSON.stringify(order) sent',
    body: AS_BUILT,
    signature: sig(CANONICAL + TS),
    variants: ['body-not-canonical'],
  },
  { name: 'node: HMAC-SHA512 in hex', body: CANONICAL, signature: hmac('sha512', CANONICAL + TS), variants: ['hmac-sha512'] },
  {
    name: 'node: HMAC-SHA512 in base64',
    body: CANONICAL,
    signature: hmac('sha512', CANONICAL + TS, 'base64'),
    variants: ['hmac-sha512', 'base64'],
  },
  { name: 'node: HMAC-SHA1 in hex', body: CANONICAL, signature: hmac('sha1', CANONICAL + TS), variants: ['hmac-sha1'] },
  {
    name: 'node: HMAC-SHA1 in base64url',
    body: CANONICAL,
    signature: hmac('sha1', CANONICAL + TS, 'base64url'),
    variants: ['hmac-sha1', 'base64'],
  },
  {
    name: 'node: HMAC-SHA512 over an object rebuilt in sorted order',
    body: SORTED_OBJECT,
    signature: hmac('sha512', SORTED_OBJECT + TS),
    variants: ['integer-keys-first', 'hmac-sha512'],
  },
  // The timestamp as a field of the payload, sent along, and the canonical text signed alone.
  (() => {
    const withTs = canonical({ ...ORDER, timestamp: Number(TS) });
    return {
      name: 'node: timestamp put in the payload as a number and sent',
      body: withTs,
      signature: sig(withTs),
      variants: ['timestamp-in-body'],
    };
  })(),
  // The timestamp added as a field for signing only; the body sent is the plain payload.
  {
    name: 'node: timestamp added as "ts" for signing only',
    body: CANONICAL,
    signature: sig(canonical({ ...ORDER, ts: TS })),
    variants: ['timestamp-in-body'],
  },
].map((c) => ({ name: c.name, body: c.body, timestamp: TS, secret: SECRET, signature: c.signature, variants: c.variants }));

const text = JSON.stringify({ generator: 'scripts/make-client-signatures.mjs', runtime: 'node', cases }, null, 2) + '\n';
const out = process.argv[2] ?? new URL('../signer/fixtures/client-signatures-node.json', import.meta.url).pathname;
if (out === '-') process.stdout.write(text);
else {
  writeFileSync(out, text);
  console.error(`wrote ${cases.length} cases to ${out}`);
}
