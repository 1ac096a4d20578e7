// What a webhook failure shows (a delivery as evidence) and how a missing delivery is judged, over the
// observation of the made-up sender (webhook-target-test-support.ts).
import { describe, expect, it } from 'vitest';
import { hmacSha256Hex } from '../../signer/sign.js';
import type { ReceivedDelivery } from '../../webhooks/receiver.js';
import { CheckFailure, CheckSkipped, isCheckInconclusive } from '../check.js';
import { madeUpConfig } from './made-up-server-test-support.js';
import { asExchange, judgeEach, missing } from './webhook-evidence.js';
import { observation, type Observation } from './webhook-observation.js';
import { webhookContext } from './webhook-target-test-support.js';

const SECRET = madeUpConfig().merchant.secretKey;

async function observed() {
  const ctx = webhookContext();
  return { ctx, o: await observation(ctx) };
}

describe('a delivery as evidence', () => {
  it("numbers the retries of one event from the second, and shows the kit's answer to each", async () => {
    const { ctx, o } = await observed();
    const shown = o.probe.map((d) => asExchange(ctx, o, d));
    expect(shown.map((x) => x.label.match(/ \(attempt \d\)|; the answer/)![0])).toEqual([
      '; the answer',
      ' (attempt 2)',
      ' (attempt 3)',
      ' (attempt 4)',
    ]);
    expect(shown[0]!.label).toMatch(/^delivery #\d+ to the kit's receiver: payout\.\w+ EVT-\S+; the answer is the kit's$/);
    expect(shown.map((x) => [x.response?.status, x.response?.body])).toEqual([
      [500, '{"error":"the conformance kit asks for a retry"}'],
      [500, '{"error":"the conformance kit asks for a retry"}'],
      [500, '{"error":"the conformance kit asks for a retry"}'],
      [200, '{"received":true}'],
    ]);
    expect(shown[0]!.response?.headers).toEqual({ 'content-type': 'application/json' });
    expect(shown[0]!.request.method).toBe('POST');
    expect(shown[0]!.request.url).toBe(new URL(o.probe[0]!.path, o.session.receiver.url).href);
  });

  it('counts only the attempts of the same event: the first of another is no retry', async () => {
    const { ctx, o } = await observed();
    const others = o.deliveries.filter((d) => !o.probe.includes(d));
    expect(others.map((d) => asExchange(ctx, o, d).label)).not.toContainEqual(expect.stringContaining('attempt'));
  });

  it('names the event for a replay, and nothing for an unreadable body, which joins no group', async () => {
    const { ctx, o } = await observed();
    const d = o.probe[0]!;
    expect(asExchange(ctx, o, d).delivery).toEqual({ event: JSON.parse(d.body).event });
    const unreadable: ReceivedDelivery = { ...d, body: 'not json' };
    const twice = { ...o, deliveries: [unreadable, { ...unreadable, n: d.n + 1 }] };
    const shown = asExchange(ctx, twice, twice.deliveries[1]!);
    expect(shown.delivery).toEqual({});
    expect(shown.label).toBe(`delivery #${d.n + 1} to the kit's receiver: an unreadable event; the answer is the kit's`);
  });

  it('redacts a right X-SIGNATURE (anyone could replay it) and keeps a wrong one as evidence', async () => {
    const { ctx, o } = await observed();
    const d = o.probe[0]!;
    const right = hmacSha256Hex(SECRET, d.body + d.headers['x-timestamp']);
    expect(d.headers['x-signature']).toBe(right);
    expect(asExchange(ctx, o, d).request.headers['x-signature']).toBe('[redacted]');
    const wrong = { ...d, headers: { ...d.headers, 'x-signature': 'ab'.repeat(32) } };
    expect(asExchange(ctx, o, wrong).request.headers['x-signature']).toBe('ab'.repeat(32));
    const untimed = { ...d, headers: Object.fromEntries(Object.entries(d.headers).filter(([k]) => k !== 'x-timestamp')) };
    expect(asExchange(ctx, o, untimed).request.headers['x-signature']).toBe(right);
    // A sender that signed its missing X-TIMESTAMP as the text "undefined" signed wrong: kept too.
    const unstamped = { ...untimed, headers: { ...untimed.headers, 'x-signature': hmacSha256Hex(SECRET, `${d.body}undefined`) } };
    expect(asExchange(ctx, o, unstamped).request.headers['x-signature']).toBe(hmacSha256Hex(SECRET, `${d.body}undefined`));
  });
});

describe('a delivery not found', () => {
  const base = { unseen: { keptAtMost: 100, deliveriesNotKept: 0 } } as unknown as Observation;
  const judged = (o: Observation) => missing(o, 'no payout.success came', { expected: 'a delivery', actual: 'none' });

  it("is the target's failure when the listener kept everything and the registration stayed the kit's", () => {
    const error = judged(base);
    expect(error).toBeInstanceOf(CheckFailure);
    expect(error.message).toBe('no payout.success came');
  });

  it('is inconclusive when the listener dropped deliveries past its limit', () => {
    const error = judged({ ...base, unseen: { keptAtMost: 100, deliveriesNotKept: 3 } } as Observation);
    expect(isCheckInconclusive(error)).toBe(true);
    expect(error.message).toMatch(/kept only the first 100 deliveries \(3 more came\)/);
  });

  it('is inconclusive when another run took the registration, naming what it became', () => {
    for (const [takenBy, shown] of [
      [null, 'it became none'],
      ['http://127.0.0.1:9/hooks', 'it became "http://127.0.0.1:9/hooks"'],
    ] as const) {
      const error = judged({ ...base, takenBy });
      expect(isCheckInconclusive(error)).toBe(true);
      expect(error.message).toContain(shown);
      expect(error.message).toMatch(/deliveries went elsewhere; run the webhook checks of one merchant one at a time$/);
    }
  });
});

describe('a check over every delivery', () => {
  it('passes when no delivery is at fault, and fails on the first naming how many more are', async () => {
    const { ctx, o } = await observed();
    await expect(judgeEach('fine', () => undefined)(ctx)).resolves.toBeUndefined();
    const all = o.deliveries.length;
    const check = judgeEach('no retries', (d) => (d.answered === 500 ? 'refused' : undefined));
    const error = await check(ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckFailure);
    expect((error as CheckFailure).message).toBe(`delivery #${o.probe[0]!.n}: refused (and 2 more of the ${all} deliveries)`);
    const one = await judgeEach('x', (d) => (d === o.probe[1] ? 'odd' : undefined))(ctx).catch((e: unknown) => e);
    expect((one as CheckFailure).message).toBe(`delivery #${o.probe[1]!.n}: odd`);
  });

  it('skips when no delivery came', async () => {
    const ctx = webhookContext({ events: () => [] });
    await expect(judgeEach('x', () => 'bad')(ctx)).rejects.toBeInstanceOf(CheckSkipped);
  });
});
