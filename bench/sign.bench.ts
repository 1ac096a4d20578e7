// npm run bench (part 1): diagnose, explaining a signature and failing to (which tries every variant
// and every millisecond of the second), and, as information, what signing one payload costs.
import { createHmac } from 'node:crypto';
import { diagnose } from '../signer/diagnose.js';
import { signPayload } from '../signer/sign.js';
import { figure, repeat, type Target } from './stats.js';

const secret = 'sk_test_bench_4c1d9e7a2b';
const timestamp = 1_732_147_200;
const order = {
  order_id: 'ORD-2026-000042',
  order_amount: 1499.5,
  order_currency: 'INR',
  order_note: 'Deliver after 6pm & ring twice <fragile>',
  service_type: 'payment',
  customer: {
    name: 'José Müller',
    email: 'jose.muller@example.com',
    phone: '+919812345678',
    address: { line1: '12 MG Road', line2: 'Flat 4B', city: 'Pune', state: 'Maharashtra', country: 'IN', postal_code: '411001' },
  },
  return_url: 'https://shop.example.com/checkout/return?order=ORD-2026-000042&lang=en',
};

const good = signPayload({ payload: order, timestamp, secret });
const hmac = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');
const escaped = hmac(secret, good.canonical.replaceAll('/', '\\/') + timestamp);
const wrong = hmac('sk_test_someone_else', good.message);

let tried = 0;
/** Milliseconds one diagnosis of `signature` takes. */
function diagnoseMs(signature: string): number {
  const started = performance.now();
  tried = diagnose({ body: good.canonical, timestamp: String(timestamp), signature, secret }).detail.tried.messages;
  return performance.now() - started;
}
const explained = await repeat(7, () => diagnoseMs(escaped));
const unexplained = await repeat(7, () => diagnoseMs(wrong));
const unexplainedTried = tried;

const UNDER_300_MS: Target = { text: 'under 300 ms', met: (m) => m < 300 };

const CALLS = 20_000;
const signMicroseconds = await repeat(7, () => {
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) signPayload({ payload: order, timestamp, secret });
  return ((performance.now() - started) * 1000) / CALLS;
});

console.log(
  [
    figure('diagnose, explained (escaped-slashes)', explained, ' ms', undefined, 1),
    figure(`diagnose, unexplained (${unexplainedTried} messages tried)`, unexplained, ' ms', UNDER_300_MS, 1),
    figure('signPayload, a Create Order payload (information)', signMicroseconds, ' µs', undefined, 1),
  ].join('\n'),
);
