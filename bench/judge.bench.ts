// npm run bench (part 3): judging a client's recorded traffic after it has finished. 4,000 requests
// of a well-behaved client, and 4,000 of one whose every body is re-serialized and every signature
// wrong (each one a diagnose question), against a baseline of one HMAC per request in the same run.
import { judgeClient } from '../clients/judge.js';
import type { RecordedExchange } from '../sandbox/options.js';
import { MERCHANT_A, MERCHANT_A_LIVE } from '../sandbox/tenants.js';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';

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
const runs = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** One HMAC per request of the broken traffic, seconds: warmed once, then measured as the judge is. */
function hmacSeconds(): number {
  const started = performance.now();
  for (const x of broken) hmacSha256Hex(MERCHANT_A.secretKey, x.body + '0');
  return (performance.now() - started) / 1000;
}
hmacSeconds();
const baseline = median(Array.from({ length: runs }, hmacSeconds));
const goodSeconds = median(Array.from({ length: runs }, () => judgeSeconds(good)));
const brokenSeconds = median(Array.from({ length: runs }, () => judgeSeconds(broken)));
console.log(
  `judge: ${REQUESTS} requests of a good client judged in ${goodSeconds.toFixed(2)} s, of a broken one in ${brokenSeconds.toFixed(2)} s (median of ${runs}; target: a few seconds)`,
);
console.log(`judge: broken client ${(brokenSeconds / baseline).toFixed(0)}x a bare HMAC per request (${(baseline * 1000).toFixed(1)} ms)`);
