// The harness and the sandbox behind it run on a manual clock that the test clients read and move:
// a client that must not repeat a (timestamp, signature) pair moves it to the next second, no one waits.
import * as http from 'node:http';
import * as https from 'node:https';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, type ManualClock } from '../core/clock-test-support.js';
import { startSandbox } from '../sandbox/index.js';
import type { RecordedExchange } from '../sandbox/options.js';
import { MERCHANT_A, MERCHANT_A_LIVE } from '../sandbox/tenants.js';
import { canonicalize } from '../signer/canonical.js';
import { signText } from '../signer/sign.js';
import { ClientConformanceError, installClientHarness, type ClientHarness } from './harness.js';
import { judgeClient } from './judge.js';

const CREATE = '/api/v3/pg/order/create';
const ORDER_STATUS = '/api/v3/pg/order/status';
const BALANCE = '/api/v3/banking/balance';
const INITIATE = '/api/v3/banking/payment/initiate';
const PAYOUT_STATUS = '/api/v3/banking/payment/status';

const order = (orderId: string, amount = 1499.5) => ({
  order_id: orderId,
  order_amount: amount,
  order_currency: 'INR',
  order_note: 'Two notebooks',
  service_type: 'payment',
  customer: {
    name: 'José Müller',
    email: 'jose@example.com',
    phone: '+919812345678',
    address: { line1: '12 MG Road', city: 'Pune', state: 'MH', country: 'IN', postal_code: '411001' },
  },
  return_url: `https://shop.example/checkout/return?order=${orderId}`,
});

interface SendOptions {
  /** The body text to send and sign, when not the canonical text of the payload. */
  text?: string;
  timestamp?: string;
  /** Gives up on the answer (status 0) after this many ms of the test's clock. */
  timeoutMs?: number;
}

let clock: ManualClock;
beforeEach(() => {
  clock = manualClock();
});
const seconds = () => Math.floor(clock.now() / 1000);

/** A tiny fetch-based client: signs the text it sends, never repeats a (timestamp, signature) pair. */
function fetchClient(baseUrl: string) {
  const sent = new Set<string>();
  return async (path: string, payload: unknown, o: SendOptions = {}) => {
    const text = o.text ?? canonicalize(payload);
    let signed = signText(text, o.timestamp ?? seconds(), MERCHANT_A.secretKey);
    while (o.timestamp === undefined && sent.has(signed.signature)) {
      await clock.advance(1000 - (clock.now() % 1000));
      signed = signText(text, seconds(), MERCHANT_A.secretKey);
    }
    sent.add(signed.signature);
    const timestamp = o.timestamp ?? signed.message.slice(text.length);
    // The real-time bound only ends a test that has failed.
    const giveUp = new AbortController();
    const bound = setTimeout(() => giveUp.abort(), 10_000);
    if (o.timeoutMs !== undefined) void clock.sleep(o.timeoutMs, giveUp.signal).then(() => giveUp.abort());
    try {
      const response = await fetch(baseUrl + path, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'X-API-KEY': MERCHANT_A.apiKey,
          'X-TIMESTAMP': timestamp,
          'X-SIGNATURE': signed.signature,
        },
        body: text,
        signal: giveUp.signal,
      });
      return {
        status: response.status,
        json: (await response.json().catch(() => null)) as { message?: string; data?: Record<string, unknown> } | null,
      };
    } catch {
      return { status: 0, json: null };
    } finally {
      clearTimeout(bound);
      giveUp.abort();
    }
  };
}

const judgeLikeVerifyClient = (exchanges: readonly RecordedExchange[], baseUrl: string) =>
  judgeClient({
    exchanges,
    baseUrl,
    merchant: MERCHANT_A,
    otherEnvironment: { apiKeys: [MERCHANT_A_LIVE.apiKey], walletIds: [MERCHANT_A_LIVE.walletId] },
    toleranceSeconds: 300,
  }).results;

const failedIds = (results: ReturnType<ClientHarness['findings']>) =>
  results
    .filter((r) => r.state === 'failed')
    .map((r) => r.meta.requirement)
    .sort();

/** Resolves once the harness holds an answer (judging refuses meanwhile): bounded in turns of the event loop, not in time. */
async function untilHeld(h: ClientHarness): Promise<void> {
  for (let turn = 0; turn < 10_000; turn++) {
    try {
      h.findings();
    } catch (error) {
      if (/still waiting for an answer/.test((error as Error).message)) return;
      throw error;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the harness never held an answer');
}

/** Throws what assertConformant throws, as a value. */
function conformanceError(harness: ClientHarness, strict = false): ClientConformanceError {
  try {
    harness.assertConformant({ strict });
  } catch (error) {
    if (error instanceof ClientConformanceError) return error;
    throw error;
  }
  throw new Error('expected assertConformant to throw');
}

let harness: ClientHarness | undefined;
afterEach(async () => {
  await harness?.restore();
  harness = undefined;
});

describe('installClientHarness: a client judged in-process by P-CLIENT', () => {
  it('passes a conforming fetch client, recording the exact bytes and headers it sent', async () => {
    harness = installClientHarness({ clock });
    const send = fetchClient(harness.env.SVC_BASE_URL);
    const orderId = `ORD-${crypto.randomUUID()}`;
    expect((await send(CREATE, order(orderId))).status).toBe(201);
    expect((await send(ORDER_STATUS, { order_id: orderId })).status).toBe(200);
    expect((await send(BALANCE, { svc_wallet_id: harness.credentials.walletId })).status).toBe(200);
    const payoutOrderId = `PO-${crypto.randomUUID()}`;
    const payout = { svc_wallet_id: harness.credentials.walletId, debit_account_type: 'svc_wallet', payout_order_id: payoutOrderId };
    const initiated = await send(INITIATE, {
      ...payout,
      amount: 10,
      currency: 'INR',
      transfer_mode: 'imps',
      beneficiary: { name: 'Asha Traders', account_number: '001234567890', ifsc: 'HDFC0001234' },
    });
    expect(initiated.status).toBe(200);
    expect((await send(PAYOUT_STATUS, payout)).status).toBe(200);

    harness.assertConformant({ strict: true });
    expect(harness.findings()).toEqual([]);
    const [first] = harness.requests();
    expect(first?.body).toBe(canonicalize(order(orderId)));
    expect(first?.headers).toContainEqual(['x-api-key', MERCHANT_A.apiKey]);
    expect(harness.report().client?.requests).toBe(5);
  });

  it('runs the sandbox and the report on the clock it is given', async () => {
    const start = Date.UTC(2031, 0, 1, 9, 30);
    clock = manualClock(start);
    harness = installClientHarness({ clock });
    const send = fetchClient(harness.baseUrl);
    // Signed at the given clock's second: the sandbox accepts it only if it reads that clock too.
    expect((await send(BALANCE, { svc_wallet_id: harness.credentials.walletId })).status).toBe(200);
    await clock.advance(1_500);
    expect(harness.requests().map((r) => r.receivedAt)).toEqual([start]);
    expect(harness.report()).toMatchObject({ startedAt: '2031-01-01T09:30:00.000Z', durationMs: 1_500 });
    harness.assertConformant({ strict: true });
  });

  it('names each broken rule, with the findings verify-client gives for the same client', async () => {
    // Reuses an order id, escapes "/" (PHP's json_encode), and sends a millisecond timestamp.
    const brokenClient = async (baseUrl: string) => {
      const send = fetchClient(baseUrl);
      await send(CREATE, order('ORDER-1001'));
      await send(CREATE, order('ORDER-1001', 320.75));
      await send(CREATE, order('ORDER-1002'), { text: canonicalize(order('ORDER-1002')).replaceAll('/', '\\/') });
      await send(ORDER_STATUS, { order_id: 'ORDER-1002' }, { timestamp: String(clock.now()) });
    };
    harness = installClientHarness({ clock });
    await brokenClient(harness.baseUrl);
    const error = conformanceError(harness);
    expect(error).toMatchObject({ name: 'ClientConformanceError', code: 'SVC_CLIENT_NOT_CONFORMANT' });
    expect(failedIds(harness.findings())).toEqual(['CLIENT-CANONICAL-BODY', 'CLIENT-FRESH-ORDER-ID', 'CLIENT-TIMESTAMP-SECONDS']);
    expect(error.message).toMatch(/^ {2}CLIENT-CANONICAL-BODY MUST: request #3 \(Create Order\): .*escaped-slashes/m);
    expect(error.message).toMatch(/^ {2}CLIENT-FRESH-ORDER-ID MUST: request #2 uses order_id "ORDER-1001"/m);
    expect(error.message).toMatch(/^ {2}CLIENT-TIMESTAMP-SECONDS MUST: request #4 .* is in milliseconds/m);
    expect(error.findings).toEqual(harness.findings());

    // The same client through a real socket, judged as verify-client judges it.
    const recorded: RecordedExchange[] = [];
    const sandbox = await startSandbox({ port: 0, clock, record: (x) => recorded.push(x) });
    try {
      await brokenClient(sandbox.baseUrl);
    } finally {
      await sandbox.close();
    }
    const messages = (results: ReturnType<ClientHarness['findings']>) =>
      results.filter((r) => r.state === 'failed').map((r) => `${r.meta.requirement}: ${r.meta.failure?.message.replace(/\d{13}/g, 'MS')}`);
    expect(messages(harness.findings())).toEqual(messages(judgeLikeVerifyClient(recorded, sandbox.baseUrl)));
  });

  it.each([
    ['https', 'https://127.0.0.1:9'],
    ['http', 'http://127.0.0.1:9'],
  ] as const)('intercepts a node:%s client too, imported by name', async (name, baseUrl) => {
    harness = installClientHarness({ clock, baseUrl });
    // Read at call time, as a client module's named import would be: `import { request } from 'node:https'`.
    const request = name === 'https' ? https.request : http.request;
    const text = canonicalize({ svc_wallet_id: MERCHANT_A.walletId });
    const timestamp = seconds();
    const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = request(
        `${harness!.baseUrl}${BALANCE}`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-api-key': MERCHANT_A.apiKey,
            'x-timestamp': String(timestamp),
            'x-signature': signText(text, timestamp, MERCHANT_A.secretKey).signature,
          },
        },
        (res: http.IncomingMessage) => {
          let body = '';
          res
            .setEncoding('utf8')
            .on('data', (chunk: string) => (body += chunk))
            .on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
        },
      );
      req.on('error', reject);
      req.write(text.slice(0, 5)); // two chunks: the recording is the bytes, however they were written
      req.end(text.slice(5));
    });
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/application\/json/);
    expect(JSON.parse(answer.body)).toMatchObject({ data: { currency: 'INR' } });
    expect(harness.requests().map((r) => [r.method, r.path, r.body])).toEqual([['POST', BALANCE, text]]);
    harness.assertConformant({ strict: true });
  });

  it('lets a scenario reach the client: create-order-503-once, recovered by asking Order Status first', async () => {
    harness = installClientHarness({ clock, scenarios: ['create-order-503-once'] });
    const send = fetchClient(harness.baseUrl);
    const first = await send(CREATE, order('ORD-503'));
    expect(first.status).toBe(503);
    expect(first.json?.message).toMatch(/create-order-503-once/);
    expect((await send(ORDER_STATUS, { order_id: 'ORD-503' })).status).toBe(404);
    expect((await send(CREATE, order('ORD-503'))).status).toBe(201);

    harness.assertConformant({ strict: true });
    expect(harness.requests()[0]?.scenario).toBe('create-order-503-once');
    expect(harness.report().requirements.find((r) => r.id === 'CLIENT-RETRY-AFTER-STATUS')?.status).toBe('passed');
  });

  it('fails a client that repeats the 503ed order at once', async () => {
    harness = installClientHarness({ clock, scenarios: ['create-order-503-once'] });
    const send = fetchClient(harness.baseUrl);
    await send(CREATE, order('ORD-AGAIN'));
    await send(CREATE, order('ORD-AGAIN'));
    expect(conformanceError(harness).message).toMatch(
      /^ {2}CLIENT-RETRY-AFTER-STATUS MUST: request #1 answered 503; request #2 repeats it/m,
    );
  });

  it('fails on a broken SHOULD rule only when strict: no wait after a 429', async () => {
    harness = installClientHarness({ clock, scenarios: ['create-order-429-once'] });
    const send = fetchClient(harness.baseUrl);
    expect((await send(CREATE, order('ORD-429'))).status).toBe(429);
    expect((await send(ORDER_STATUS, { order_id: 'ORD-429' })).status).toBe(404); // at once, ignoring Retry-After: 1
    harness.assertConformant();
    expect(conformanceError(harness, true).message).toMatch(/^ {2}CLIENT-BACKOFF-429 SHOULD: request #2 came \d+ ms after the 429/m);
  });

  it('judges a held answer once restore() has released it; judging before that is refused', async () => {
    harness = installClientHarness({ clock, scenarios: ['create-order-hang-once'] });
    const send = fetchClient(harness.baseUrl);
    const held = send(CREATE, order('ORD-HANG'), { timeoutMs: 300 });
    await untilHeld(harness);
    await clock.advance(300);
    expect((await held).status).toBe(0);
    expect(() => harness!.findings()).toThrow(/1 request is still waiting for an answer.*restore\(\)/);
    expect((await send(ORDER_STATUS, { order_id: 'ORD-HANG' })).status).toBe(200);
    await harness.restore();
    expect(harness.requests().map((r) => [r.path, r.scenario])).toEqual([
      [CREATE, 'create-order-hang-once'],
      [ORDER_STATUS, undefined],
    ]);
    harness.assertConformant({ strict: true });
  });

  it('hands the sandbox a body nock could not parse, and records it as sent', async () => {
    harness = installClientHarness({ clock });
    const response = await fetch(`${harness.baseUrl}${CREATE}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"order_id": ',
    });
    expect(response.status).toBe(401);
    expect(harness.requests()[0]?.body).toBe('{"order_id": ');
    expect(failedIds(harness.findings())).toContain('CLIENT-CANONICAL-BODY');
  });

  it('fails when the client sent nothing, saying where to point it', () => {
    harness = installClientHarness({ clock });
    expect(() => harness!.assertConformant()).toThrow(/sent no request to http:\/\/127\.0\.0\.1:9; point it at harness\.baseUrl/);
  });

  it('refuses a base URL with a path, an unknown scenario and a second harness on the same URL', () => {
    expect(() => installClientHarness({ baseUrl: 'https://x.test/api' })).toThrow(
      /^installClientHarness: baseUrl must be an http\(s\) origin/,
    );
    expect(() => installClientHarness({ clock, scenarios: ['create-order-500-once' as 'payout-failed'] })).toThrow(
      /^installClientHarness: unknown scenario "create-order-500-once"/,
    );
    harness = installClientHarness({ clock });
    expect(() => installClientHarness({ clock })).toThrow(/already installed for http:\/\/127\.0\.0\.1:9/);
  });
});

describe('restore()', () => {
  // Real servers on loopback: once the harness is gone, requests reach them. Nothing leaves the machine.
  async function localServer(text: string): Promise<{ url: string; close(): Promise<void> }> {
    const server = http.createServer((_req, res) => res.end(text));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it("removes its own interceptors only: the real server answers again, another test's mock stays", async () => {
    const real = await localServer('the real server');
    try {
      const other = nock('http://127.0.0.1:9').get('/still').reply(200, 'still here');
      harness = installClientHarness({ clock, baseUrl: real.url });
      expect((await fetch(`${real.url}/nowhere`)).status).toBe(404); // the sandbox's own 404
      await harness.restore();
      await harness.restore(); // idempotent
      expect(await (await fetch(`${real.url}${CREATE}`)).text()).toBe('the real server');
      expect(await (await fetch('http://127.0.0.1:9/still')).text()).toBe('still here');
      expect(other.isDone()).toBe(true);
      harness = installClientHarness({ clock, baseUrl: real.url }); // the URL is free again
    } finally {
      await harness?.restore();
      await real.close();
    }
  });

  it('blocks other hosts only when asked, and allows them again on restore', async () => {
    const elsewhere = await localServer('elsewhere');
    try {
      harness = installClientHarness({ clock, blockOtherHosts: true });
      const blocked = await fetch(elsewhere.url).then(
        () => undefined,
        (e: Error & { cause?: { code?: string } }) => e.cause?.code ?? (e as { code?: string }).code,
      );
      expect(blocked).toBe('ENETUNREACH'); // nock's NetConnectNotAllowedError
      await harness.restore();
      expect(await (await fetch(elsewhere.url)).text()).toBe('elsewhere');
    } finally {
      await elsewhere.close();
    }
  });
});
