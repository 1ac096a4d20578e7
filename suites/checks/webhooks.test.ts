// The webhook checks (P-HOOK-1…4), each condition broken alone by a made-up target that delivers
// as a correct sender does but for one thing. The checks against the reference sandbox's own sender,
// on real sockets and a sped-up clock: test/webhook-checks.test.ts (with the end-to-end tests).
import { describe, expect, it } from 'vitest';
import type { WebhookEventName } from '../../core/webhooks.js';
import { canonicalize } from '../../signer/canonical.js';
import { hmacSha256Hex } from '../../signer/sign.js';
import { madeUpConfig } from './made-up-server-test-support.js';
import { judgeWebhooks, type MadeUpPayout, type SentAttempt } from './webhook-target-test-support.js';
import { webhookChecks } from './webhooks.js';

const SECRET = madeUpConfig().merchant.secretKey;
const check = (requirement: string) => webhookChecks.find((c) => c.requirement === requirement)!;

describe('a correct sender', () => {
  it.each(webhookChecks.map((c) => [c.requirement, c] as const))('passes %s', async (_, c) => {
    expect(await judgeWebhooks(c)).toEqual({ outcome: 'passed' });
  });
});

/** A sender that changes every attempt of its payout.success events, or of every event when `all`. */
const onSuccess =
  (change: (a: SentAttempt) => SentAttempt, all = false) =>
  (a: SentAttempt): SentAttempt =>
    all || a.event === 'payout.success' ? change(a) : a;
/** The attempt re-signed over its body and timestamp as they now are, with the merchant's secret. */
const resigned = (a: SentAttempt): SentAttempt => ({
  ...a,
  headers: { ...a.headers, 'x-signature': hmacSha256Hex(SECRET, a.body + a.headers['x-timestamp']) },
});
const withHeaders = (headers: Record<string, string | undefined>) => (a: SentAttempt) =>
  ({ ...a, headers: Object.fromEntries(Object.entries({ ...a.headers, ...headers }).filter(([, v]) => v !== undefined)) }) as SentAttempt;
const withBody = (body: (a: SentAttempt) => string) => (a: SentAttempt) => resigned({ ...a, body: body(a) });
const event = (a: SentAttempt) => JSON.parse(a.body) as Record<string, unknown>;

describe('HOOK-DELIVERY-HEADERS: a POST with Content-Type application/json, X-SIGNATURE, X-TIMESTAMP and X-EVENT-ID', () => {
  it.each([
    ['X-SIGNATURE', { 'x-signature': undefined }],
    ['X-TIMESTAMP', { 'x-timestamp': undefined }],
    ['X-EVENT-ID', { 'x-event-id': undefined }],
    ['X-EVENT-ID', { 'x-event-id': '' }],
  ])('fails a delivery without %s (%j)', async (name, headers) => {
    const { outcome, message } = await judgeWebhooks(check('HOOK-DELIVERY-HEADERS'), { tamper: onSuccess(withHeaders(headers)) });
    expect(outcome).toBe('failed');
    expect(message).toMatch(new RegExp(`^delivery #\\d+: ${name} missing$`));
  });

  it('names every header missing, and how many other deliveries fail too', async () => {
    const none = { 'x-signature': undefined, 'x-timestamp': undefined, 'x-event-id': undefined };
    const { message } = await judgeWebhooks(check('HOOK-DELIVERY-HEADERS'), { tamper: onSuccess(withHeaders(none), true) });
    expect(message).toMatch(/^delivery #1: X-SIGNATURE, X-TIMESTAMP, X-EVENT-ID missing \(and \d+ more of the \d+ deliveries\)$/);
  });

  it('fails Content-Type text/plain, passes application/json with a charset', async () => {
    const plain = await judgeWebhooks(check('HOOK-DELIVERY-HEADERS'), { tamper: onSuccess(withHeaders({ 'content-type': 'text/plain' })) });
    expect(plain.outcome).toBe('failed');
    expect(plain.message).toMatch(/: Content-Type is "text\/plain", not application\/json$/);
    const charset = withHeaders({ 'content-type': 'application/json; charset=utf-8' });
    expect(await judgeWebhooks(check('HOOK-DELIVERY-HEADERS'), { tamper: onSuccess(charset) })).toEqual({ outcome: 'passed' });
  });

  it('is skipped when no delivery came (HOOK-EVENTS-FIRED judges that)', async () => {
    expect((await judgeWebhooks(check('HOOK-DELIVERY-HEADERS'), { events: () => [] })).outcome).toMatch(/^skipped: no webhook delivery/);
  });
});

describe('HOOK-CANONICAL-BODY: the canonical text of the event', () => {
  it('fails a body that is not JSON', async () => {
    const { outcome, message } = await judgeWebhooks(check('HOOK-CANONICAL-BODY'), { tamper: onSuccess(withBody(() => 'not json')) });
    expect([outcome, message]).toEqual(['failed', expect.stringMatching(/: the body is not JSON$/)]);
  });

  it('fails JSON that is not canonical, saying how it differs', async () => {
    const spaced = await judgeWebhooks(check('HOOK-CANONICAL-BODY'), {
      tamper: onSuccess(withBody((a) => JSON.stringify(event(a), null, 1))),
    });
    expect(spaced.outcome).toBe('failed');
    expect(spaced.message).toMatch(/: the body is not the canonical text of the event: non-canonical-body$/);
    const escaped = await judgeWebhooks(check('HOOK-CANONICAL-BODY'), {
      tamper: onSuccess(withBody((a) => a.body.replaceAll('-', '\\u002d'))),
    });
    expect(escaped.outcome).toBe('failed');
  });

  it('says how the body differs whatever X-TIMESTAMP is, and a timestamp in milliseconds too', async () => {
    const spacedAt = (timestamp: string | undefined) =>
      onSuccess((a) => withHeaders({ 'x-timestamp': timestamp })(withBody((b) => JSON.stringify(event(b), null, 1))(a)));
    for (const timestamp of [undefined, 'abc', 'x1', '1x']) {
      const judged = await judgeWebhooks(check('HOOK-CANONICAL-BODY'), { tamper: spacedAt(timestamp) });
      expect([judged.outcome, judged.message], String(timestamp)).toEqual(['failed', expect.stringMatching(/event: non-canonical-body$/)]);
    }
    const millis = await judgeWebhooks(check('HOOK-CANONICAL-BODY'), { tamper: spacedAt('1763719200000') });
    expect(millis.message).toMatch(/event: non-canonical-body \+ timestamp-milliseconds$/);
  });

  it('fails a body holding a number no signer writes canonically', async () => {
    const huge = await judgeWebhooks(check('HOOK-CANONICAL-BODY'), {
      tamper: onSuccess(withBody((a) => a.body.replace('{', '{"big":1e999,'))),
    });
    expect(huge.message).toMatch(/: the body holds a number no signer can write canonically$/);
  });
});

describe("HOOK-SIGNATURE: HMAC-SHA256 of the merchant's secret over the body as delivered and X-TIMESTAMP", () => {
  it('fails another secret, saying no known variant explains it, and keeps the wrong signature as evidence', async () => {
    const wrong = (a: SentAttempt) =>
      withHeaders({ 'x-signature': hmacSha256Hex('sk_test_another', a.body + a.headers['x-timestamp']) })(a);
    const { outcome, message, failure } = await judgeWebhooks(check('HOOK-SIGNATURE'), { tamper: onSuccess(wrong) });
    expect(outcome).toBe('failed');
    expect(message).toMatch(/does not cover the body as delivered .*, and no known variant explains it/);
    expect(failure?.details.exchange?.request.headers['x-signature']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names the variant a sender signed (the body alone)', async () => {
    const bodyOnly = (a: SentAttempt) => withHeaders({ 'x-signature': hmacSha256Hex(SECRET, a.body) })(a);
    const { message } = await judgeWebhooks(check('HOOK-SIGNATURE'), { tamper: onSuccess(bodyOnly) });
    expect(message).toMatch(/; diagnose: .+/);
  });

  it('names the order a sender built its event in, when it signed its own serialization of it', async () => {
    // In the order the schemas document the event and its payout record; the body sent stays canonical.
    const inOrder = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));
    const record = [
      'payout_id',
      'payout_order_id',
      'wallet_id',
      'status',
      'amount',
      'currency',
      'utr_number',
      'message',
      'amount_debited',
      'created_at',
    ];
    const built = (a: SentAttempt) => {
      const e = event(a);
      const data = inOrder(e.data as Record<string, unknown>, record);
      return JSON.stringify(inOrder({ ...e, data }, ['event_id', 'event', 'created_at', 'data']));
    };
    const signed = (text: (a: SentAttempt) => string) =>
      onSuccess((a) => withHeaders({ 'x-signature': hmacSha256Hex(SECRET, text(a)) })(a));
    const builtOrder = await judgeWebhooks(check('HOOK-SIGNATURE'), { tamper: signed((a) => built(a) + a.headers['x-timestamp']) });
    expect(builtOrder.message).toMatch(/; diagnose: unsorted-keys$/);
    expect((await judgeWebhooks(check('HOOK-SIGNATURE'), { tamper: signed(built) })).message).toMatch(
      /; diagnose: unsorted-keys \+ timestamp-omitted$/,
    );
  });

  it('says so when the timestamp is no number, and leaves a missing header to HOOK-DELIVERY-HEADERS', async () => {
    const letters = await judgeWebhooks(check('HOOK-SIGNATURE'), {
      tamper: onSuccess((a) => resigned(withHeaders({ 'x-timestamp': 'abc' })(a))),
    });
    expect(letters.outcome).toBe('passed');
    const unsigned = withHeaders({ 'x-timestamp': 'abc', 'x-signature': 'f'.repeat(64) });
    expect((await judgeWebhooks(check('HOOK-SIGNATURE'), { tamper: onSuccess(unsigned) })).message).toMatch(
      /the timestamp is not a number/,
    );
    for (const missing of ['x-signature', 'x-timestamp'])
      expect(await judgeWebhooks(check('HOOK-SIGNATURE'), { tamper: onSuccess(withHeaders({ [missing]: undefined })) })).toEqual({
        outcome: 'passed',
      });
  });
});

describe("HOOK-FRESH-TIMESTAMP: each attempt's X-TIMESTAMP is the sender's clock then, within the window", () => {
  const stamped = (seconds: (a: SentAttempt) => string) => (a: SentAttempt) => resigned(withHeaders({ 'x-timestamp': seconds(a) })(a));
  const secondsOf = (a: SentAttempt) => Math.floor(a.at / 1000);

  it.each([
    ['not whole seconds', () => 'abc', /X-TIMESTAMP "abc" is not whole UNIX seconds/],
    ['in milliseconds', (a: SentAttempt) => String(a.at), /is not whole UNIX seconds/],
    [
      '301 s behind',
      (a: SentAttempt) => String(secondsOf(a) - 301),
      /X-TIMESTAMP is -301 s from the kit's clock when it arrived \(window ±300 s\)/,
    ],
    ['301 s ahead', (a: SentAttempt) => String(secondsOf(a) + 301), /X-TIMESTAMP is 301 s from/],
  ] as const)('fails a timestamp %s', async (_, seconds, message) => {
    const judged = await judgeWebhooks(check('HOOK-FRESH-TIMESTAMP'), { tamper: onSuccess(stamped(seconds)) });
    expect(judged.outcome).toBe('failed');
    expect(judged.message).toMatch(message);
  });

  it('passes 300 s either way, and no timestamp (HOOK-DELIVERY-HEADERS judges that)', async () => {
    for (const skew of [-300, 300])
      expect(await judgeWebhooks(check('HOOK-FRESH-TIMESTAMP'), { tamper: stamped((a) => String(secondsOf(a) + skew)) })).toEqual({
        outcome: 'passed',
      });
    expect(await judgeWebhooks(check('HOOK-FRESH-TIMESTAMP'), { tamper: withHeaders({ 'x-timestamp': undefined }) })).toEqual({
      outcome: 'passed',
    });
  });

  /** Every attempt of the refused delivery stamped as its first attempt was (a stored request re-sent), or earlier still. */
  const replayed = (shift: number) => stamped((a) => String(Math.floor(a.createdAt / 1000) - (a.attempt > 1 ? shift : 0)));

  it('fails a retry 2 s or more after an attempt that carries its timestamp, or an earlier one', async () => {
    for (const [retryDelays, shift] of [
      [[1, 2, 4, 8], 0],
      [[2], 0],
      [[1, 2, 4, 8], 1],
    ] as const) {
      const judged = await judgeWebhooks(check('HOOK-FRESH-TIMESTAMP'), { retryDelays, tamper: replayed(shift) });
      expect(judged.outcome, `${retryDelays.join(', ')}`).toBe('failed');
      expect(judged.message).toMatch(
        /a retry \d+\.\d s after delivery #\d+ carries the same X-TIMESTAMP \d+: the retry re-sends a stored request/,
      );
    }
  });

  it('says how long after the earlier attempt the re-sent retry came', async () => {
    const judged = await judgeWebhooks(check('HOOK-FRESH-TIMESTAMP'), { retryDelays: [2], tamper: replayed(0) });
    expect(judged.message).toMatch(/: a retry 2\.0 s after delivery #\d+ carries the same X-TIMESTAMP/);
  });

  it("passes an event stamped later than another event's retry, and deliveries it cannot tell apart as attempts", async () => {
    const ahead = onSuccess(stamped((a) => String(secondsOf(a) + 10)));
    expect(await judgeWebhooks(check('HOOK-FRESH-TIMESTAMP'), { tamper: ahead })).toEqual({ outcome: 'passed' });
    // Two reversals whose bodies are no event, 5 s apart, both stamped with the run's first second.
    const firstSecond = String(Date.UTC(2026, 10, 21, 10, 0, 0) / 1000);
    const unreadable = (a: SentAttempt): SentAttempt =>
      a.event !== 'payout.reversed'
        ? a
        : {
            ...a,
            body: 'not json',
            at: a.at + (a.eventId.endsWith('-3') ? 5_000 : 0),
            headers: { ...a.headers, 'x-timestamp': firstSecond },
          };
    const events = (p: MadeUpPayout): WebhookEventName[] =>
      p.initiated === 'FAILED' ? ['payout.failed'] : ['payout.processing', 'payout.success', 'payout.reversed', 'payout.reversed'];
    expect(await judgeWebhooks(check('HOOK-FRESH-TIMESTAMP'), { events, tamper: unreadable })).toEqual({ outcome: 'passed' });
  });

  it('passes a retry within 2 s of the attempt before that carries its timestamp', async () => {
    expect(await judgeWebhooks(check('HOOK-FRESH-TIMESTAMP'), { retryDelays: [1.9], tamper: replayed(0) })).toEqual({ outcome: 'passed' });
  });
});

describe('HOOK-EVENT-SHAPE: event_id (= X-EVENT-ID), a known event, created_at in seconds, its record in the named state', () => {
  const edited = (edit: (e: Record<string, unknown>) => void) =>
    withBody((a) => {
      const e = event(a);
      edit(e);
      return canonicalize(e);
    });

  it.each([
    ['created_at as text', edited((e) => void (e.created_at = String(e.created_at))), /does not match webhook-event/],
    ['an unknown event', edited((e) => void (e.event = 'payout.settled')), /does not match webhook-event/],
    [
      'a record in another state than its event names',
      edited((e) => void ((e.data as Record<string, unknown>).status = 'PROCESSING')),
      /a payout\.success event whose record says "PROCESSING", not SUCCESS/,
    ],
    [
      'another event_id in the header',
      withHeaders({ 'x-event-id': 'EVT-other' }),
      /X-EVENT-ID "EVT-other" is not the body's event_id "EVT-/,
    ],
  ] as const)('fails %s', async (_, tamper, message) => {
    const judged = await judgeWebhooks(check('HOOK-EVENT-SHAPE'), { tamper: onSuccess(tamper) });
    expect(judged.outcome).toBe('failed');
    expect(judged.message).toMatch(message);
  });

  it('names the first two problems of an event with more, one after the other', async () => {
    const wrong = edited((e) => Object.assign(e, { event_id: 5, event: 'payout.settled', created_at: 'today' }));
    expect((await judgeWebhooks(check('HOOK-EVENT-SHAPE'), { tamper: onSuccess(wrong) })).message).toMatch(
      /: the event does not match webhook-event: \/event_id: must be string; \/event: must be equal to one of the allowed values: [^;]*$/,
    );
  });

  it('leaves a body that is no JSON to HOOK-CANONICAL-BODY and a missing X-EVENT-ID to HOOK-DELIVERY-HEADERS', async () => {
    expect(await judgeWebhooks(check('HOOK-EVENT-SHAPE'), { tamper: onSuccess(withBody(() => '{')) })).toEqual({ outcome: 'passed' });
    expect(await judgeWebhooks(check('HOOK-EVENT-SHAPE'), { tamper: withHeaders({ 'x-event-id': undefined }) })).toEqual({
      outcome: 'passed',
    });
  });
});

describe('HOOK-EVENTS-FIRED: each state a payout was seen in is notified', () => {
  const fired = check('HOOK-EVENTS-FIRED');

  it('fails no delivery at all, naming the URL to check', async () => {
    const judged = await judgeWebhooks(fired, { events: () => [] });
    expect(judged.outcome).toBe('failed');
    expect(judged.message).toMatch(
      /^no webhook delivery reached the kit's receiver at .* within \d+ s of initiating two payouts: is .* the merchant's registered webhook URL/,
    );
    expect(judged.message).toMatch(/does it reach webhooks\.listen\?$/);
    expect(judged.failure?.details).toMatchObject({ actual: 'no delivery', webhookEvent: 'payout.success' });
  });

  it('says a delivery that came as another method was one, and is inconclusive when a proxy changed the path', async () => {
    const getHook = { method: 'GET', path: '/webhooks', why: 'not POST' as const, marked: true };
    const notPost = await judgeWebhooks(fired, { events: () => [], unseen: { strays: 1, described: [getHook], misdirected: getHook } });
    expect([notPost.outcome, notPost.message]).toEqual([
      'failed',
      expect.stringMatching(/; GET \/webhooks came with delivery headers and was ignored: a delivery is a POST/),
    ]);
    expect(notPost.failure?.details.actual).toBe('GET /webhooks');
    const elsewhere = { method: 'POST', path: '/hooks', why: 'another path' as const, marked: true };
    const moved = await judgeWebhooks(fired, { events: () => [], unseen: { strays: 1, described: [elsewhere], misdirected: elsewhere } });
    expect([moved.outcome, moved.message]).toEqual([
      'inconclusive',
      expect.stringMatching(/POST \/hooks came with delivery headers .* does the tunnel or proxy/),
    ]);
  });

  it('is inconclusive, not failed, when the listener stopped keeping deliveries or another run took the registration', async () => {
    expect((await judgeWebhooks(fired, { events: () => [], unseen: { deliveriesNotKept: 3 } })).outcome).toBe('inconclusive');
    const taken = await judgeWebhooks(fired, { events: () => [], registered: 'http://127.0.0.1:8/webhooks' });
    expect([taken.outcome, taken.message]).toEqual([
      'inconclusive',
      expect.stringMatching(/it became "http:\/\/127\.0\.0\.1:8\/webhooks"/),
    ]);
    expect((await judgeWebhooks(fired, { events: () => [], registered: null })).message).toMatch(/it became none/);
  });

  it.each([
    [
      'no payout.success for the payout that settled',
      (p: MadeUpPayout): WebhookEventName[] => (p.initiated === 'FAILED' ? ['payout.failed'] : ['payout.processing']),
      /was SUCCESS \(Payout Status\) but no payout\.success event about it arrived within \d+ s \(only payout\.processing\)$/,
    ],
    [
      'no payout.processing for the payout initiated PROCESSING',
      (p: MadeUpPayout): WebhookEventName[] => (p.initiated === 'FAILED' ? ['payout.failed'] : ['payout.success']),
      /was PROCESSING \(Payout Status\) but no payout\.processing event/,
    ],
    [
      'no payout.failed',
      (p: MadeUpPayout): WebhookEventName[] => (p.initiated === 'FAILED' ? [] : ['payout.processing', 'payout.success']),
      /was FAILED \(Payout Status\) but no payout\.failed event about it arrived within \d+ s$/,
    ],
  ] as const)('fails %s', async (_, events, message) => {
    const judged = await judgeWebhooks(fired, { events });
    expect(judged.outcome).toBe('failed');
    expect(judged.message).toMatch(message);
  });

  it('shows the events that did come about the payout, or that none did', async () => {
    const noSuccess = (p: MadeUpPayout): WebhookEventName[] => (p.initiated === 'FAILED' ? ['payout.failed'] : ['payout.processing']);
    expect((await judgeWebhooks(fired, { events: noSuccess })).failure?.details).toMatchObject({
      expected: 'a payout.success delivery (P-HOOK-2)',
      actual: expect.stringMatching(/^payout\.processing(, payout\.processing)*$/),
      webhookEvent: 'payout.success',
    });
    const noFailed = (p: MadeUpPayout): WebhookEventName[] => (p.initiated === 'FAILED' ? [] : ['payout.processing', 'payout.success']);
    expect((await judgeWebhooks(fired, { events: noFailed })).failure?.details).toMatchObject({
      expected: 'a payout.failed delivery (P-HOOK-2)',
      actual: 'no delivery about it',
    });
  });

  it('takes payout.reversed for a payout since reversed, and asks nothing of a PENDING one', async () => {
    const reversed = (p: MadeUpPayout): WebhookEventName[] =>
      p.initiated === 'FAILED' ? ['payout.failed'] : ['payout.processing', 'payout.reversed'];
    expect(await judgeWebhooks(fired, { events: reversed })).toEqual({ outcome: 'passed' });
    const pending = await judgeWebhooks(fired, { statusOf: (p) => (p.initiated === 'FAILED' ? 'FAILED' : 'PENDING') });
    expect(pending).toEqual({ outcome: 'passed' });
  });

  it('fails an event about the payout whose record says no state', async () => {
    const stateless = withBody((a) => {
      const e = event(a);
      delete (e.data as Record<string, unknown>).status;
      return canonicalize(e);
    });
    expect((await judgeWebhooks(fired, { tamper: onSuccess(stateless) })).message).toMatch(/no payout\.success event about it/);
  });
});

describe('HOOK-RETRY: a delivery answered 500 is retried 3 times or more, the same event, delays not shrinking, within the bound', () => {
  const retry = check('HOOK-RETRY');

  it.each([
    [[], /it was never retried within \d+ s$/, '1 attempt'],
    [[1], /got only 1 retry within \d+ s$/, '2 attempts'],
    [[1, 2], /got only 2 retries within \d+ s$/, '3 attempts'],
  ] as const)('fails the retries %j', async (retryDelays, message, actual) => {
    const judged = await judgeWebhooks(retry, { retryDelays });
    expect([judged.outcome, judged.message]).toEqual(['failed', expect.stringMatching(message)]);
    expect(judged.failure?.details).toMatchObject({ expected: expect.stringMatching(/\(P-HOOK-3\)$/), actual });
    expect(judged.failure?.details.exchange?.label).toMatch(/^delivery #\d+ to the kit's receiver: payout\.processing/);
  });

  it("names no other payout's event as a retry under another event_id", async () => {
    const bothProcess = (p: MadeUpPayout): WebhookEventName[] => [
      'payout.processing',
      p.initiated === 'FAILED' ? 'payout.failed' : 'payout.success',
    ];
    const judged = await judgeWebhooks(retry, { events: bothProcess, retryDelays: [] });
    expect(judged.message).toMatch(/it was never retried within \d+ s$/);
  });

  it('says when the retries came as another event (another event_id)', async () => {
    const renamed = (a: SentAttempt) =>
      a.attempt > 1
        ? withBody((b) => b.body.replaceAll(b.eventId, `${b.eventId}-R${b.attempt}`))(
            withHeaders({ 'x-event-id': `${a.eventId}-R${a.attempt}` })(a),
          )
        : a;
    const judged = await judgeWebhooks(retry, { tamper: renamed });
    expect(judged.message).toMatch(
      /it was never retried .*; delivery #\d+ is about the same payout\.processing with another event_id: a retry keeps the event_id/,
    );
  });

  it('fails a retry with another body', async () => {
    const changed = (a: SentAttempt) => (a.attempt === 3 ? withBody((b) => b.body.replace('"ok"', '"retried"'))(a) : a);
    const judged = await judgeWebhooks(retry, { tamper: changed });
    expect(judged.message).toMatch(/^delivery #\d+ retries #\d+ with another body/);
    expect(judged.failure?.details).toMatchObject({ expected: expect.stringMatching(/P-HOOK-3/), actual: 'another body' });
  });

  it('fails delays that shrink, and a third retry past the bound; passes it just within', async () => {
    const shrank = await judgeWebhooks(retry, { retryDelays: [8, 4, 2] });
    expect(shrank.message).toMatch(/the delays between attempts shrank \(8\.0 s, 4\.0 s, 2\.0 s\)/);
    expect(shrank.failure?.details).toMatchObject({
      expected: expect.stringMatching(/^delays not shrinking/),
      actual: '8.0 s, 4.0 s, 2.0 s',
    });
    expect(shrank.failure?.details.exchange?.label).toMatch(/\(attempt 3\)/);
    const late = await judgeWebhooks(retry, { retryDelays: [10, 20, 31] });
    expect(late.message).toMatch(/the 3rd retry came 61\.0 s after the first attempt, past .*\(60 s\)/);
    expect(late.failure?.details).toMatchObject({ expected: expect.stringMatching(/P-HOOK-3/), actual: '61.0 s' });
    expect(late.failure?.details.exchange?.label).toMatch(/\(attempt 4\)/);
    expect(await judgeWebhooks(retry, { retryDelays: [10, 20, 30] })).toEqual({ outcome: 'passed' });
  });

  it("reads the sender's own delays from X-TIMESTAMP only when it is whole seconds", async () => {
    // Arrival says the delays shrank (held up on the way); the sender's stamps say it waited 1, 2, then 4 s.
    const sent = (suffix: string) => (a: SentAttempt) =>
      resigned(withHeaders({ 'x-timestamp': `${Math.floor(a.createdAt / 1000) + [0, 1, 3, 7][a.attempt - 1]!}${suffix}` })(a));
    expect(await judgeWebhooks(retry, { retryDelays: [8, 4, 2], tamper: sent('') })).toEqual({ outcome: 'passed' });
    expect((await judgeWebhooks(retry, { retryDelays: [8, 4, 2], tamper: sent('.5') })).message).toMatch(
      /the delays between attempts shrank/,
    );
  });

  it('is skipped when no delivery about the payouts came to refuse', async () => {
    expect((await judgeWebhooks(retry, { events: () => [] })).outcome).toMatch(/^skipped: no delivery about the payouts/);
  });
});

describe('HOOK-AGREES-WITH-STATUS: Payout Status right after a final-state event answers that state or a later one', () => {
  const agrees = check('HOOK-AGREES-WITH-STATUS');

  it('fails a state before the event, and no state at all', async () => {
    const behind = await judgeWebhooks(agrees, { statusOf: (p) => (p.initiated === 'FAILED' ? 'FAILED' : 'PROCESSING') });
    expect(behind.message).toMatch(/says payout\.success for payout .*, but Payout Status asked right after it answers PROCESSING/);
    expect(behind.failure?.details).toMatchObject({ expected: 'Payout Status SUCCESS (or REVERSED) (P-HOOK-4)', actual: 'PROCESSING' });
    expect(behind.failure?.details.exchange?.label).toMatch(/^Payout Status right after the payout\.success delivery/);
    const none = await judgeWebhooks(agrees, { statusOf: () => undefined });
    expect(none.message).toMatch(/right after its payout\.(success|failed) delivery #\d+ answered no payout state$/);
    expect(none.failure?.details.exchange?.label).toMatch(/^Payout Status right after the payout\.(success|failed) delivery/);
  });

  it('passes REVERSED after payout.success, and is skipped when no event said a final state', async () => {
    expect(await judgeWebhooks(agrees, { statusOf: (p) => (p.initiated === 'FAILED' ? 'FAILED' : 'REVERSED') })).toEqual({
      outcome: 'passed',
    });
    expect((await judgeWebhooks(agrees, { events: () => ['payout.processing'] })).outcome).toMatch(
      /^skipped: no event about the kit's payouts said a final state/,
    );
  });
});
