import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../sandbox/options.js';
import { MERCHANT_A, MERCHANT_A_LIVE, MERCHANT_B } from '../sandbox/tenants.js';
import { canonicalize } from '../signer/canonical.js';
import { clientCatalog, judgeClient } from './judge.js';

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const ORDER = {
  order_id: 'ORD-1',
  order_amount: 10.5,
  order_currency: 'INR',
  service_type: 'payment',
  return_url: 'https://shop.example/r?x=1',
  customer: {
    name: 'José',
    email: 'j@example.com',
    phone: '+911234567890',
    address: { line1: '1 Road', city: 'Pune', state: 'MH', country: 'IN', postal_code: '411001' },
  },
};
const PAYOUT = {
  svc_wallet_id: MERCHANT_A.walletId,
  debit_account_type: 'svc_wallet',
  payout_order_id: 'PO-1',
  amount: 10,
  currency: 'INR',
  transfer_mode: 'imps',
  beneficiary: { name: 'A' },
};

interface Step {
  path: string;
  payload?: unknown;
  /** The body text as sent, when not the canonical text of payload. */
  body?: string;
  at: number;
  /** Seconds the answer took. */
  took?: number;
  status?: number;
  response?: unknown;
  retryAfter?: string;
  timestamp?: string;
  headers?: Record<string, string | null>;
  signWith?: (body: string, timestamp: string) => string;
  /** The sandbox's number of the connection it came on. */
  connection?: number;
}

/** A client's traffic as the sandbox would have recorded it; every request signed correctly unless told. */
function traffic(steps: Step[]): RecordedExchange[] {
  return steps.map((s) => {
    const body = s.body ?? (s.payload === undefined ? '' : canonicalize(s.payload));
    const receivedAt = T0 + s.at * 1000;
    const timestamp = s.timestamp ?? String(Math.floor(receivedAt / 1000));
    const signature = s.signWith
      ? s.signWith(body, timestamp)
      : createHmac('sha256', MERCHANT_A.secretKey)
          .update(body + timestamp)
          .digest('hex');
    const headers: Record<string, string | null> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-api-key': MERCHANT_A.apiKey,
      'x-timestamp': timestamp,
      'x-signature': signature,
      ...s.headers,
    };
    return {
      method: 'POST',
      path: s.path,
      headers: Object.entries(headers).filter((e): e is [string, string] => e[1] !== null),
      body,
      receivedAt,
      respondedAt: receivedAt + (s.took ?? 0.01) * 1000,
      status: s.status ?? 200,
      responseBody: JSON.stringify(s.response ?? {}),
      ...(s.retryAfter ? { retryAfter: s.retryAfter } : {}),
      ...(s.connection !== undefined ? { connection: s.connection } : {}),
    };
  });
}

function verdicts(steps: Step[]): Record<string, string> {
  const { results } = judgeClient({
    exchanges: traffic(steps),
    baseUrl: 'http://127.0.0.1:1',
    merchant: MERCHANT_A,
    otherEnvironment: { apiKeys: [MERCHANT_A_LIVE.apiKey], walletIds: [MERCHANT_A_LIVE.walletId] },
    toleranceSeconds: 300,
  });
  return Object.fromEntries(results.map((r) => [r.meta.requirement, r.state + (r.meta.failure ? `: ${r.meta.failure.message}` : '')]));
}

const CREATE = '/api/v3/pg/order/create';
const ORDER_STATUS = '/api/v3/pg/order/status';
const BALANCE = '/api/v3/banking/balance';
const INITIATE = '/api/v3/banking/payment/initiate';
const PAYOUT_STATUS = '/api/v3/banking/payment/status';

/** A conforming client's flow, including a 503 and its recovery. */
const GOOD: Step[] = [
  { path: CREATE, payload: ORDER, at: 0, status: 503 },
  { path: ORDER_STATUS, payload: { order_id: 'ORD-1' }, at: 1, status: 404 },
  { path: CREATE, payload: ORDER, at: 2, status: 201, response: { return_data: { svc_order_id: 'SVC-1' } } },
  { path: BALANCE, payload: { svc_wallet_id: MERCHANT_A.walletId }, at: 3 },
  { path: INITIATE, payload: PAYOUT, at: 4, response: { data: { status: 'PROCESSING' } } },
  {
    path: PAYOUT_STATUS,
    payload: { svc_wallet_id: MERCHANT_A.walletId, debit_account_type: 'svc_wallet', payout_order_id: 'PO-1' },
    at: 5,
  },
];

describe('judging a client by its traffic (P-CLIENT)', () => {
  it('passes a conforming client on every rule it exercised', () => {
    const v = verdicts(GOOD);
    const failed = Object.entries(v).filter(([, s]) => s.startsWith('failed'));
    expect(failed).toEqual([]);
    expect(v['CLIENT-RETRY-AFTER-STATUS']).toBe('passed');
    expect(v['CLIENT-VERIFY-ORDER']).toMatch(/^skipped/);
  });

  it('P-AMOUNT: passes a client that sends amounts as decimal strings, with lower-case headers and integer ids', () => {
    const strings = GOOD.map((step) => {
      const payload = step.payload as Record<string, unknown> | undefined;
      if (step.path === CREATE) return { ...step, payload: { ...payload, order_amount: '10.50', order_id: 1001 } };
      if (step.path === ORDER_STATUS) return { ...step, payload: { order_id: 1001 } };
      if (step.path === INITIATE) return { ...step, payload: { ...payload, amount: '10.00' } };
      return step;
    });
    const failed = Object.entries(verdicts(strings)).filter(([, s]) => s.startsWith('failed'));
    expect(failed).toEqual([]);
  });

  it.each([['1,499.50'], ['₹150'], ['1e3'], ['-5'], ['0.00'], ['']])(
    'P-AMOUNT: an order_amount of %j fails CLIENT-REQUEST-SCHEMA, and only it',
    (amount) => {
      const v = verdicts([{ path: CREATE, payload: { ...ORDER, order_amount: amount }, at: 0, status: 400 }]);
      expect(
        Object.entries(v)
          .filter(([, s]) => s.startsWith('failed'))
          .map(([id]) => id),
      ).toEqual(['CLIENT-REQUEST-SCHEMA']);
    },
  );

  it('judges every requirement of the client catalog', () => {
    expect(Object.keys(verdicts(GOOD)).sort()).toEqual(
      clientCatalog()
        .map((r) => r.id)
        .sort(),
    );
  });

  it.each<[string, (steps: Step[]) => Step[], RegExp]>([
    ['CLIENT-HEADERS', (s) => [{ ...s[3]!, headers: { accept: null } }], /no Accept header \(application\/json wanted\)/],
    ['CLIENT-OPERATION', () => [{ path: '/api/v2/order/create', payload: ORDER, at: 0 }], /not an operation/],
    [
      'CLIENT-SIGNATURE',
      () => [
        {
          path: CREATE,
          payload: ORDER,
          at: 0,
          signWith: (b, t) =>
            createHmac('sha256', MERCHANT_A.secretKey)
              .update(b.replaceAll('/', '\\/') + t)
              .digest('hex'),
        },
      ],
      /diagnose: escaped-slashes/,
    ],
    [
      'CLIENT-CANONICAL-BODY',
      () => [{ path: CREATE, payload: ORDER, body: JSON.stringify(ORDER).replaceAll('/', '\\/'), at: 0 }],
      /not the canonical text.*escaped-slashes/,
    ],
    [
      'CLIENT-TIMESTAMP-SECONDS',
      () => [{ path: BALANCE, payload: { svc_wallet_id: 'w' }, at: 0, timestamp: String(T0 + 5) }],
      /milliseconds/,
    ],
    [
      'CLIENT-TIMESTAMP-WINDOW',
      () => [{ path: BALANCE, payload: { svc_wallet_id: 'w' }, at: 0, timestamp: String(T0 / 1000 - 3600) }],
      /-3600 s from the server's clock/,
    ],
    [
      'CLIENT-NO-REUSE',
      () => [
        { path: BALANCE, payload: { svc_wallet_id: 'w' }, at: 0 },
        { path: BALANCE, payload: { svc_wallet_id: 'w' }, at: 0.5 },
      ],
      /re-sends the timestamp and signature of request #1/,
    ],
    [
      'CLIENT-NO-SECRET',
      () => [{ path: BALANCE, payload: { svc_wallet_id: 'w' }, at: 0, headers: { 'x-secret': MERCHANT_A.secretKey } }],
      /sends the secret key \(or an encoding of it\) in header x-secret/,
    ],
    ['CLIENT-ENVIRONMENT', () => [{ path: BALANCE, payload: { svc_wallet_id: MERCHANT_A_LIVE.walletId }, at: 0 }], /production wallet/],
    [
      'CLIENT-REQUEST-SCHEMA',
      () => [{ path: CREATE, payload: { ...ORDER, customer: { name: 'x' } }, at: 0 }],
      /does not satisfy order-create-request/,
    ],
    [
      'CLIENT-FRESH-ORDER-ID',
      () => [
        { path: CREATE, payload: ORDER, at: 0, status: 201 },
        { path: CREATE, payload: { ...ORDER, order_amount: 99 }, at: 1, status: 409 },
      ],
      /for a new order, already used by request #1/,
    ],
    [
      'CLIENT-FRESH-PAYOUT-ID',
      () => [
        { path: INITIATE, payload: PAYOUT, at: 0 },
        { path: INITIATE, payload: { ...PAYOUT, amount: 20 }, at: 1, status: 409 },
      ],
      /for a new payout/,
    ],
    [
      'CLIENT-RETRY-AFTER-STATUS',
      () => [
        { path: CREATE, payload: ORDER, at: 0, status: 503 },
        { path: CREATE, payload: ORDER, at: 0.1, status: 201 },
      ],
      /answered 503; request #2 repeats it without asking Order Status/,
    ],
    [
      'CLIENT-BACKOFF-429',
      () => [
        { path: CREATE, payload: ORDER, at: 0, status: 429, retryAfter: '1' },
        { path: ORDER_STATUS, payload: { order_id: 'ORD-1' }, at: 0.2, status: 404 },
      ],
      /after the 429 of request #1/,
    ],
    [
      'CLIENT-VERIFY-PAYOUT',
      () => [{ path: INITIATE, payload: PAYOUT, at: 0, response: { data: { status: 'PENDING' } } }],
      /never asked Payout Status/,
    ],
    ['CLIENT-BALANCE-FIRST', () => [{ path: INITIATE, payload: PAYOUT, at: 0 }], /no Balance Inquiry before it/],
  ])('%s fails on traffic that breaks it, naming the request', (requirement, make, message) => {
    expect(verdicts(make(GOOD))[requirement]).toMatch(new RegExp(`^failed: .*${message.source}`));
  });

  it("shows a client's wrong X-SIGNATURE in the evidence (what CLIENT-SIGNATURE judges) and redacts a right one (a request anyone holding the report could send again)", () => {
    const evidenceOf = (steps: Step[], requirement: string) =>
      judgeClient({
        exchanges: traffic(steps),
        baseUrl: 'http://127.0.0.1:1',
        merchant: MERCHANT_A,
        otherEnvironment: { apiKeys: [MERCHANT_A_LIVE.apiKey], walletIds: [MERCHANT_A_LIVE.walletId] },
        toleranceSeconds: 300,
      }).results.find((r) => r.meta.requirement === requirement)!.meta.evidence[0]!.request.headers;
    const wrong = createHmac('sha256', MERCHANT_A.secretKey).update('not the body').digest('hex');
    expect(evidenceOf([{ path: CREATE, payload: ORDER, at: 0, signWith: () => wrong }], 'CLIENT-SIGNATURE')['x-signature']).toBe(wrong);
    // Signed right over the bytes sent, and over the canonical text of bytes sent otherwise: both redacted.
    expect(evidenceOf([{ path: CREATE, payload: ORDER, at: 0, headers: { accept: null } }], 'CLIENT-HEADERS')['x-signature']).toBe(
      '[redacted]',
    );
    const sent = JSON.stringify(ORDER, null, 1);
    const canonicalSigned = evidenceOf(
      [
        {
          path: CREATE,
          payload: ORDER,
          body: sent,
          at: 0,
          signWith: (_b, t) =>
            createHmac('sha256', MERCHANT_A.secretKey)
              .update(canonicalize(ORDER) + t)
              .digest('hex'),
        },
      ],
      'CLIENT-CANONICAL-BODY',
    );
    expect(canonicalSigned['x-signature']).toBe('[redacted]');
  });

  it('says what a non-canonical body meets from what happened: signed as sent, a raw-bytes server takes it; signed canonical and sent otherwise, the sandbox answered 401', () => {
    const sent = JSON.stringify(ORDER).replaceAll('/', '\\/');
    const signedAsSent = verdicts([{ path: CREATE, payload: ORDER, body: sent, at: 0, status: 201 }]);
    expect(signedAsSent['CLIENT-CANONICAL-BODY']).toMatch(
      /its signature covers these bytes: a server verifying raw bytes takes it \(the sandbox, which verifies the raw bytes, answered 201\), one that re-canonicalizes refuses it\)$/,
    );
    const signedCanonical = verdicts([
      {
        path: CREATE,
        payload: ORDER,
        body: sent,
        at: 0,
        status: 401,
        signWith: (_b, t) =>
          createHmac('sha256', MERCHANT_A.secretKey)
            .update(canonicalize(ORDER) + t)
            .digest('hex'),
      },
    ]);
    expect(signedCanonical['CLIENT-SIGNATURE']).toMatch(/diagnose: body-not-canonical/);
    expect(signedCanonical['CLIENT-CANONICAL-BODY']).toMatch(
      /its signature covers the canonical text, not these bytes: a server verifying raw bytes refuses it \(the sandbox, which verifies the raw bytes, answered 401\), one that re-canonicalizes takes it\)$/,
    );
    const signedOtherwise = verdicts([{ path: CREATE, payload: ORDER, body: sent, at: 0, status: 401, signWith: () => 'ab'.repeat(32) }]);
    expect(signedOtherwise['CLIENT-CANONICAL-BODY']).toMatch(
      /its signature covers neither these bytes nor the canonical text \(CLIENT-SIGNATURE says what it covers\): servers of either kind refuse it; the sandbox, which verifies the raw bytes, answered 401\)$/,
    );
  });

  it('judges the bytes as sent: a UTF-8 byte-order mark before a body signed without it fails the signature and the canonical body, naming the mark', () => {
    const bom = (step: Step): Step => ({
      ...step,
      body: `\ufeff${canonicalize(step.payload)}`,
      signWith: (b, t) =>
        createHmac('sha256', MERCHANT_A.secretKey)
          .update(b.replace(/^\ufeff/, '') + t)
          .digest('hex'),
    });
    const v = verdicts(GOOD.map(bom));
    expect(
      Object.entries(v)
        .filter(([, s]) => s.startsWith('failed'))
        .map(([id]) => id)
        .sort(),
    ).toEqual(['CLIENT-CANONICAL-BODY', 'CLIENT-SIGNATURE']);
    expect(v['CLIENT-SIGNATURE']).toMatch(/^failed: request #1 \(Create Order\): .*byte-order mark \(EF BB BF\)/);
    expect(v['CLIENT-CANONICAL-BODY']).toMatch(/^failed: request #1 \(Create Order\): .*byte-order mark \(EF BB BF\)/);
    // Signed over the mark too: the signature covers the bytes sent, the body is still not canonical.
    const signedWithMark = verdicts(GOOD.map((step) => ({ ...step, body: `\ufeff${canonicalize(step.payload)}` })));
    expect(signedWithMark['CLIENT-SIGNATURE']).toBe('passed');
    expect(signedWithMark['CLIENT-CANONICAL-BODY']).toMatch(/byte-order mark/);
  });

  it('treats an answer the client never saw (it moved on first) as a failure in doubt', () => {
    const hung: Step[] = [
      { path: CREATE, payload: ORDER, at: 0, took: 30, status: 201 },
      { path: CREATE, payload: ORDER, at: 3, status: 409 },
    ];
    expect(verdicts(hung)['CLIENT-RETRY-AFTER-STATUS']).toMatch(/got no answer \(the client gave up waiting\); request #2 repeats it/);
    expect(verdicts(hung)['CLIENT-FRESH-ORDER-ID']).toBe('passed');
    const recovered: Step[] = [hung[0]!, { path: ORDER_STATUS, payload: { order_id: 'ORD-1' }, at: 3 }];
    expect(verdicts(recovered)['CLIENT-RETRY-AFTER-STATUS']).toBe('passed');
  });

  it('skips, with the reason, every rule the traffic did not exercise, and judges a silent client as having sent nothing', () => {
    const v = verdicts([{ path: BALANCE, payload: { svc_wallet_id: MERCHANT_A.walletId }, at: 0 }]);
    expect(v['CLIENT-FRESH-PAYOUT-ID']).toBe('skipped');
    const silent = verdicts([]);
    expect(silent['CLIENT-SENDS-REQUESTS']).toBe('failed: the client sent no request of its own to SVC_BASE_URL');
    expect(
      Object.entries(silent)
        .filter(([id]) => id !== 'CLIENT-SENDS-REQUESTS')
        .every(([, s]) => s === 'skipped'),
    ).toBe(true);
    expect(v['CLIENT-SENDS-REQUESTS']).toBe('passed');
  });

  it('finds the secret sent encoded, and in the query', () => {
    const basic = Buffer.from(`${MERCHANT_A.apiKey}:${MERCHANT_A.secretKey}`).toString('base64');
    expect(
      verdicts([{ path: BALANCE, payload: { svc_wallet_id: 'w' }, at: 0, headers: { authorization: `Basic ${basic}` } }])[
        'CLIENT-NO-SECRET'
      ],
    ).toMatch(/in header authorization/);
    const base64 = Buffer.from(MERCHANT_A.secretKey).toString('base64');
    expect(verdicts([{ path: BALANCE, payload: { svc_wallet_id: 'w', token: base64 }, at: 0 }])['CLIENT-NO-SECRET']).toMatch(/in the body/);
    expect(
      verdicts([{ path: `${BALANCE}?key=${MERCHANT_A.secretKey}`, payload: { svc_wallet_id: 'w' }, at: 0 }])['CLIENT-NO-SECRET'],
    ).toMatch(/in the query/);
    // The forms the redactor knows are the forms the judge finds: upper-case hex, base64url.
    const hexUpper = Buffer.from(MERCHANT_A.secretKey).toString('hex').toUpperCase();
    expect(
      verdicts([{ path: BALANCE, payload: { svc_wallet_id: 'w' }, at: 0, headers: { 'x-debug': hexUpper } }])['CLIENT-NO-SECRET'],
    ).toMatch(/in header x-debug/);
    const base64url = Buffer.from(`\u00ff${MERCHANT_A.secretKey}`).toString('base64url');
    expect(verdicts([{ path: BALANCE, payload: { svc_wallet_id: 'w', token: base64url }, at: 0 }])['CLIENT-NO-SECRET']).toMatch(
      /in the body/,
    );
  });

  it('does not take a parallel request for a client giving up, nor for not waiting after a 429', () => {
    const parallel: Step[] = [
      { path: CREATE, payload: ORDER, at: 0, took: 2, status: 201 },
      { path: BALANCE, payload: { svc_wallet_id: MERCHANT_A.walletId }, at: 0.5 },
      { path: CREATE, payload: { ...ORDER, order_amount: 99 }, at: 3, status: 409 },
    ];
    // The first create was answered: reusing its order_id is a new order with a used id, not a retry.
    expect(verdicts(parallel)['CLIENT-FRESH-ORDER-ID']).toMatch(/^failed: request #3 uses order_id "ORD-1" for a new order/);
    const inFlight: Step[] = [
      { path: CREATE, payload: ORDER, at: 0, status: 429, retryAfter: '1', took: 0.05 },
      { path: BALANCE, payload: { svc_wallet_id: MERCHANT_A.walletId }, at: 0.01 },
      { path: ORDER_STATUS, payload: { order_id: 'ORD-1' }, at: 1.2, status: 404 },
    ];
    expect(verdicts(inFlight)['CLIENT-BACKOFF-429']).toBe('passed');
  });

  describe('CLIENT-BACKOFF-429 judges only what the client could have sent after reading the 429', () => {
    const other = (n: number) => ({ ...ORDER, order_id: `ORD-${n}` });
    // Request #1 is answered 429 5 ms after it arrived; Retry-After: 1.
    const limited: Step = { path: CREATE, payload: ORDER, at: 0, status: 429, retryAfter: '1', took: 0.005 };
    const recovery: Step[] = [
      { path: ORDER_STATUS, payload: { order_id: 'ORD-1' }, at: 1.1, status: 404 },
      { path: CREATE, payload: ORDER, at: 1.2, status: 201 },
    ];

    it('passes a concurrent client: creates of other orders already on the wire when the 429 was answered', () => {
      const concurrent: Step[] = [
        limited,
        { path: CREATE, payload: other(2), at: 0.002, status: 201 }, // arrived before the 429 was answered
        { path: CREATE, payload: other(3), at: 0.03, status: 201 }, // 25 ms after it: sent before the client could read it
        { path: CREATE, payload: other(4), at: 0.08, status: 201 }, // 75 ms after it, still within the bound
        ...recovery,
      ];
      expect(verdicts(concurrent)['CLIENT-BACKOFF-429']).toBe('passed');
    });

    it("passes requests that waited in the sandbox's own queue: begun long after the 429, but arrived with it", () => {
      const queued: Step[] = [
        limited,
        { path: CREATE, payload: other(2), at: 0.004, status: 201, took: 0.5 }, // the sandbox's first create: schemas compiled
        { path: CREATE, payload: other(3), at: 0.51, status: 201 }, // begun 6 ms after it ended: it was waiting
        { path: CREATE, payload: other(4), at: 0.525, status: 201 },
        ...recovery,
      ];
      expect(verdicts(queued)['CLIENT-BACKOFF-429']).toBe('passed');
    });

    it('warns on a pool that keeps sending over its keep-alive connections: each request came after the answer before it', () => {
      // Connection 2 carries a new create every 12 ms, each sent once the one before was answered.
      const pool: Step[] = [{ ...limited, connection: 1 }];
      for (let i = 0; i < 12; i++) pool.push({ path: CREATE, payload: other(10 + i), at: 0.002 + i * 0.012, status: 201, connection: 2 });
      expect(verdicts([...pool, ...recovery])['CLIENT-BACKOFF-429']).toMatch(
        /^failed: request #11 came 1\d\d ms after the 429 of request #1/,
      );
      // The same traffic with no connection known: the queue alone cannot tell it apart from requests waiting.
      expect(verdicts([limited, ...pool.slice(1).map(({ connection: _, ...step }) => step), ...recovery])['CLIENT-BACKOFF-429']).toBe(
        'passed',
      );
    });

    it.each<[string, Step]>([
      ['a retry of the same order at once', { path: CREATE, payload: ORDER, at: 0.02, status: 201 }],
      ['a status query about that order at once', { path: ORDER_STATUS, payload: { order_id: 'ORD-1' }, at: 0.02, status: 404 }],
      ['a new create well after the 429 was answered, without waiting', { path: CREATE, payload: other(5), at: 0.4, status: 201 }],
      ['a Balance Inquiry well after the 429 was answered', { path: BALANCE, payload: { svc_wallet_id: MERCHANT_A.walletId }, at: 0.3 }],
    ])('warns on %s', (_name, reaction) => {
      expect(verdicts([limited, reaction, ...recovery])['CLIENT-BACKOFF-429']).toMatch(
        /^failed: request #2 came \d+ ms after the 429 of request #1, which said Retry-After: 1/,
      );
    });
  });

  describe("judge: 'own' (verify-client): only the client's requests, by the keys of the run", () => {
    const asB = { 'x-api-key': MERCHANT_B.apiKey };
    const signedByB = (b: string, t: string) =>
      createHmac('sha256', MERCHANT_B.secretKey)
        .update(b + t)
        .digest('hex');
    const judgeOwn = (steps: Step[]) =>
      judgeClient({
        exchanges: traffic(steps),
        baseUrl: 'http://127.0.0.1:1',
        merchant: MERCHANT_A,
        otherEnvironment: { apiKeys: [MERCHANT_A_LIVE.apiKey], walletIds: [MERCHANT_A_LIVE.walletId] },
        toleranceSeconds: 300,
        judge: 'own',
      });
    const states = (j: ReturnType<typeof judgeOwn>) =>
      Object.fromEntries(j.results.map((r) => [r.meta.requirement, r.state + (r.meta.failure ? `: ${r.meta.failure.message}` : '')]));

    it("sets another merchant's requests aside, counted and noted, and judges the rest as if they were alone", () => {
      const foreign: Step[] = [
        { path: BALANCE, payload: { svc_wallet_id: MERCHANT_B.walletId }, at: 0.5, headers: asB, signWith: signedByB },
        { path: CREATE, payload: { ...ORDER, order_id: 'B-1' }, at: 2.5, headers: asB, signWith: signedByB, status: 201 },
        { path: '/wp-login.php', at: 3.5, headers: { 'x-api-key': null, 'x-signature': null, 'x-timestamp': null }, status: 404 },
      ];
      const judged = judgeOwn([...GOOD, ...foreign]);
      expect(judged).toMatchObject({
        apiRequests: GOOD.length,
        foreignRequests: 3,
        notes: [
          "3 requests not from the client (neither with the API key of this run nor signed with its secret) were not judged; 2 of them carry a demo merchant's API key, which is public: a client must use SVC_API_KEY and SVC_SECRET_KEY, new for every run",
        ],
      });
      expect(states(judged)).toEqual(verdicts(GOOD));
    });

    it('fails a client that sent nothing of its own, whatever else arrived', () => {
      const judged = judgeOwn([
        { path: BALANCE, payload: { svc_wallet_id: MERCHANT_B.walletId }, at: 0, headers: asB, signWith: signedByB },
      ]);
      expect(states(judged)['CLIENT-SENDS-REQUESTS']).toBe('failed: the client sent no request of its own to SVC_BASE_URL');
      expect(judged.notes).toEqual([
        expect.stringMatching(/^1 request not from the client .* was not judged; it carries a demo merchant's API key/),
      ]);
    });

    it.each<[string, Step, string[]]>([
      [
        'X-API-KEY forgotten, signed with the secret of the run',
        { path: BALANCE, payload: { svc_wallet_id: MERCHANT_A.walletId }, at: 0, headers: { 'x-api-key': null } },
        ['CLIENT-HEADERS'],
      ],
      [
        'X-API-KEY forgotten and the body pretty-printed (diagnose finds the secret)',
        {
          path: BALANCE,
          payload: { svc_wallet_id: MERCHANT_A.walletId },
          body: JSON.stringify({ svc_wallet_id: MERCHANT_A.walletId }, null, 2),
          at: 0,
          headers: { 'x-api-key': null },
          signWith: (_b, t) =>
            createHmac('sha256', MERCHANT_A.secretKey)
              .update(JSON.stringify({ svc_wallet_id: MERCHANT_A.walletId }, null, 2) + t)
              .digest('hex'),
        },
        ['CLIENT-CANONICAL-BODY', 'CLIENT-HEADERS'],
      ],
      [
        "another merchant's key, signed with the secret of the run",
        { path: BALANCE, payload: { svc_wallet_id: MERCHANT_A.walletId }, at: 0, headers: asB },
        [],
      ],
      [
        'no signature, but the secret of the run in a header',
        {
          path: BALANCE,
          payload: { svc_wallet_id: 'w' },
          at: 0,
          headers: { 'x-api-key': null, 'x-signature': null, authorization: `Bearer ${MERCHANT_A.secretKey}` },
        },
        ['CLIENT-HEADERS', 'CLIENT-NO-SECRET'],
      ],
    ])("judges a request as the client's: %s", (_name, step, failing) => {
      const judged = judgeOwn([step]);
      expect(judged).toMatchObject({ apiRequests: 1, foreignRequests: 0, notes: [] });
      expect(
        judged.results
          .filter((r) => r.state === 'failed')
          .map((r) => r.meta.requirement)
          .sort(),
      ).toEqual(failing);
    });

    it("takes the checkout page of an order the client created for its customer's, and another's for foreign", () => {
      const created: Step = { path: CREATE, payload: ORDER, at: 0, status: 201, response: { return_data: { svc_order_id: 'SVC-1' } } };
      const page = (svcOrderId: string, at: number): Step => ({
        path: `/checkout/${svcOrderId}`,
        at,
        headers: { 'x-api-key': null, 'x-signature': null, 'x-timestamp': null, 'content-type': 'application/x-www-form-urlencoded' },
      });
      const judged = judgeOwn([created, page('SVC-1', 1), page('SVC-9', 2)]);
      expect(judged.foreignRequests).toBe(1);
      expect(states(judged)['CLIENT-VERIFY-ORDER']).toMatch(/^failed: the customer of order "ORD-1" returned from checkout \(request #2\)/);
    });

    it('takes a checkout path with a malformed escape for no order of the client, without throwing', () => {
      const created: Step = { path: CREATE, payload: ORDER, at: 0, status: 201, response: { return_data: { svc_order_id: 'SVC-1' } } };
      const page: Step = { path: '/checkout/%E0%A4%A', at: 1, headers: { 'x-api-key': null, 'x-signature': null, 'x-timestamp': null } };
      expect(judgeOwn([created, page]).foreignRequests).toBe(1);
      expect(verdicts([created, page])['CLIENT-VERIFY-ORDER']).toBe('passed');
    });
  });

  it('keeps the secret and the signatures out of the evidence', () => {
    const { results } = judgeClient({
      exchanges: traffic([
        {
          path: `${BALANCE}?secret=${MERCHANT_A.secretKey}`,
          payload: { svc_wallet_id: 'w', note: MERCHANT_A.secretKey },
          at: 0,
          headers: { 'x-secret': MERCHANT_A.secretKey },
        },
      ]),
      baseUrl: 'http://127.0.0.1:1',
      merchant: MERCHANT_A,
      otherEnvironment: { apiKeys: [], walletIds: [] },
      toleranceSeconds: 300,
    });
    const text = JSON.stringify(results);
    expect(text).not.toContain(MERCHANT_A.secretKey);
    expect(text).not.toMatch(/[0-9a-f]{64}/);
  });
});
