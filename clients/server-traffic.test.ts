import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';
import type { ObservedExchange } from './har-input.js';
import { judgeServerTraffic } from './server-traffic.js';
import { classify } from './traffic.js';

const merchant = { apiKey: 'pk_test_traffic', secretKey: 'sk_test_traffic_secret' };
const NOW = 1_790_000_000_000;
const ORDER = { order_id: 'T-1', order_amount: '10.00', order_currency: 'INR' };
/** A create envelope answered with 201, as the schema's examples have it. */
const CREATED = (
  JSON.parse(readFileSync(new URL('../schemas/examples/create-order-envelope.json', import.meta.url), 'utf8')) as Array<{
    data: { code: string };
  }>
).find((e) => e.data.code === '201')!.data;
const ERROR = (code: number) => ({ status: false, code, message: 'refused' });
const createdFor = (body: unknown) => {
  const orderId = (body as { order_id?: unknown }).order_id;
  return {
    ...CREATED,
    return_data: {
      ...(CREATED as unknown as { return_data: object }).return_data,
      order_id: orderId,
      svc_order_id: `svc-${String(orderId)}`,
    },
  };
};

interface Sent {
  path?: string;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string | undefined>;
  status: number;
  answer: unknown;
  contentType?: string | null;
  at?: number;
}

/** One observed exchange, signed with the merchant's secret unless its headers say otherwise. */
function exchange({
  path = '/api/v3/pg/order/create',
  body = ORDER,
  raw,
  headers = {},
  status,
  answer,
  contentType = 'application/json',
  at = 0,
}: Sent): ObservedExchange {
  const text = raw ?? canonicalize(body);
  const timestamp = String(Math.floor((NOW + at) / 1000));
  const all: Record<string, string | undefined> = {
    'x-api-key': merchant.apiKey,
    'x-timestamp': timestamp,
    'x-signature': hmacSha256Hex(merchant.secretKey, text + timestamp),
    ...headers,
  };
  return {
    method: 'POST',
    path,
    headers: Object.entries(all).flatMap(([n, v]) => (v === undefined ? [] : [[n, v] as [string, string]])),
    body: text,
    receivedAt: NOW + at,
    respondedAt: NOW + at + 5,
    status,
    // The create envelope, answered for the order sent: its order_id echoed, a service id of its own.
    responseBody: JSON.stringify(answer === CREATED ? createdFor(JSON.parse(text)) : answer),
    responseHeaders: contentType === null ? [] : [['content-type', contentType]],
  };
}

const judged = (xs: ObservedExchange[], withSecret = true) =>
  judgeServerTraffic({ requests: classify(xs), ...(withSecret ? { merchant } : {}), toleranceSeconds: 300 });
const status = (xs: ObservedExchange[], id: string, withSecret = true) =>
  judged(xs, withSecret).outcomes.find(([rule]) => rule === id)?.[1].status;

describe('the server side of observed traffic', () => {
  it('passes a server that takes what is signed right and refuses what is not, however the client signed', () => {
    const xs = [
      exchange({ status: 201, answer: CREATED }),
      exchange({ headers: { 'x-signature': undefined }, status: 401, answer: ERROR(401), at: 1 }),
      // Signed over bytes that are not canonical: a server that verifies the raw bytes may take it (P-SIGN-6).
      exchange({
        raw: JSON.stringify({ order_currency: 'INR', order_id: 'T-2', order_amount: '1.00' }),
        status: 201,
        answer: CREATED,
        at: 2,
      }),
      exchange({ body: { ...ORDER }, status: 409, answer: ERROR(409), at: 3 }),
    ];
    const { outcomes, couldNotJudge } = judged(xs);
    expect(outcomes.filter(([, o]) => o.status === 'failed')).toEqual([]);
    expect(couldNotJudge).toEqual([]);
    expect(status(xs, 'AUTH-ACCEPT')).toBe('passed');
    expect(status(xs, 'DUP-SEQUENTIAL')).toBe('passed');
  });

  it.each<[string, Sent[], string]>([
    [
      'a request without X-SIGNATURE taken',
      [{ headers: { 'x-signature': undefined }, status: 201, answer: CREATED }],
      'AUTH-MISSING-SIGNATURE',
    ],
    [
      'a millisecond timestamp taken',
      [{ headers: { 'x-timestamp': String(NOW) }, status: 201, answer: CREATED }],
      'AUTH-TIMESTAMP-MILLISECONDS',
    ],
    [
      'a signature of another secret taken',
      [{ headers: { 'x-signature': hmacSha256Hex('sk_other', 'x') }, status: 201, answer: CREATED }],
      'AUTH-WRONG-SECRET',
    ],
    [
      'a request without X-API-KEY answered 400',
      [{ headers: { 'x-api-key': undefined }, status: 400, answer: ERROR(400) }],
      'AUTH-BEFORE-BODY',
    ],
    [
      'a correctly signed request refused while another was taken',
      [
        { status: 201, answer: CREATED },
        { body: { ...ORDER, order_id: 'T-9' }, status: 401, answer: ERROR(401), at: 1 },
      ],
      'AUTH-ACCEPT',
    ],
    [
      'an order_id created again',
      [
        { status: 201, answer: CREATED },
        { status: 201, answer: CREATED, at: 1 },
      ],
      'DUP-SEQUENTIAL',
    ],
    ['an error that is not the envelope', [{ body: { order_id: 'T-1' }, status: 400, answer: { error: 'bad' } }], 'ERR-ENVELOPE'],
    ['a body code that is not the status', [{ body: { order_id: 'T-1' }, status: 400, answer: ERROR(422) }], 'ERR-CODE-MATCHES-STATUS'],
    ['an answer labelled text/html', [{ status: 201, answer: CREATED, contentType: 'text/html' }], 'ERR-CONTENT-TYPE'],
    ['a request without X-API-KEY taken', [{ headers: { 'x-api-key': undefined }, status: 201, answer: CREATED }], 'AUTH-MISSING-KEY'],
    [
      'a fractional timestamp taken',
      [{ headers: { 'x-timestamp': '1790000000.5' }, status: 201, answer: CREATED }],
      'AUTH-TIMESTAMP-FRACTIONAL',
    ],
    [
      'a timestamp an hour old taken',
      [{ headers: { 'x-timestamp': String(NOW / 1000 - 3600) }, status: 201, answer: CREATED }],
      'AUTH-WINDOW-EXPIRED',
    ],
    [
      'a 401 that is not the envelope',
      [{ headers: { 'x-signature': undefined }, status: 401, answer: { error: 'no' } }],
      'AUTH-FAILURE-ENVELOPE',
    ],
    [
      'a payout record with its amount a number',
      [
        {
          path: '/api/v3/banking/payment/status',
          body: { payout_order_id: 'P-1' },
          status: 200,
          answer: { code: 200, data: { amount: 10 } },
        },
      ],
      'PAYOUT-RECORD-FORMAT',
    ],
    [
      'a payout_order_id taken twice',
      [0, 1].map((at) => ({
        path: '/api/v3/banking/payment/initiate',
        body: { payout_order_id: 'P-1', amount: '1.00' },
        status: 200,
        answer: { data: {} },
        at,
      })),
      'DUP-PERMANENT',
    ],
    ['a create envelope whose code is not the status', [{ status: 201, answer: { ...createdFor(ORDER), code: '200' } }], 'ORDER-ENVELOPE'],
    [
      'a create envelope whose created_at is ISO 8601',
      [
        {
          status: 201,
          answer: { ...createdFor(ORDER), return_data: { ...createdFor(ORDER).return_data, created_at: '2026-12-06T05:00:00Z' } },
        },
      ],
      'ORDER-CREATED-AT',
    ],
    ['a create answered 202', [{ status: 202, answer: createdFor(ORDER) }], 'ORDER-SUCCESS-STATUS'],
    [
      'an order_id echoed as a number',
      [
        {
          body: { ...ORDER, order_id: '0012' },
          status: 201,
          answer: { ...createdFor(ORDER), return_data: { ...createdFor(ORDER).return_data, order_id: 12 } },
        },
      ],
      'ORDER-ORDER-ID-ECHO',
    ],
    [
      'two orders answered with one svc_order_id',
      [
        { status: 201, answer: createdFor(ORDER) },
        { body: { ...ORDER, order_id: 'T-2' }, status: 201, answer: createdFor(ORDER), at: 1 },
      ],
      'ORDER-SVC-ORDER-ID',
    ],
  ])('fails %s', (_name, sent, id) => {
    expect(status(sent.map(exchange), id)).toBe('failed');
  });

  it('reads against what was created (P-STATE-3): the same amount in any decimal form passes, another amount fails', () => {
    const svc = 'svc-T-1';
    const read = (order_amount: string, at: number) =>
      exchange({
        path: '/api/v3/pg/order/status',
        body: { order_id: 'T-1' },
        status: 200,
        answer: { data: { order_id: 'T-1', order_amount, order_currency: 'INR', svc_order_id: svc } },
        at,
      });
    const created = exchange({ status: 201, answer: CREATED });
    expect(status([created, read('10', 1)], 'STATE-READS-AGREE')).toBe('passed');
    const outcome = judged([created, read('100', 1)]).outcomes.find(([id]) => id === 'STATE-READS-AGREE')?.[1];
    expect(outcome).toMatchObject({ status: 'failed', message: expect.stringMatching(/reads order_amount "100", created as "10.00"/) });
    expect(status([read('100', 1)], 'STATE-READS-AGREE')).toBe('skipped');
  });

  it('lifecycles (P-STATE-1, -2): each state an answer shows follows the one shown before it', () => {
    const order = (path: string, order_status: string, at: number, overlap = 0) => {
      const x = exchange({
        path: `/api/v3/pg/order/${path}`,
        body: { order_id: 'T-1' },
        status: 200,
        answer: { data: { order_status } },
        at,
      });
      return { ...x, respondedAt: x.respondedAt + overlap };
    };
    const payout = (path: string, state: string, at: number) =>
      exchange({
        path: `/api/v3/banking/payment/${path}`,
        body: { payout_order_id: 'P-1' },
        status: 200,
        answer: { data: { status: state } },
        at,
      });
    const created = exchange({ status: 201, answer: CREATED });
    expect(status([created, order('status', 'PAID', 10), order('status', 'PAID', 20)], 'STATE-ORDER-LIFECYCLE')).toBe('passed');
    expect(status([created, order('status', 'PAID', 10), order('status', 'UN_PAID', 20)], 'STATE-ORDER-LIFECYCLE')).toBe('failed');
    expect(status([order('status', 'CANCELLED', 10), order('cancel', 'CANCELLED', 20)], 'STATE-ORDER-LIFECYCLE')).toBe('failed');
    // Answers in flight at once may have been decided in either order.
    expect(status([order('status', 'PAID', 10, 30), order('status', 'UN_PAID', 20)], 'STATE-ORDER-LIFECYCLE')).toBe('skipped');
    const steps = (...states: string[]) => states.map((state, i) => payout(i === 0 ? 'initiate' : 'status', state, i * 10));
    expect(status(steps('PENDING', 'SUCCESS', 'REVERSED', 'REVERSED'), 'STATE-PAYOUT-LIFECYCLE')).toBe('passed');
    for (const wrong of [
      ['SUCCESS', 'PROCESSING'],
      ['FAILED', 'SUCCESS'],
      ['PROCESSING', 'REVERSED'],
      ['REVERSED', 'SUCCESS'],
    ])
      expect(status(steps(...wrong), 'STATE-PAYOUT-LIFECYCLE'), wrong.join(' → ')).toBe('failed');
  });

  it("isolation (P-TENANT) with two merchants: another's order answers 404, another's wallet 403", () => {
    const wallets = { [merchant.apiKey]: 'W-A', pk_test_other: 'W-B' };
    const tenant = (xs: ObservedExchange[], id: string) =>
      judgeServerTraffic({ requests: classify(xs), merchant, toleranceSeconds: 300, wallets }).outcomes.find(([rule]) => rule === id)?.[1]
        .status;
    const theirs = exchange({ headers: { 'x-api-key': 'pk_test_other' }, status: 201, answer: CREATED });
    const read = (code: number) =>
      exchange({
        path: '/api/v3/pg/order/status',
        body: { order_id: 'T-1' },
        status: code,
        answer: code === 404 ? ERROR(404) : { data: {} },
        at: 1,
      });
    expect(tenant([theirs, read(404)], 'TENANT-ORDER-STATUS')).toBe('passed');
    expect(tenant([theirs, read(200)], 'TENANT-ORDER-STATUS')).toBe('failed');
    const balance = (code: number) =>
      exchange({
        path: '/api/v3/banking/balance',
        body: { svc_wallet_id: 'W-B' },
        status: code,
        answer: code === 403 ? ERROR(403) : { data: {} },
      });
    expect(tenant([balance(403)], 'TENANT-BALANCE')).toBe('passed');
    expect(tenant([balance(200)], 'TENANT-BALANCE')).toBe('failed');
    expect(status([balance(200)], 'TENANT-BALANCE')).toBeUndefined();
  });

  it('a body with a number no signer can write canonically (1e400): judged by its bytes, not a crash', () => {
    const raw = '{"order_amount":1e400,"order_currency":"INR","order_id":"T-9"}';
    const xs = [exchange({ raw, status: 400, answer: ERROR(400) })];
    expect(judged(xs).outcomes.filter(([, o]) => o.status === 'failed')).toEqual([]);
    // It has no canonical text, so a server verifying that may refuse it (P-SIGN-6): AUTH-ACCEPT asks nothing of it.
    expect(status([exchange({ raw, status: 401, answer: ERROR(401) })], 'AUTH-ACCEPT')).toBe('skipped');
  });

  it('judges nothing the traffic did not show: no repeat, no answer headers kept, no secret', () => {
    const [x] = [exchange({ status: 201, answer: CREATED })];
    expect(status([x], 'DUP-SEQUENTIAL')).toBe('skipped');
    const { responseHeaders: _, ...recorded } = x;
    expect(status([recorded as ObservedExchange], 'ERR-CONTENT-TYPE')).toBe('skipped');
    expect(status([x], 'AUTH-ACCEPT', false)).toBe('skipped');
    expect(
      status(
        [exchange({ headers: { 'x-signature': hmacSha256Hex('sk_other', 'x') }, status: 201, answer: CREATED })],
        'AUTH-WRONG-SECRET',
        false,
      ),
    ).toBeUndefined();
  });

  it('every correctly signed request refused, none taken: the keys are doubted, not the server failed', () => {
    const { outcomes, couldNotJudge } = judged([exchange({ status: 401, answer: ERROR(401) })]);
    expect(outcomes.find(([id]) => id === 'AUTH-ACCEPT')).toBeUndefined();
    expect(couldNotJudge).toEqual([expect.stringMatching(/configured keys are likely not the ones it holds/)]);
  });
});
