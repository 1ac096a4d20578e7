// npm run bench (part 3): judging a client's recorded traffic, a well-behaved client's and one whose
// every body is re-serialized and every signature wrong (each one a diagnose question).
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
