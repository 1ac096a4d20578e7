import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { canonicalize } from '../signer/canonical.js';
import { signPayload } from '../signer/sign.js';
import { ReplayCache } from './auth.js';
import type { FaultName } from './faults.js';
import type { SandboxVariant } from './options.js';
import { MERCHANT_A, MERCHANT_A_LIVE, MERCHANT_B } from './tenants.js';
import type { RecordedExchange } from './options.js';
import { call, ORIGIN, sandboxAt, T0, type Answer, type Call } from './test-support.js';

const STATUS = '/api/v3/banking/payment/status';
const known = { svc_wallet_id: MERCHANT_A.walletId, debit_account_type: 'svc_wallet', payout_order_id: 'PO-FIXTURE-SUCCESS' };
const now = Math.floor(T0 / 1000);
let nonce = 0;
/** A payout status request unique per call, so replay refusal never interferes. */
function fresh(): Call {
  nonce += 1;
  return { path: STATUS, payload: { ...known, note: `n${nonce}` } };
}

function expectAuthEnvelope(answer: Answer, status = 401): void {
  expect(answer.status).toBe(status);
  expect(answer.contentType).toMatch(/^application\/json/);
  expect(answer.json).toMatchObject({ status: false, code: status });
  expect(answer.json.message).toEqual(expect.any(String));
  expect(answer.json.message.length).toBeGreaterThan(0);
  expect(answer.json).not.toHaveProperty('data');
}

describe('sandbox authentication (P-AUTH, P-ENV-1)', () => {
  const { app } = sandboxAt();

  it('serves a correctly signed request, headers in any case, x-client-id as an alias', async () => {
    expect((await call(app, fresh())).status).toBe(200);
    const lower = fresh();
    const signed = signPayload({ payload: lower.payload, timestamp: now, secret: MERCHANT_A.secretKey });
    const headers = {
      'X-API-KEY': null,
      'X-TIMESTAMP': null,
      'X-SIGNATURE': null,
      'x-client-id': MERCHANT_A.apiKey,
      'x-timestamp': String(now),
      'x-signature': signed.signature,
    };
    expect((await call(app, { ...lower, headers })).status).toBe(200);
  });

  const sign = (payload: unknown, timestamp = now, secret = MERCHANT_A.secretKey) => signPayload({ payload, timestamp, secret }).signature;
  it.each<[string, () => Call, number?]>([
    ['X-API-KEY missing', () => ({ ...fresh(), headers: { 'X-API-KEY': null } })],
    ['X-SIGNATURE missing', () => ({ ...fresh(), headers: { 'X-SIGNATURE': null } })],
    ['X-TIMESTAMP missing', () => ({ ...fresh(), headers: { 'X-TIMESTAMP': null } })],
    ['an unknown API key', () => ({ ...fresh(), merchant: { apiKey: 'pk_test_nobody', secretKey: MERCHANT_A.secretKey } })],
    ['the wrong secret', () => ({ ...fresh(), merchant: { apiKey: MERCHANT_A.apiKey, secretKey: MERCHANT_B.secretKey } })],
    [
      'the payload changed after signing',
      () => {
        const c = fresh();
        return { ...c, signature: sign({ ...(c.payload as object), note: 'other' }) };
      },
    ],
    [
      'the timestamp changed after signing',
      () => {
        const c = fresh();
        return { ...c, signature: sign(c.payload, now - 1) };
      },
    ],
    [
      'a truncated signature',
      () => {
        const c = fresh();
        return { ...c, signature: sign(c.payload).slice(0, 32) };
      },
    ],
    [
      'an altered signature',
      () => {
        const c = fresh();
        const s = sign(c.payload);
        return { ...c, signature: (s[0] === '0' ? '1' : '0') + s.slice(1) };
      },
    ],
    ['a timestamp with letters', () => ({ ...fresh(), timestamp: `${now}x` })],
    ['a fractional timestamp', () => ({ ...fresh(), timestamp: `${now}.5` })],
    ['a millisecond timestamp', () => ({ ...fresh(), timestamp: `${now}000` })],
    ['an empty timestamp', () => ({ ...fresh(), headers: { 'X-TIMESTAMP': '' } })],
    ['a timestamp far outside the window', () => ({ ...fresh(), timestamp: now - 900 })],
    ['a timestamp far in the future', () => ({ ...fresh(), timestamp: now + 900 })],
    ['a production key (P-ENV-1)', () => ({ ...fresh(), merchant: MERCHANT_A_LIVE }), 403],
  ])('refuses %s with the error envelope', async (_name, make, status = 401) => {
    expectAuthEnvelope(await call(app, make()), status);
  });

  it('accepts a timestamp 30 s old (P-AUTH-3)', async () => {
    expect((await call(app, { ...fresh(), timestamp: now - 30 })).status).toBe(200);
  });

  it('authenticates canonical bodies with non-ASCII text, slashes and & < > (P-SIGN-5)', async () => {
    const payload = { ...known, payout_order_id: 'José Müller/<a&b>?q=1' };
    const answer = await call(app, { path: STATUS, payload });
    expect(answer.status).toBe(404); // authenticated, then not found
  });

  it('sandbox rule (the profile is silent): answers 400 when Content-Type is not application/json', async () => {
    expect((await call(app, { ...fresh(), headers: { 'Content-Type': 'text/plain' } })).status).toBe(400);
  });
});

describe('ReplayCache (P-AUTH-4)', () => {
  it('refuses a pair again within its window, and forgets each pair once its window has passed', () => {
    const cache = new ReplayCache();
    expect(cache.check('100', 'a', 1_000, 0)).toBe(false);
    expect(cache.check('100', 'a', 1_000, 500)).toBe(true);
    // Another signature at the same second is another pair.
    expect(cache.check('100', 'a2', 1_000, 600)).toBe(false);
    expect(cache.check('100', 'a2', 1_000, 700)).toBe(true);
    expect(cache.has('10', '0a')).toBe(false);
    expect(cache.check('200', 'b', 2_000, 900)).toBe(false);
    // Past the first pair's window: it is forgotten, the second kept.
    expect(cache.check('300', 'c', 3_000, 1_500)).toBe(false);
    expect([cache.has('100', 'a'), cache.has('200', 'b'), cache.has('300', 'c')]).toEqual([false, true, true]);
    // Past the next two windows: both forgotten, then the cache fills and empties again.
    expect(cache.check('400', 'd', 4_000, 3_500)).toBe(false);
    expect([cache.has('200', 'b'), cache.has('300', 'c'), cache.has('400', 'd')]).toEqual([false, false, true]);
    expect(cache.check('500', 'e', 5_000, 4_500)).toBe(false);
    expect([cache.has('400', 'd'), cache.has('500', 'e')]).toEqual([false, true]);
  });
});

describe('sandbox variants of authentication (P-AUTH-4, P-SIGN-6)', () => {
  const variant = (v: Partial<SandboxVariant>) => sandboxAt({ variant: v }).app;

  it('refuses or allows a replay, as configured', async () => {
    const c = fresh();
    const refusing = variant({ replay: 'refuse' });
    expect((await call(refusing, c)).status).toBe(200);
    expectAuthEnvelope(await call(refusing, c));
    const allowing = variant({ replay: 'allow' });
    expect((await call(allowing, c)).status).toBe(200);
    expect((await call(allowing, c)).status).toBe(200);
  });

  it('verifies the raw body, or a re-canonicalized parse', async () => {
    const c = fresh();
    const pretty = JSON.stringify(c.payload, null, 2);
    const signature = sign(c.payload);
    const sendPretty = (app: ReturnType<typeof variant>) => call(app, { path: STATUS, raw: pretty, signature });
    expect((await sendPretty(variant({ verify: 'raw' }))).status).toBe(401);
    expect((await sendPretty(variant({ verify: 'canonical' }))).status).toBe(200);
  });

  it('verifies the bytes as sent: a UTF-8 byte-order mark before a body signed without it is refused, and recorded', async () => {
    const c = fresh();
    const text = canonicalize(c.payload);
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-api-key': MERCHANT_A.apiKey,
      'x-timestamp': String(now),
      'x-signature': sign(c.payload),
    };
    for (const verify of ['raw', 'canonical'] as const) {
      const recorded: RecordedExchange[] = [];
      const { app } = sandboxAt({ variant: { verify }, record: (x) => recorded.push(x) });
      const answer = await app.handle(new Request(`${ORIGIN}${STATUS}`, { method: 'POST', headers, body: bytes }));
      expect(answer.status, verify).toBe(401);
      expect(recorded[0]?.body, verify).toBe(`\ufeff${text}`);
    }
  });

  it('uses the configured window', async () => {
    expect((await call(variant({ toleranceSeconds: 900 }), { ...fresh(), timestamp: now - 800 })).status).toBe(200);
    expect((await call(variant({ toleranceSeconds: 60 }), { ...fresh(), timestamp: now - 120 })).status).toBe(401);
  });

  function sign(payload: unknown): string {
    return signPayload({ payload, timestamp: now, secret: MERCHANT_A.secretKey }).signature;
  }
});

/**
 * Each fault of this area against one request that shows it: the answer without the fault, and
 * with it. The conformance suites are proven against these switches; here they are proven to switch.
 */
const faultCases: Array<[FaultName, () => Call | Call[], number, number]> = [
  ['auth-accept-missing-signature', () => ({ ...fresh(), headers: { 'X-SIGNATURE': null } }), 401, 200],
  [
    'auth-accept-missing-timestamp',
    () => {
      const c = fresh();
      return { ...c, headers: { 'X-TIMESTAMP': null }, signature: bodyOnly(c) };
    },
    401,
    200,
  ],
  ['auth-accept-unknown-key', () => ({ ...fresh(), merchant: { apiKey: 'pk_test_nobody', secretKey: MERCHANT_A.secretKey } }), 401, 200],
  ['auth-ignore-signature', () => ({ ...fresh(), signature: 'f'.repeat(64) }), 401, 200],
  [
    'auth-signature-prefix-compare',
    () => {
      const c = fresh();
      return { ...c, signature: signed(c).slice(0, 16) };
    },
    401,
    200,
  ],
  [
    'auth-signature-cache',
    () => {
      const c = fresh();
      return [c, { ...c, payload: { ...(c.payload as object), note: 'changed' }, signature: signed(c) }];
    },
    401,
    200,
  ],
  [
    'auth-timestamp-search',
    () => {
      const c = fresh();
      return { ...c, timestamp: now - 5, signature: signed(c) };
    },
    401,
    200,
  ],
  ['auth-no-window', () => ({ ...fresh(), timestamp: now - 86_400 }), 401, 200],
  ['auth-accept-milliseconds', () => ({ ...fresh(), timestamp: `${now}123` }), 401, 200],
  ['auth-accept-fractional-timestamp', () => ({ ...fresh(), timestamp: `${now}.25` }), 401, 200],
  ['auth-failure-403', () => ({ ...fresh(), signature: '0'.repeat(64) }), 401, 403],
  // A server that computes signatures another way refuses the profile's own: 200 without the fault, 401 with it…
  ['auth-verify-timestamp-omitted', () => fresh(), 200, 401],
  ['auth-verify-timestamp-first', () => fresh(), 200, 401],
  ['auth-verify-base64', () => fresh(), 200, 401],
  // …and accepts its own scheme, which a correct server refuses.
  [
    'auth-verify-timestamp-omitted',
    () => {
      const c = fresh();
      return { ...c, signature: bodyOnly(c) };
    },
    401,
    200,
  ],
  [
    'auth-verify-timestamp-first',
    () => {
      const c = fresh();
      return {
        ...c,
        signature: createHmac('sha256', MERCHANT_A.secretKey)
          .update(`${now}${canonicalize(c.payload)}`)
          .digest('hex'),
      };
    },
    401,
    200,
  ],
  [
    'auth-verify-base64',
    () => {
      const c = fresh();
      return {
        ...c,
        signature: createHmac('sha256', MERCHANT_A.secretKey)
          .update(`${canonicalize(c.payload)}${now}`)
          .digest('base64'),
      };
    },
    401,
    200,
  ],
  ['sign-escaped-slashes', () => ({ path: STATUS, payload: { ...known, note: 'a/b' } }), 200, 401],
  ['sign-ascii-only', () => ({ path: STATUS, payload: { ...known, note: 'Zoë' } }), 200, 401],
  ['sign-html-escaped', () => ({ path: STATUS, payload: { ...known, note: '<b>&' } }), 200, 401],
  // The suite holds only the sandbox secret, so the faulty sandbox verifies a production key with it.
  [
    'env-accept-production-key',
    () => ({ ...fresh(), merchant: { apiKey: MERCHANT_A_LIVE.apiKey, secretKey: MERCHANT_A.secretKey } }),
    403,
    200,
  ],
];

describe('fault switches of authentication, signing and environments change behaviour', () => {
  it.each(faultCases)('%s: %d without the fault, %d with it', async (fault, make, without, withFault) => {
    for (const [faults, expected] of [
      [[], without],
      [[fault], withFault],
    ] as const) {
      const { app } = sandboxAt({ faults });
      const calls = [make()].flat();
      let last: Awaited<ReturnType<typeof call>> | undefined;
      for (const c of calls) last = await call(app, c);
      expect(last!.status, `${fault} ${faults.length ? 'on' : 'off'}`).toBe(expected);
    }
  });

  it('env-accept-production-key serves the production key as the sandbox account, not with the live secret', async () => {
    const { app } = sandboxAt({ faults: ['env-accept-production-key'] });
    expectAuthEnvelope(await call(app, { ...fresh(), merchant: MERCHANT_A_LIVE }));
  });

  it('auth-failure-html answers a refused request with HTML, not the envelope (P-AUTH-5)', async () => {
    const bad = { ...fresh(), signature: '0'.repeat(64) };
    expect((await call(sandboxAt().app, bad)).contentType).toMatch(/^application\/json/);
    const faulty = await call(sandboxAt({ faults: ['auth-failure-html'] }).app, bad);
    expect(faulty.status).toBe(401);
    expect(faulty.contentType).toMatch(/^text\/html/);
  });

  it.each<[FaultName, (json: Answer['json'], contentType: string) => void]>([
    ['errors-code-mismatch', (json) => expect(json.code).toBe(400)],
    ['errors-status-as-text', (json) => expect(json.status).toBe('false')],
    ['errors-code-as-text', (json) => expect(json.code).toBe('401')],
    ['errors-empty-message', (json) => expect(json.message).toBe('')],
    ['errors-text-plain', (_json, contentType) => expect(contentType).toMatch(/^text\/plain/)],
  ])('%s changes the error envelope of a refused request', async (fault, check) => {
    const bad = { ...fresh(), signature: '0'.repeat(64) };
    expectAuthEnvelope(await call(sandboxAt().app, bad));
    const faulty = await call(sandboxAt({ faults: [fault] }).app, bad);
    expect(faulty.status).toBe(401);
    check(faulty.json, faulty.contentType);
  });

  it('auth-failure-creates-order stores an order whose create was refused (P-AUTH-5)', async () => {
    const order = {
      order_id: 'AUTH-FAIL-1',
      order_amount: 10,
      order_currency: 'INR',
      service_type: 'payment',
      return_url: 'https://shop.example/r',
      customer: {
        name: 'A',
        email: 'a@example.com',
        phone: '+911234567890',
        address: { line1: '1', city: 'Pune', state: 'MH', country: 'IN', postal_code: '411001' },
      },
    };
    const create = { path: '/api/v3/pg/order/create', payload: order };
    for (const [faults, second] of [
      [[], 201],
      [['auth-failure-creates-order'], 409],
    ] as const) {
      const { app } = sandboxAt({ faults });
      expectAuthEnvelope(await call(app, { ...create, signature: '0'.repeat(64) }));
      expect((await call(app, create)).status, faults.join() || 'no fault').toBe(second);
    }
  });

  it('never answers 5xx for a signature of the right length in non-ASCII, under the lenient-timestamp faults either', async () => {
    const odd = 'é'.repeat(64);
    for (const faults of [
      [],
      ['auth-accept-milliseconds'],
      ['auth-accept-fractional-timestamp'],
      ['auth-accept-missing-timestamp'],
    ] as const) {
      const { app } = sandboxAt({ faults });
      const timestamp =
        faults[0] === 'auth-accept-milliseconds' ? `${now}123` : faults[0] === 'auth-accept-fractional-timestamp' ? `${now}.5` : now;
      const headers: Record<string, string | null> = faults[0] === 'auth-accept-missing-timestamp' ? { 'X-TIMESTAMP': null } : {};
      const answer = await call(app, { ...fresh(), timestamp, headers, signature: odd });
      expect(answer.status, faults.join() || 'no fault').toBe(401);
    }
  });

  it('errors-invalid-json-500 answers invalid JSON with 500 instead of 400', async () => {
    const bad = { path: STATUS, raw: '{"svc_wallet_id": ' };
    expect((await call(sandboxAt().app, bad)).status).toBe(400);
    expect((await call(sandboxAt({ faults: ['errors-invalid-json-500'] }).app, bad)).status).toBe(500);
  });
});

function signed(c: Call, timestamp = now): string {
  return signPayload({ payload: c.payload, timestamp, secret: MERCHANT_A.secretKey }).signature;
}

/** The HMAC of the body alone, as a client that omits the timestamp signs it. */
function bodyOnly(c: Call): string {
  return createHmac('sha256', MERCHANT_A.secretKey).update(canonicalize(c.payload)).digest('hex');
}
