// npm run bench: the signer's throughput against the plainest possible baseline in the same run,
// JSON.stringify + createHmac over the same payload (which does not sort keys, so it is the floor).
import { createHmac } from 'node:crypto';
import { diagnose } from '../signer/diagnose.js';
import { signPayload } from '../signer/sign.js';

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

function baseline(): string {
  return createHmac('sha256', secret)
    .update(JSON.stringify(order) + timestamp)
    .digest('hex');
}

function signer(): string {
  return signPayload({ payload: order, timestamp, secret }).signature;
}

/** Nanoseconds per call over `iterations` calls. */
function time(fn: () => string, iterations: number): number {
  let sink = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) sink += fn().length;
  const elapsed = Number(process.hrtime.bigint() - start);
  if (sink === 0) throw new Error('unreachable');
  return elapsed / iterations;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const iterations = 50_000;
for (let i = 0; i < 3; i++) {
  time(baseline, iterations);
  time(signer, iterations);
}
const rounds = { baseline: [] as number[], signer: [] as number[] };
for (let round = 0; round < 7; round++) {
  // Alternate so drift in the machine's speed falls on both alike.
  rounds.baseline.push(time(baseline, iterations));
  rounds.signer.push(time(signer, iterations));
}
const base = median(rounds.baseline);
const sign = median(rounds.signer);
const perSecond = (ns: number): string => Math.round(1e9 / ns).toLocaleString('en-US');

console.log('canonicalize + sign, realistic Create Order payload (median of 7 rounds of 50,000)');
console.log(`  baseline JSON.stringify + createHmac  ${base.toFixed(0).padStart(6)} ns/op  ${perSecond(base)} ops/s`);
console.log(`  svc-conformance signPayload           ${sign.toFixed(0).padStart(6)} ns/op  ${perSecond(sign)} ops/s`);
console.log(`  ratio signer / baseline               ${(sign / base).toFixed(2)}x   (target: within 1.50x)`);

// diagnose: the worst case is a signature nothing explains, which tries every text and every millisecond.
const good = signPayload({ payload: order, timestamp, secret });
const wrong = createHmac('sha256', 'sk_test_someone_else').update(good.message).digest('hex');
const escaped = createHmac('sha256', secret)
  .update(good.canonical.replaceAll('/', '\\/') + timestamp)
  .digest('hex');
/** Median milliseconds of 7 diagnoses, and how many messages one diagnosis hashed. */
const diagnoseMs = (signature: string): { ms: number; tried: number } => {
  const samples: number[] = [];
  let tried = 0;
  for (let i = 0; i < 7; i++) {
    const start = process.hrtime.bigint();
    tried = diagnose({ body: good.canonical, timestamp: String(timestamp), signature, secret }).detail.tried.messages;
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { ms: median(samples), tried };
};
const explained = diagnoseMs(escaped);
const unexplained = diagnoseMs(wrong);
// Per message tried, so a change in what diagnose tries is not mistaken for a change in its speed.
const perTry = ({ ms, tried }: { ms: number; tried: number }): string =>
  `${ms.toFixed(1).padStart(6)} ms  ${tried.toLocaleString('en-US').padStart(6)} messages, ${((ms * 1000) / tried).toFixed(1)} µs each`;
console.log('diagnose, same payload (median of 7)');
console.log(`  explained (escaped-slashes)            ${perTry(explained)}`);
console.log(`  unexplained (every variant tried)      ${perTry(unexplained)}   (target: under 300 ms)`);
