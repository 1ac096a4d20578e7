// The one observation the webhook checks share (P-HOOK-1…4), against a made-up target: which
// deliveries it refuses, when it asks Payout Status, how long it waits, and how it reads an event.
import { describe, expect, it } from 'vitest';
import type { AnswerPolicy, KitReceiver, ReceivedDelivery } from '../../webhooks/receiver.js';
import type { CheckContext } from '../check.js';
import { attemptGroup, observation, observationNotes, parseEvent, REFUSED_ATTEMPTS } from './webhook-observation.js';
import { webhookContext, type SentAttempt, type WebhookTarget } from './webhook-target-test-support.js';

const observe = (target: WebhookTarget = {}) => observation(webhookContext(target));

/** The observation with the made-up target's receiver (or session) seen through `wrap`. */
async function observeThrough(target: WebhookTarget, wrap: (receiver: KitReceiver, ctx: CheckContext) => Partial<KitReceiver>) {
  const ctx = webhookContext(target);
  const session = await ctx.webhooks();
  const receiver = session.receiver;
  const seen = Object.create(receiver, Object.getOwnPropertyDescriptors(wrap(receiver, ctx))) as KitReceiver;
  return observation({ ...ctx, webhooks: () => Promise.resolve({ ...session, receiver: seen }) });
}

/** A receiver whose deliveries arrive when the run's clock reaches them, as a real listener's do. The
 *  made-up target answers all its attempts at once, each after those before it: its policy sees them all. */
function arrivingOnTime(receiver: KitReceiver, ctx: CheckContext): Partial<KitReceiver> {
  let answering = false;
  const arrived = () => receiver.deliveries.filter((d) => answering || d.receivedAt <= ctx.clock.now());
  return {
    get deliveries() {
      return arrived();
    },
    answerWith: (policy: AnswerPolicy) =>
      receiver.answerWith((d) => {
        answering = true;
        try {
          return policy(d);
        } finally {
          answering = false;
        }
      }),
    async waitFor(match: (d: ReceivedDelivery) => boolean, deadline: number) {
      for (;;) {
        const found = arrived().find(match);
        const now = ctx.clock.now();
        if (found !== undefined || now >= deadline) return found;
        const next = receiver.deliveries.find((d) => d.receivedAt > now)?.receivedAt ?? deadline;
        await ctx.clock.sleep(Math.min(next, deadline) - now);
      }
    },
  };
}

describe('the observation of a correct sender', () => {
  it('initiates a payout that settles and one beyond the balance (FAILED), and reads each one last', async () => {
    const o = await observe();
    expect(o.payouts.map(({ initiated, ended }) => [initiated, ended])).toEqual([
      ['PROCESSING', 'SUCCESS'],
      ['FAILED', 'FAILED'],
    ]);
  });

  it(`refuses the first delivery about its payouts ${REFUSED_ATTEMPTS} times, then takes it and every other`, async () => {
    const o = await observe();
    expect(o.probe.map((d) => d.answered)).toEqual([500, 500, 500, 200]);
    expect(new Set(o.probe.map((d) => attemptGroup(d))).size).toBe(1);
    expect(o.deliveries.filter((d) => !o.probe.includes(d)).map((d) => d.answered)).toEqual([200, 200]);
  });

  it('asks Payout Status once after each final event of its payouts, however often the event is retried', async () => {
    const finalFirst: WebhookTarget = { events: (p) => (p.initiated === 'FAILED' ? ['payout.failed'] : ['payout.success']) };
    const o = await observe(finalFirst);
    expect(o.probe).toHaveLength(REFUSED_ATTEMPTS + 1);
    expect(o.statusAfter.map(({ delivery, state }) => [parseEvent(delivery).event, state])).toEqual([
      ['payout.success', 'SUCCESS'],
      ['payout.failed', 'FAILED'],
    ]);
  });

  it('asks nothing after an event about another payout, or one that says no final state', async () => {
    const elsewhere = (a: SentAttempt): SentAttempt =>
      a.event === 'payout.failed' ? { ...a, body: a.body.replaceAll(a.payoutOrderId, 'PO-SOMEONE-ELSES') } : a;
    const o = await observe({ tamper: elsewhere });
    expect(o.statusAfter.map(({ delivery }) => parseEvent(delivery).event)).toEqual(['payout.success']);
  });

  it('stops once the retries are in and every payout is acknowledged in a final state, waiting no longer', async () => {
    expect((await observe()).waitedSeconds).toBeLessThan(10);
    // Deliveries arriving in time: it wakes for the probe's fourth attempt (7.11 s), not at the next second.
    expect((await observeThrough({}, arrivingOnTime)).waitedSeconds).toBe(7);
  });

  it('takes a delivery about another payout that comes first, and refuses the first of its own', async () => {
    const elsewhere = (a: SentAttempt): SentAttempt =>
      a.event === 'payout.processing' ? { ...a, body: a.body.replaceAll(a.payoutOrderId, 'PO-SOMEONE-ELSES') } : a;
    const o = await observe({ tamper: elsewhere });
    expect(o.deliveries.map((d) => [parseEvent(d).event, d.answered])).toEqual([
      ['payout.processing', 200],
      ['payout.failed', 500],
      ['payout.success', 200],
      ['payout.failed', 500],
      ['payout.failed', 500],
      ['payout.failed', 200],
    ]);
  });

  it('refuses nothing and has no probe when no delivery can be grouped', async () => {
    const o = await observe({ tamper: (a) => ({ ...a, body: '{}' }) });
    expect(o.deliveries.map((d) => d.answered)).toEqual([200, 200, 200]);
    expect(o.probe).toEqual([]);
  });

  it('leaves out what the receiver got before the observation began', async () => {
    const earlier = {
      n: 1,
      receivedAt: 0,
      method: 'POST',
      path: '/webhooks',
      headers: {},
      body: '{"event":"payout.success"}',
      cut: false,
      answered: 200,
    };
    const o = await observeThrough({}, (receiver) => ({
      get deliveries() {
        return [earlier, ...receiver.deliveries];
      },
    }));
    expect(o.deliveries).not.toContain(earlier);
    expect(o.deliveries).toHaveLength(6);
  });

  it('acknowledges every later delivery with 200 once it ends', async () => {
    let policy: AnswerPolicy | undefined;
    await observeThrough({}, (receiver) => ({ answerWith: (p: AnswerPolicy) => void ((policy = p), receiver.answerWith(p)) }));
    expect(policy?.({ n: 9, receivedAt: 0, method: 'POST', path: '/webhooks', headers: {}, body: '{}', cut: false })).toBe(200);
  });

  it('leaves a payout without an end state, and takenBy, unsaid when Payout Status and the registration say nothing', async () => {
    const o = await observe({ statusOf: () => undefined });
    expect(o.payouts).toHaveLength(2);
    for (const p of o.payouts) expect(p.ended).toBeUndefined();
    expect(o.takenBy).toBeUndefined();
  });
});

describe('when the retries and the final events are in', () => {
  const someoneElses = (a: SentAttempt): SentAttempt =>
    a.event === 'payout.failed' ? { ...a, body: a.body.replaceAll(a.payoutOrderId, 'PO-SOMEONE-ELSES') } : a;

  it('waits for the bound while one payout has no final event of its own, whatever others say', async () => {
    expect((await observe({ tamper: someoneElses })).waitedSeconds).toBe(62);
  });

  it('waits for the bound when only two retries come, one fewer than asked for', async () => {
    expect((await observe({ retryDelays: [1, 2] })).waitedSeconds).toBe(62);
  });

  it('waits for a final event refused with the probe until one of its attempts is acknowledged', async () => {
    // A sender that gives every event of the settling payout one event_id: its success is refused as the probe.
    const oneId = (a: SentAttempt): SentAttempt => (a.event === 'payout.failed' ? a : { ...a, body: a.body.replace(a.eventId, 'EVT-ONE') });
    const events = (p: { initiated: string }) =>
      p.initiated === 'FAILED'
        ? (['payout.failed'] as const)
        : (['payout.success', 'payout.processing', 'payout.processing', 'payout.processing'] as const);
    const o = await observeThrough({ events, tamper: oneId }, arrivingOnTime);
    expect(o.deliveries.filter((d) => parseEvent(d).event === 'payout.success').map((d) => d.answered)).toEqual([500, 200]);
    expect(o.waitedSeconds).toBe(1);
  });
});

describe('how long the observation waits', () => {
  it('without any delivery: the retry bound (60 s) and 2 s of grace, plus its own longest stall', async () => {
    expect((await observe({ events: () => [] })).waitedSeconds).toBe(62);
    const stalled = await observe({ events: () => [], stallMs: 3_000 });
    expect([stalled.waitedSeconds, stalled.stallSeconds]).toEqual([65, 3]);
  });

  it('from the first refused attempt, when its retries never come', async () => {
    expect((await observe({ retryDelays: [] })).waitedSeconds).toBe(62);
  });

  it('a second or so once another run takes the registration meanwhile, naming the first to take it', async () => {
    const ctx = webhookContext({ events: () => [] });
    const session = await ctx.webhooks();
    const reads = [session.url, 'http://127.0.0.1:8/first', 'http://127.0.0.1:8/second'];
    session.registered = () => Promise.resolve(reads.length > 1 ? reads.shift() : reads[0]);
    const o = await observation(ctx);
    expect([o.takenBy, o.waitedSeconds]).toEqual(['http://127.0.0.1:8/first', 1]);
  });

  it('not at all once another run took the registration: deliveries go elsewhere', async () => {
    const o = await observe({ events: () => [], registered: 'http://127.0.0.1:8/webhooks' });
    expect([o.takenBy, o.waitedSeconds]).toEqual(['http://127.0.0.1:8/webhooks', 0]);
    expect((await observe({ registered: 'http://127.0.0.1:9/webhooks' })).takenBy).toBeUndefined();
  });
});

describe('the payouts it initiates', () => {
  it('skips, naming the answer, when Transaction Initiation refuses them', async () => {
    for (const status of [199, 300, 422])
      await expect(observe({ initiation: () => status })).rejects.toThrow(
        new RegExp(`^could not initiate a payout of 10 that settles to observe its webhooks: Transaction Initiation answered ${status}`),
      );
    await expect(observe({ initiation: () => 'no answer' })).rejects.toThrow(/Transaction Initiation answered connection refused/);
  });

  it('takes any 2xx, and a record without a state, or with one that is not text, as "unknown"', async () => {
    const o = await observe({
      initiation: (body) => ({
        status: 299,
        json: {
          status: true,
          code: 299,
          message: 'ok',
          data: { payout_order_id: body.payout_order_id, ...(body.amount === 10 ? {} : { status: 3 }) },
        },
      }),
      events: () => [],
    });
    expect(o.payouts.map((p) => p.initiated)).toEqual(['unknown', 'unknown']);
  });

  it('skips when the balance cannot be read, or says no balance or currency', async () => {
    await expect(observe({ balance: 500 })).rejects.toThrow(
      /^could not read the wallet's balance .*: Balance Inquiry answered 500 \(OPS-BALANCE judges that\)$/,
    );
    const without = (data: Record<string, unknown>) => ({ status: 200, json: { status: true, code: 200, message: 'ok', data } });
    await expect(observe({ balance: without({ currency: 'INR' }) })).rejects.toThrow(
      /^Balance Inquiry answered no usable balance and currency/,
    );
    await expect(observe({ balance: without({ balance: '5.00' }) })).rejects.toThrow(
      /^Balance Inquiry answered no usable balance and currency/,
    );
  });

  it('pays out 10, then 1000 more than the whole balance (0 when it is negative), in its currency', async () => {
    const sent = async (balance: string) => {
      const bodies: Array<Record<string, unknown>> = [];
      const data = { balance, currency: 'EUR' };
      await observe({
        balance: { status: 200, json: { status: true, code: 200, message: 'ok', data } },
        initiation: (body) => void bodies.push(body),
      });
      return bodies.map((b) => [b.amount, b.currency]);
    };
    expect(await sent('100.75')).toEqual([
      [10, 'EUR'],
      [1100, 'EUR'],
    ]);
    expect(await sent('-5.00')).toEqual([
      [10, 'EUR'],
      [1000, 'EUR'],
    ]);
  });
});

describe('reading a delivery', () => {
  const delivery = (body: unknown): Pick<ReceivedDelivery, 'body'> => ({ body: typeof body === 'string' ? body : JSON.stringify(body) });

  it.each([
    ['no JSON', '{', {}],
    ['JSON that is no object', [1], {}],
    ['null', null, {}],
    [
      'an unknown event',
      { event_id: 'E1', event: 'payout.settled', data: { payout_order_id: 'P1', status: 'SUCCESS' } },
      { eventId: 'E1' },
    ],
    [
      'a payout event',
      { event_id: 'E1', event: 'payout.success', data: { payout_order_id: 'P1', status: 'SUCCESS' } },
      { eventId: 'E1', event: 'payout.success', subject: 'P1', state: 'SUCCESS' },
    ],
    [
      'a payout event with a numeric id',
      { event: 'payout.failed', data: { payout_order_id: 77, status: 'FAILED' } },
      { event: 'payout.failed', subject: '77', state: 'FAILED' },
    ],
    [
      'a payment event',
      { event_id: 7, event: 'payment.success', data: { order_id: 'O1', order_status: 'PAID', status: 'x' } },
      { event: 'payment.success', subject: 'O1', state: 'PAID' },
    ],
    ['an event without data', { event_id: 'E1', event: 'payout.success' }, { eventId: 'E1', event: 'payout.success' }],
    [
      'an event whose id and state are not text',
      { event: 'payout.success', data: { payout_order_id: true, status: 3 } },
      { event: 'payout.success' },
    ],
  ])('%s', (_, body, parsed) => {
    expect(parseEvent(delivery(body))).toEqual(parsed);
  });

  it('groups attempts by event_id, else by event and subject, else not at all', () => {
    expect(attemptGroup(delivery({ event_id: 'E1', event: 'payout.success', data: { payout_order_id: 'P1' } }))).toBe('id:E1');
    expect(attemptGroup(delivery({ event: 'payout.success', data: { payout_order_id: 'P1' } }))).toBe('about:payout.success:P1');
    expect(attemptGroup(delivery({ event: 'payout.success', data: {} }))).toBeUndefined();
    expect(attemptGroup(delivery({ data: { payout_order_id: 'P1' } }))).toBeUndefined();
  });
});

describe('observationNotes: what the listener got that is no verdict', () => {
  const tally = { strays: 0, described: [], keptAtMost: 1_000, deliveriesNotKept: 0 };
  const get = { method: 'GET', path: '/', why: 'another path' as const, marked: false };
  const marked = { method: 'PUT', path: '/webhooks', why: 'not POST' as const, marked: true };

  it('says nothing when there was nothing else', () => {
    expect(observationNotes({ unseen: tally })).toEqual([]);
  });

  it('names one stray, or each described one and how many more', () => {
    expect(observationNotes({ unseen: { ...tally, strays: 1, described: [get] } })).toEqual([
      "1 stray request to the kit's webhook listener was ignored, not judged as the target's deliveries: GET / (another path)",
    ]);
    expect(observationNotes({ unseen: { ...tally, strays: 4, described: [get, marked] } })).toEqual([
      "4 stray requests to the kit's webhook listener were ignored, not judged as the target's deliveries: GET / (another path), PUT /webhooks (not POST, with delivery headers) and 2 more",
    ]);
  });

  it('says how many deliveries past its limit were acknowledged but not judged', () => {
    expect(observationNotes({ unseen: { ...tally, keptAtMost: 5, deliveriesNotKept: 2 } })).toEqual([
      "the kit's webhook listener kept the first 5 deliveries and judged those; 2 more were acknowledged with 200 but neither kept nor judged",
    ]);
  });
});
