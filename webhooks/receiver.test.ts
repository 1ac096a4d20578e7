// The kit's webhook receiver on a real socket: which requests it keeps for the checks (a delivery,
// however faulty its sender) and which it answers and counts as strays, never judged.
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../core/clock.js';
import { KitReceiver, type ReceiverOptions } from './receiver.js';

const open: KitReceiver[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

async function receiver(options: Partial<ReceiverOptions> = {}): Promise<KitReceiver> {
  const started = await KitReceiver.start({ listen: '127.0.0.1:0', clock: systemClock, ...options });
  open.push(started);
  return started;
}

const EVENT = '{"created_at":1764000000,"data":{"payout_order_id":"PO-1","status":"SUCCESS"},"event":"payout.success","event_id":"evt_1"}';
const SIGNED = { 'content-type': 'application/json', 'x-signature': 'ab'.repeat(32), 'x-timestamp': '1764000000', 'x-event-id': 'evt_1' };
const without = (name: string) => Object.fromEntries(Object.entries(SIGNED).filter(([k]) => k !== name));

/** A request to the receiver: method, path, headers, body; and what it answers, with its stray reason when it is one. */
const TABLE: Array<{
  description: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  kept: boolean;
  status: number;
  why?: string;
}> = [
  { description: 'a genuine delivery', method: 'POST', path: '/webhooks', headers: SIGNED, body: EVENT, kept: true, status: 200 },
  // A faulty sender's deliveries are kept, so the checks fail them (the sandbox's hook-no-event-id, a sender that signs nothing, …).
  {
    description: 'a delivery without X-EVENT-ID',
    method: 'POST',
    path: '/webhooks',
    headers: without('x-event-id'),
    body: EVENT,
    kept: true,
    status: 200,
  },
  {
    description: 'a delivery without X-SIGNATURE',
    method: 'POST',
    path: '/webhooks',
    headers: without('x-signature'),
    body: EVENT,
    kept: true,
    status: 200,
  },
  {
    description: 'a signed delivery whose body is not JSON',
    method: 'POST',
    path: '/webhooks',
    headers: SIGNED,
    body: 'event=payout.success',
    kept: true,
    status: 200,
  },
  {
    description: 'an event with none of the delivery headers',
    method: 'POST',
    path: '/webhooks',
    headers: { 'content-type': 'application/json' },
    body: EVENT,
    kept: true,
    status: 200,
  },
  {
    description: 'a delivery with a query string',
    method: 'POST',
    path: '/webhooks?attempt=2',
    headers: SIGNED,
    body: EVENT,
    kept: true,
    status: 200,
  },
  // Strays: answered at once with a small JSON body, counted, never kept.
  { description: 'a health check', method: 'GET', path: '/', kept: false, status: 404, why: 'another path' },
  {
    description: "a tunnel's probe elsewhere",
    method: 'POST',
    path: '/health',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    kept: false,
    status: 404,
    why: 'another path',
  },
  {
    description: "a path that only ends like the listener's",
    method: 'POST',
    path: '//elsewhere/webhooks',
    headers: SIGNED,
    body: EVENT,
    kept: false,
    status: 404,
    why: 'another path',
  },
  { description: "a GET of the listener's path", method: 'GET', path: '/webhooks', kept: false, status: 405, why: 'not POST' },
  {
    description: 'a delivery sent with PUT',
    method: 'PUT',
    path: '/webhooks',
    headers: SIGNED,
    body: EVENT,
    kept: false,
    status: 405,
    why: 'not POST',
  },
  {
    description: 'a POST with no delivery header and a body that is not JSON',
    method: 'POST',
    path: '/webhooks',
    body: 'ping',
    kept: false,
    status: 400,
    why: 'no delivery headers and no event',
  },
  {
    description: 'a POST with no delivery header and JSON that is no event',
    method: 'POST',
    path: '/webhooks',
    headers: { 'content-type': 'application/json' },
    body: '{"hello":"world"}',
    kept: false,
    status: 400,
    why: 'no delivery headers and no event',
  },
];

describe('KitReceiver: deliveries kept, strays counted', () => {
  for (const row of TABLE) {
    it(`${row.description}: ${row.kept ? 'kept' : `a stray (${row.why}), answered ${row.status}`}`, async () => {
      const r = await receiver();
      const url = new URL(r.url);
      const answer = await fetch(`${url.origin}${row.path}`, {
        method: row.method,
        headers: row.headers ?? {},
        ...(row.body !== undefined ? { body: row.body } : {}),
        signal: AbortSignal.timeout(5_000),
      });
      expect(answer.status).toBe(row.status);
      expect(answer.headers.get('content-type')).toBe('application/json');
      const json = (await answer.json()) as { error?: string };
      expect(r.deliveries.map((d) => d.path)).toEqual(row.kept ? [row.path] : []);
      const tally = r.strays();
      if (row.kept) {
        expect(json).toEqual({ received: true });
        expect(tally.strays).toBe(0);
        return;
      }
      expect(json.error).toBe(
        `not a webhook delivery (${row.why}): the conformance kit's listener takes POST /webhooks from the target and ignores anything else`,
      );
      if (row.status === 405) expect(answer.headers.get('allow')).toBe('POST');
      const marked = row.headers?.['x-signature'] !== undefined;
      expect(tally).toEqual({
        strays: 1,
        described: [{ method: row.method, path: row.path, why: row.why, marked }],
        ...(marked ? { misdirected: { method: row.method, path: row.path, why: row.why, marked } } : {}),
        keptAtMost: 1_000,
        deliveriesNotKept: 0,
      });
    });
  }

  it('keeps a body as its bytes came: a leading byte-order mark is not dropped, so the checks see what a receiver verifying raw bytes sees', async () => {
    const r = await receiver();
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(EVENT)]);
    const answer = await fetch(r.url, { method: 'POST', headers: SIGNED, body: bytes, signal: AbortSignal.timeout(5_000) });
    expect(answer.status).toBe(200);
    expect(r.deliveries.map((d) => d.body)).toEqual([`\ufeff${EVENT}`]);
  });

  it("takes webhooks.url's path as well (a tunnel that keeps the path), and nothing else", async () => {
    const r = await receiver({ alsoPaths: ['/svc'] });
    const origin = new URL(r.url).origin;
    for (const path of ['/svc', '/webhooks', '/other']) await fetch(origin + path, { method: 'POST', headers: SIGNED, body: EVENT });
    expect(r.deliveries.map((d) => d.path)).toEqual(['/svc', '/webhooks']);
    expect(r.strays()).toMatchObject({ strays: 1, described: [{ method: 'POST', path: '/other', why: 'another path', marked: true }] });
  });

  it('keeps at most keepAtMost deliveries and describes at most 5 strays; the rest are answered and counted', async () => {
    const r = await receiver({ keepAtMost: 2 });
    const origin = new URL(r.url).origin;
    const answers: number[] = [];
    for (let i = 0; i < 3; i++) answers.push((await fetch(r.url, { method: 'POST', headers: SIGNED, body: EVENT })).status);
    for (let i = 0; i < 7; i++) answers.push((await fetch(`${origin}/probe-${i}`)).status);
    expect(answers).toEqual([200, 200, 200, 404, 404, 404, 404, 404, 404, 404]);
    expect(r.deliveries.map((d) => d.n)).toEqual([1, 2]);
    const tally = r.strays();
    expect(tally).toMatchObject({ strays: 7, keptAtMost: 2, deliveriesNotKept: 1 });
    expect(tally.described.map((s) => s.path)).toEqual(['/probe-0', '/probe-1', '/probe-2', '/probe-3', '/probe-4']);
  });

  it('answers a stray with a large body without reading it first, and shows its path only as printable text without the query', async () => {
    const r = await receiver();
    const origin = new URL(r.url).origin;
    const big = await fetch(`${origin}/upload?token=s3cr3t`, {
      method: 'POST',
      body: 'x'.repeat(4 * 1024 * 1024),
      signal: AbortSignal.timeout(5_000),
    }).then(
      (a) => a.status,
      (e: Error) => e.message,
    );
    expect(big).toBe(404);
    expect(r.strays().described).toEqual([{ method: 'POST', path: '/upload', why: 'another path', marked: false }]);
  });
});
