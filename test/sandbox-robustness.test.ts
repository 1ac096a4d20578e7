// The sandbox against hostile clients over real sockets: random bytes and text on every operation,
// bodies nested hundreds of thousands deep, connections that never finish their headers. An
// end-to-end test (`npm run test:e2e`): it drives a listening sandbox as an attacker would.
import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH } from '../sandbox/request-body.js';
import { OPERATION_PATHS, startSandbox, type RunningSandbox } from '../sandbox/index.js';
import { call, sandboxAt, T0 } from '../sandbox/test-support.js';
import { MERCHANT_A } from '../sandbox/tenants.js';

const lines: string[] = [];
let sandbox: RunningSandbox;

beforeAll(async () => {
  // node's timeouts at their defaults: a loaded machine stalling 400 ms after a connect got node's empty 408.
  sandbox = await startSandbox({ port: 0, log: (line) => lines.push(line), maxBodyBytes: 8 * 1024 });
});
afterAll(() => sandbox.close());

let sent = 0;

/**
 * Sends a body signed correctly as raw text, so whatever is wrong with it is not authentication. Each
 * send has a timestamp of its own (within the window): the same body twice in one second would
 * otherwise be a replay, which the default variant refuses with 401.
 */
function send(path: string, body: Buffer | string, headers: Record<string, string> = {}): Promise<Response> {
  const timestamp = String(Math.floor(Date.now() / 1000) - (sent++ % 250));
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const signature = createHmac('sha256', MERCHANT_A.secretKey)
    .update(text + timestamp)
    .digest('hex');
  return fetch(sandbox.baseUrl + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-api-key': MERCHANT_A.apiKey,
      'x-timestamp': timestamp,
      'x-signature': signature,
      ...headers,
    },
    body,
  });
}

/** A body the registration control request accepts: an object with no key but `url`, and that null. */
function asksOrRegisters(body: Buffer | string): boolean {
  try {
    const json: unknown = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
    return (
      json !== null &&
      typeof json === 'object' &&
      !Array.isArray(json) &&
      Object.entries(json).every(([key, value]) => key === 'url' && value === null)
    );
  } catch {
    return false;
  }
}

describe('the sandbox under hostile input', () => {
  it('answers random bytes and random text on every operation with a 4xx envelope, never a 5xx', async () => {
    const paths = Object.values(OPERATION_PATHS);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
          fc.string({ maxLength: 300, unit: 'binary' }),
          fc.json(),
        ),
        async (path, body) => {
          const response = await send(path, body);
          if (path === OPERATION_PATHS.registerWebhook && asksOrRegisters(body)) {
            // `{}` and `{ "url": null }` are valid control requests (P-HOOK-5): asking, and removing a registration.
            expect(response.status).toBe(200);
            return;
          }
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
          const json = (await response.json()) as { status: unknown; code: unknown };
          expect(json).toMatchObject({ status: false, code: response.status });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses a body over the size limit with a clear 400', async () => {
    const response = await send(OPERATION_PATHS.createOrder, JSON.stringify({ order_note: 'x'.repeat(10_000) }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/larger than 8192 bytes/);
  });

  it('cuts off a client that never finishes its headers, and one that opens a connection and says nothing', async () => {
    const impatient = await startSandbox({ port: 0, headersTimeoutMs: 400, requestTimeoutMs: 800, idleTimeoutMs: 600 });
    const closedAfter = (payload: string) =>
      new Promise<number>((resolve, reject) => {
        const started = Date.now();
        const url = new URL(impatient.baseUrl);
        const socket = connect(Number(url.port), url.hostname, () => socket.write(payload));
        socket.on('error', () => {});
        socket.resume(); // read (and drop) the server's 408, or 'close' never comes
        socket.on('close', () => resolve(Date.now() - started));
        setTimeout(() => reject(new Error('the server kept the connection open')), 5_000).unref();
      });
    try {
      expect(await closedAfter('POST /api/v3/pg/order/create HTTP/1.1\r\nHost: x\r\n')).toBeLessThan(5_000);
      expect(await closedAfter('')).toBeLessThan(5_000);
    } finally {
      await impatient.close();
    }
  });

  it('answers a malformed request line without crashing, and keeps serving', async () => {
    const reply = await new Promise<string>((resolve) => {
      const url = new URL(sandbox.baseUrl);
      const socket = connect(Number(url.port), url.hostname, () => socket.write('GARBAGE\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', () => resolve(data));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect((await send(OPERATION_PATHS.balanceInquiry, JSON.stringify({ svc_wallet_id: MERCHANT_A.walletId }))).status).toBe(200);
  });

  it('logs one line per request, without secrets or signatures', async () => {
    lines.length = 0;
    // A body of its own: the default variant refuses a replay of an earlier test's request.
    const response = await send(OPERATION_PATHS.balanceInquiry, JSON.stringify({ svc_wallet_id: MERCHANT_A.walletId, note: 'log' }));
    expect(response.status).toBe(200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\S+ POST \/api\/v3\/banking\/balance 200 \d+ms key=pk_test_…/);
    expect(lines[0]).not.toContain(MERCHANT_A.secretKey);
    expect(lines[0]).not.toContain(MERCHANT_A.apiKey);
    expect(lines[0]).not.toMatch(/[0-9a-f]{64}/);
  });
});

describe("deeply nested bodies (ERR-NO-5XX for the kit's own sandbox)", () => {
  const nested = (depth: number) => '['.repeat(depth) + '1' + ']'.repeat(depth);
  const order = (extra: string) =>
    `{"customer":${extra},"order_amount":1,"order_currency":"INR","order_id":"DEEP","return_url":"https://m.example/r","service_type":"payment"}`;

  it.each([
    ['raw', 5_000],
    ['canonical', 5_000],
    ['raw', 200_000],
    ['canonical', 200_000],
    ['raw', MAX_BODY_DEPTH],
    ['canonical', MAX_BODY_DEPTH],
  ] as const)('verify %s: a correctly signed order nested %i levels deep answers 400, not 500', async (verify, depth) => {
    const { app } = sandboxAt({ variant: { verify } });
    // the root object is the first level, so the array starts at the second
    for (const [i, path] of Object.values(OPERATION_PATHS).entries()) {
      // a timestamp per request: the same body on the next path must not read as a replay
      const answer = await call(app, { path, raw: order(nested(depth)), timestamp: Math.floor(T0 / 1000) + i });
      expect(answer.status, path).toBe(400);
      expect(answer.json).toMatchObject({ status: false, code: 400, message: expect.stringMatching(/more than 32 levels deep/) });
    }
  });

  it('a body exactly at the limit is judged on its content, not its depth', async () => {
    const { app } = sandboxAt();
    const answer = await call(app, { path: OPERATION_PATHS.createOrder, raw: order(nested(MAX_BODY_DEPTH - 2)) });
    expect(answer.status).toBe(400);
    expect(answer.json.message).not.toMatch(/levels deep/);
  });
});
