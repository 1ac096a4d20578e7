// npm run bench (part 3): judging a client's recorded traffic and the traffic proxy; a well-behaved client's and one whose
// every body is re-serialized and every signature wrong (each one a diagnose question).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { judgeBothSides } from '../cli/commands/judge.js';
import type { ObservedExchange } from '../clients/har-input.js';
import { judgeClient } from '../clients/judge.js';
import type { RecordedExchange } from '../sandbox/options.js';
import { MERCHANT_A, MERCHANT_A_LIVE } from '../sandbox/tenants.js';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';
import { figure, repeat } from './stats.js';

const REQUESTS = 4_000;

function traffic(broken: boolean): RecordedExchange[] {
  const at = Date.now();
  return Array.from({ length: REQUESTS }, (_, n) => {
    const payload = {
      order_id: `B-${n}`,
      order_amount: '10.00',
      order_currency: 'INR',
      customer_name: 'Bench',
      return_url: 'https://example.test/r',
    };
    const body = broken ? JSON.stringify(payload, null, 1) : canonicalize(payload);
    const timestamp = String(Math.floor(at / 1000));
    const signature = hmacSha256Hex(MERCHANT_A.secretKey, (broken ? canonicalize(payload) : body) + timestamp);
    return {
      method: 'POST',
      path: '/api/v3/pg/order/create',
      body,
      receivedAt: at + n,
      respondedAt: at + n,
      status: 201,
      responseHeaders: {},
      responseBody: '{}',
      headers: [
        ['content-type', 'application/json'],
        ['accept', 'application/json'],
        ['x-api-key', MERCHANT_A.apiKey],
        ['x-timestamp', timestamp],
        ['x-signature', signature],
      ],
    } as unknown as RecordedExchange;
  });
}

function judgeSeconds(exchanges: RecordedExchange[]): number {
  const started = performance.now();
  judgeClient({
    exchanges,
    baseUrl: 'http://127.0.0.1:1',
    merchant: MERCHANT_A,
    otherEnvironment: { apiKeys: [MERCHANT_A_LIVE.apiKey], walletIds: [MERCHANT_A_LIVE.walletId] },
    toleranceSeconds: 300,
  });
  return (performance.now() - started) / 1000;
}

const good = traffic(false);
const broken = traffic(true);
const goodSeconds = await repeat(3, () => judgeSeconds(good));
const brokenSeconds = await repeat(3, () => judgeSeconds(broken));
console.log(figure(`judge: ${REQUESTS} requests of a good client`, goodSeconds, ' s'));
console.log(figure(`judge: ${REQUESTS} requests of a broken client`, brokenSeconds, ' s'));
// judge --har without a config: no secret, so no signature is verified (nor explained), both sides judged.
const observed: ObservedExchange[] = good.map((x) => ({ ...x, responseHeaders: [] }));
const withoutSecret = await repeat(3, () => {
  const started = performance.now();
  judgeBothSides(observed, 'http://127.0.0.1:1', undefined);
  return (performance.now() - started) / 1000;
});
console.log(figure(`judge --har: ${REQUESTS} requests, both sides, no secret`, withoutSecret, ' s'));

// The proxy command on loopback, a process of its own as in use: the latency it adds to one exchange (medians
// of one at a time) and its throughput against the upstream directly, 8 in flight (at most 1 ms; at least 0.8x).
const upstream = createServer((req, res) =>
  req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}')),
);
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const direct = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
const free = createServer();
await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
const proxied = `http://127.0.0.1:${(free.address() as { port: number }).port}`;
await new Promise((resolve) => free.close(resolve));
const bin = fileURLToPath(new URL('../../bin/svc-conformance.js', import.meta.url));
const reports = mkdtempSync(join(tmpdir(), 'svc-bench-proxy-'));
const child = spawn(process.execPath, [bin, 'proxy', '--upstream', direct, '--listen', proxied.slice(7), '--report-dir', reports], {
  stdio: 'ignore',
});
const post = (base: string) =>
  fetch(`${base}/api/v3/banking/balance`, { method: 'POST', body: '{"svc_wallet_id":"W"}' }).then((r) => r.text());
for (let i = 0; i < 100 && (await post(proxied).catch(() => undefined)) === undefined; i++) await setTimeout(50);
const latency = async (base: string) => {
  const ms: number[] = [];
  for (let i = 0; i < 300; i++) {
    const started = performance.now();
    await post(base);
    ms.push(performance.now() - started);
  }
  return ms.sort((a, b) => a - b)[150]!;
};
const eightInFlight = async (base: string) => {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = 0; i < 125; i++) await post(base);
    }),
  );
  return performance.now() - started;
};
// Timed warm, as a proxy left in place runs: 4,000 exchanges through it and 2,000 direct first. Under
// 10,000 in all, so every one is kept and judged as in use (KEEP_AT_MOST).
for (let i = 0; i < 4; i++) await eightInFlight(proxied);
for (let i = 0; i < 2; i++) await eightInFlight(direct);
const added = await repeat(3, async () => (await latency(proxied)) - (await latency(direct)));
const throughput = await repeat(5, async () => (await eightInFlight(direct)) / (await eightInFlight(proxied)));
console.log(figure('proxy: latency added per exchange (median)', added, ' ms', { text: '≤ 1 ms', met: (m) => m <= 1 }));
console.log(figure('proxy: throughput, 8 in flight, against direct', throughput, 'x', { text: '≥ 0.8x', met: (m) => m >= 0.8 }));
child.kill('SIGTERM');
await new Promise((resolve) => child.on('exit', resolve));
upstream.close();
