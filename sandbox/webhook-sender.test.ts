// The sandbox's webhook sender (P-HOOK-1…5) on a real socket: what it delivers, how it retries, and
// what each sender fault breaks. Signatures are checked here with node's own HMAC over the bytes
// received, not with the kit's signer. The sandbox and the receiver share a manual clock the test
// moves: a settlement and each retry come when it says, exactly, and nothing waits for them.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, type ManualClock } from '../core/clock-test-support.js';
import { KitReceiver, type ReceivedDelivery } from '../webhooks/receiver.js';
import { startSandbox, type FaultName, type RunningSandbox } from './index.js';
import { OPERATION_PATHS } from './paths.js';
import { MERCHANT_A, MERCHANT_B } from './tenants.js';
import { initiationBody } from './operations/payout-test-support.js';
import type { Answer } from './test-support.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

/** The sandbox's default: a payout or a pending payment settles this long after it began. */
const SETTLE_MS = 2_000;

interface Setup {
  sandbox: RunningSandbox;
  receiver: KitReceiver;
  clock: ManualClock;
  log: string[];
  post(path: string, payload: unknown, merchant?: typeof MERCHANT_A): Promise<Pick<Answer, 'status' | 'json'>>;
  /** The first delivery `match` accepts, already here or when it comes. */
  waitFor(match: (d: ReceivedDelivery) => boolean): Promise<ReceivedDelivery>;
  /** Resolves once the delivery log has a line containing `text`. */
  logged(text: string): Promise<void>;
}

/**
 * What a test waits for comes on loopback in milliseconds, whatever the clock says; this real-time
 * bound only ends, with a clear message, a test that has failed.
 */
async function within<T>(waiting: Promise<T>, what: () => string): Promise<T> {
  let bound: ReturnType<typeof setTimeout> | undefined;
  const failed = new Promise<never>((_, reject) => {
    bound = setTimeout(() => reject(new Error(what())), 20_000);
  });
  try {
    return await Promise.race([waiting, failed]);
  } finally {
    clearTimeout(bound);
  }
}

async function setup(faults: FaultName[] = [], register = true, allowRemoteWebhooks = false): Promise<Setup> {
  const clock = manualClock();
  const receiver = await KitReceiver.start({ listen: '127.0.0.1:0', clock });
  const log: string[] = [];
  const readers = new Set<() => void>();
  const sandbox = await startSandbox({
    port: 0,
    clock,
    faults,
    allowRemoteWebhooks,
    ...(register ? { webhookUrl: receiver.url } : {}),
    deliveryLog: (line) => {
      log.push(line);
      for (const read of readers) read();
    },
  });
  open.push(sandbox, receiver);
  let second = 0;
  return {
    sandbox,
    receiver,
    clock,
    log,
    async post(path, payload, merchant = MERCHANT_A) {
      // A timestamp never used before: the sandbox refuses replays.
      const timestamp = Math.max(Math.floor(clock.now() / 1000), second + 1);
      second = timestamp;
      const body = JSON.stringify(sortKeys(payload));
      const signature = createHmac('sha256', merchant.secretKey)
        .update(body + timestamp)
        .digest('hex');
      const response = await fetch(sandbox.baseUrl + path, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-api-key': merchant.apiKey,
          'x-timestamp': String(timestamp),
          'x-signature': signature,
        },
      });
      return { status: response.status, json: await response.json() };
    },
    async waitFor(match) {
      // No deadline on the clock: only the test moves it.
      const found = await within(receiver.waitFor(match, Number.POSITIVE_INFINITY), () => `no matching delivery; log:\n${log.join('\n')}`);
      return found!;
    },
    logged(text) {
      const seen = new Promise<void>((resolve) => {
        const read = () => {
          if (!log.some((line) => line.includes(text))) return;
          readers.delete(read);
          resolve();
        };
        readers.add(read);
        read();
      });
      return within(seen, () => `the delivery log never said "${text}":\n${log.join('\n')}`);
    },
  };
}

/** Keys sorted at every depth: enough of the canonical text for these ASCII payloads. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}

const eventOf = (d: ReceivedDelivery) =>
  JSON.parse(d.body) as { event_id: string; event: string; created_at: unknown; data: Record<string, unknown> };
const about = (event: string, payoutOrderId: string) => (d: ReceivedDelivery) => {
  try {
    const e = eventOf(d);
    return e.event === event && e.data.payout_order_id === payoutOrderId;
  } catch {
    return false;
  }
};
const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

/**
 * Refuses every attempt of one payout.failed delivery, moving the manual clock on by each of
 * `delays` (ms) once the attempt before has been answered: the sender's schedule must bring the
 * next attempt exactly then. Returns the attempts.
 */
async function refusedAttempts(faults: FaultName[], delays: number[]): Promise<{ s: Setup; attempts: ReceivedDelivery[] }> {
  const s = await setup(faults);
  s.receiver.answerWith(() => 500);
  await s.post(OPERATION_PATHS.transactionInitiation, initiationBody('PO-HOOK-R', { amount: 100.13 }));
  for (const [i, delay] of delays.entries()) {
    // An attempt's answer is logged before its retry is scheduled.
    await s.logged(` attempt ${i + 1} 500 `);
    await s.clock.advance(delay);
    // Stamped when the sender's timer fired: an attempt early or late shows in the gaps.
    await s.waitFor(() => s.receiver.deliveries.length >= i + 2);
  }
  return { s, attempts: s.receiver.deliveries };
}

/** The seconds between attempts, by when they arrived and by their X-TIMESTAMP. */
const gapsOf = (attempts: readonly ReceivedDelivery[]) => ({
  arrived: attempts.slice(1).map((d, i) => (d.receivedAt - attempts[i]!.receivedAt) / 1000),
  stamped: attempts.slice(1).map((d, i) => Number(d.headers['x-timestamp']) - Number(attempts[i]!.headers['x-timestamp'])),
});

/**
 * Nothing was sent and nothing will be: the sender has no attempt on its way and no retry waiting. An
 * attempt, once made, is on its way until its answer has been read, and by then the receiver has it.
 */
function expectNothingMore(s: Setup, deliveries: number): void {
  expect(s.sandbox.app.webhooks.busy).toBe(false);
  expect(s.receiver.deliveries).toHaveLength(deliveries);
}

describe('the sandbox delivers webhooks (P-HOOK-1, P-HOOK-2)', () => {
  it("delivers payout.failed for a payout the bank rejects: canonical body, signed with the merchant's secret over the bytes sent", async () => {
    const s = await setup();
    const answer = await s.post(OPERATION_PATHS.transactionInitiation, initiationBody('PO-HOOK-1', { amount: 100.13 }));
    expect(answer.json.data.status).toBe('FAILED');
    const d = await s.waitFor(about('payout.failed', 'PO-HOOK-1'));
    expect(d.method).toBe('POST');
    expect(d.headers['content-type']).toBe('application/json');
    expect(d.headers['x-signature']).toBe(hmac(MERCHANT_A.secretKey, d.body + d.headers['x-timestamp']));
    const event = eventOf(d);
    expect(d.headers['x-event-id']).toBe(event.event_id);
    expect(d.body).toBe(JSON.stringify(sortKeys(event)));
    expect(Number.isInteger(event.created_at)).toBe(true);
    // The record Payout Status answers, field for field.
    const status = await s.post(OPERATION_PATHS.payoutStatus, {
      svc_wallet_id: MERCHANT_A.walletId,
      debit_account_type: 'svc_wallet',
      payout_order_id: 'PO-HOOK-1',
    });
    expect(event.data).toEqual(status.json.data);
    expect(s.log.some((line) => line.includes(`webhook payout.failed ${event.event_id} attempt 1 200`))).toBe(true);
  });

  it('notifies payout.processing at initiation and payout.success when the payout settles, though nobody asks', async () => {
    const s = await setup();
    await s.post(OPERATION_PATHS.transactionInitiation, initiationBody('PO-HOOK-2', { amount: 25 }));
    await s.waitFor(about('payout.processing', 'PO-HOOK-2'));
    await s.clock.advance(SETTLE_MS);
    const success = eventOf(await s.waitFor(about('payout.success', 'PO-HOOK-2')));
    expect(success.data.status).toBe('SUCCESS');
    expect(success.data.utr_number).not.toBe('');
  });

  it('notifies a control-endpoint reversal as payout.reversed, and sends nothing for a PENDING payout', async () => {
    const s = await setup();
    await s.post(OPERATION_PATHS.transactionInitiation, initiationBody('PO-HOOK-3', { amount: 100.42 }));
    await s.post(OPERATION_PATHS.settlePayout, { payout_order_id: 'PO-HOOK-3', status: 'SUCCESS' });
    await s.post(OPERATION_PATHS.settlePayout, { payout_order_id: 'PO-HOOK-3', status: 'REVERSED' });
    await s.waitFor(about('payout.reversed', 'PO-HOOK-3'));
    const events = s.receiver.deliveries.map((d) => eventOf(d).event);
    expect(events).toEqual(['payout.success', 'payout.reversed']);
  });

  it("signs each merchant's events with its own secret", async () => {
    const s = await setup();
    await s.post(
      OPERATION_PATHS.transactionInitiation,
      { ...initiationBody('PO-HOOK-B', { amount: 10.13 }), svc_wallet_id: MERCHANT_B.walletId },
      MERCHANT_B,
    );
    const d = await s.waitFor(about('payout.failed', 'PO-HOOK-B'));
    expect(d.headers['x-signature']).toBe(hmac(MERCHANT_B.secretKey, d.body + d.headers['x-timestamp']));
  });

  it('delivers nothing for a merchant without a receiver', async () => {
    const s = await setup([], false);
    await s.post(OPERATION_PATHS.transactionInitiation, initiationBody('PO-HOOK-4', { amount: 100.13 }));
    // A delivery is on its way from the moment the state changes: once the sender is idle, none was.
    expectNothingMore(s, 0);
  });
});

describe('retries (P-HOOK-3)', () => {
  it('retries a failed delivery after 1, 2 and 4 s with the same event and body, each attempt freshly timestamped and signed', async () => {
    const { s, attempts } = await refusedAttempts([], [1_000, 2_000, 4_000]);
    expect(new Set(attempts.map((d) => d.body)).size).toBe(1);
    expect(new Set(attempts.map((d) => d.headers['x-event-id'])).size).toBe(1);
    for (const d of attempts) expect(d.headers['x-signature']).toBe(hmac(MERCHANT_A.secretKey, d.body + d.headers['x-timestamp']));
    expect(gapsOf(attempts)).toEqual({ arrived: [1, 2, 4], stamped: [1, 2, 4] });
    // The fourth attempt has arrived; its 500 is logged once the sender has read the answer.
    await s.logged(' attempt 4 500 ');
    expect(s.log.filter((line) => line.includes(' 500 ')).length).toBe(4);
  });

  it('gives up after the fifth attempt (retries 1, 2, 4 and 8 s apart), saying so in the delivery log', async () => {
    const { s, attempts } = await refusedAttempts([], [1_000, 2_000, 4_000, 8_000]);
    expect(gapsOf(attempts).stamped).toEqual([1, 2, 4, 8]);
    await s.logged('not acknowledged after 5 attempts; giving up');
    await s.clock.advance(600_000);
    expectNothingMore(s, 5);
    expect(s.log.at(-1)).toMatch(/not acknowledged after 5 attempts; giving up/);
  });
});

describe('registration (P-HOOK-5)', () => {
  it("registers, reads and removes a merchant's receiver through the signed control request", async () => {
    const s = await setup([], false);
    expect((await s.post(OPERATION_PATHS.registerWebhook, {})).json.data).toEqual({ url: null });
    const registered = await s.post(OPERATION_PATHS.registerWebhook, { url: s.receiver.url });
    expect(registered.json.data).toEqual({ url: s.receiver.url, previous_url: null });
    await s.post(OPERATION_PATHS.transactionInitiation, initiationBody('PO-HOOK-7', { amount: 100.13 }));
    await s.waitFor(about('payout.failed', 'PO-HOOK-7'));
    expect((await s.post(OPERATION_PATHS.registerWebhook, { url: null })).json.data).toEqual({ url: null, previous_url: s.receiver.url });
  });

  it('refuses a URL it could not deliver to, with 400', async () => {
    const s = await setup([], false);
    for (const url of ['ftp://hooks.example.test/', 'not a url', 'https://user:pw@hooks.example.test/', 42]) {
      const answer = await s.post(OPERATION_PATHS.registerWebhook, { url });
      expect(answer.status, String(url)).toBe(400);
    }
  });
});

describe('registration is loopback only unless allowed (the demo credentials are public)', () => {
  it('refuses a URL off this machine with 403 and the error envelope, registering nothing', async () => {
    const s = await setup([], false);
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'https://hooks.example.test/svc',
      'http://10.0.0.1:8080/hooks',
      'http://0.0.0.0:9/',
      'http://localhost.example.test/',
    ]) {
      const answer = await s.post(OPERATION_PATHS.registerWebhook, { url });
      expect(answer.status, url).toBe(403);
      expect(answer.json).toEqual({
        status: false,
        code: 403,
        message:
          'url must be on this machine (127.0.0.0/8, ::1 or localhost): the demo credentials are public, so this sandbox delivers elsewhere only when started with serve --allow-remote-webhooks',
      });
    }
    expect((await s.post(OPERATION_PATHS.registerWebhook, {})).json.data).toEqual({ url: null });
  });

  it('takes any loopback URL, and a remote one when allowRemoteWebhooks is set', async () => {
    const s = await setup([], false);
    // 2130706433 is 127.0.0.1 written as one number: the URL parser's reading is what is judged.
    for (const url of [
      'http://127.0.0.1:9/hooks',
      'http://127.9.9.9:9/',
      'http://localhost:9/',
      'http://[::1]:9/',
      'http://2130706433:9/',
    ]) {
      expect((await s.post(OPERATION_PATHS.registerWebhook, { url })).status, url).toBe(200);
    }
    const open = await setup([], false, true);
    expect((await open.post(OPERATION_PATHS.registerWebhook, { url: 'https://hooks.example.test/svc' })).json.data).toEqual({
      url: 'https://hooks.example.test/svc',
      previous_url: null,
    });
  });
});

describe('the hosted checkout fires payment events (P-HOOK-2, P-OPS-1)', () => {
  async function order(s: Setup, orderId: string) {
    const created = await s.post(OPERATION_PATHS.createOrder, {
      order_id: orderId,
      order_amount: 99.5,
      order_currency: 'INR',
      service_type: 'payment',
      return_url: 'https://shop.example/return',
      customer: {
        name: 'Zoë Brandt',
        email: 'zoe@example.org',
        phone: '9123456780',
        address: { line1: '1 Main St', city: 'Pune', state: 'MH', country: 'IN', postal_code: '411001' },
      },
    });
    return created.json.return_data.payment_link as string;
  }
  const pay = (link: string, outcome: string) =>
    fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `method=upi&outcome=${outcome}`,
    });
  const aboutOrder = (event: string, orderId: string) => (d: ReceivedDelivery) =>
    eventOf(d).event === event && eventOf(d).data.order_id === orderId;

  it('an expired session is payment.expired, and the order can be neither paid nor cancelled afterwards', async () => {
    const s = await setup();
    const link = await order(s, 'ORD-HOOK-EXP');
    expect((await pay(link, 'expire')).status).toBe(200);
    const event = eventOf(await s.waitFor(aboutOrder('payment.expired', 'ORD-HOOK-EXP')));
    expect(event.data.order_status).toBe('EXPIRED');
    expect((await pay(link, 'success')).status).toBe(409);
    expect((await s.post(OPERATION_PATHS.orderCancel, { order_id: 'ORD-HOOK-EXP' })).status).toBe(422);
  });

  it('a payment left pending is payment.processing, then payment.success when it settles', async () => {
    const s = await setup();
    await pay(await order(s, 'ORD-HOOK-PEND'), 'pending');
    await s.waitFor(aboutOrder('payment.processing', 'ORD-HOOK-PEND'));
    await s.clock.advance(SETTLE_MS);
    const paid = eventOf(await s.waitFor(aboutOrder('payment.success', 'ORD-HOOK-PEND')));
    expect(paid.data).toMatchObject({ order_status: 'PAID', order_amount: '99.50', order_currency: 'INR' });
  });
});

describe('sender faults, each breaking one P-HOOK rule', () => {
  const failedPayout = async (faults: FaultName[], answer?: (d: Omit<ReceivedDelivery, 'answered'>) => number) => {
    const s = await setup(faults);
    if (answer) s.receiver.answerWith(answer);
    await s.post(OPERATION_PATHS.transactionInitiation, initiationBody('PO-HOOK-F', { amount: 100.13 }));
    return s;
  };

  it("'hook-no-event-id': no X-EVENT-ID", async () => {
    const s = await failedPayout(['hook-no-event-id']);
    expect((await s.waitFor(() => true)).headers['x-event-id']).toBeUndefined();
  });

  it("'hook-non-canonical-body': keys in insertion order, signed so", async () => {
    const s = await failedPayout(['hook-non-canonical-body']);
    const d = await s.waitFor(() => true);
    expect(d.body.startsWith('{"event_id":')).toBe(true);
    expect(d.headers['x-signature']).toBe(hmac(MERCHANT_A.secretKey, d.body + d.headers['x-timestamp']));
  });

  it("'hook-sign-reserialized': the signature does not cover the bytes sent", async () => {
    const s = await failedPayout(['hook-sign-reserialized']);
    const d = await s.waitFor(() => true);
    expect(d.body).toBe(JSON.stringify(sortKeys(JSON.parse(d.body))));
    expect(d.headers['x-signature']).not.toBe(hmac(MERCHANT_A.secretKey, d.body + d.headers['x-timestamp']));
  });

  it("'hook-separate-secret': signed with another secret", async () => {
    const s = await failedPayout(['hook-separate-secret']);
    const d = await s.waitFor(() => true);
    expect(d.headers['x-signature']).not.toBe(hmac(MERCHANT_A.secretKey, d.body + d.headers['x-timestamp']));
  });

  it("'hook-same-timestamp': every retry carries the first attempt's timestamp and signature", async () => {
    const { attempts } = await refusedAttempts(['hook-same-timestamp'], [1_000, 2_000]);
    expect(new Set(attempts.map((d) => `${d.headers['x-timestamp']} ${d.headers['x-signature']}`)).size).toBe(1);
    expect(gapsOf(attempts).arrived).toEqual([1, 2]);
  });

  it("'hook-created-at-iso': created_at is text", async () => {
    const s = await failedPayout(['hook-created-at-iso']);
    expect(eventOf(await s.waitFor(() => true)).created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("'hook-silent-failures': a FAILED payout is not notified", async () => {
    const s = await failedPayout(['hook-silent-failures']);
    expectNothingMore(s, 0);
  });

  it("'hook-no-retry': one attempt only", async () => {
    const { s } = await refusedAttempts(['hook-no-retry'], []);
    await s.logged('not acknowledged after 1 attempt; giving up');
    await s.clock.advance(600_000);
    expectNothingMore(s, 1);
  });

  it("'hook-retry-countdown': each retry comes sooner than the one before", async () => {
    // The schedule read from its end: 8, 4 and 2 s, where a conforming sender waits 1, 2 and 4.
    const { attempts } = await refusedAttempts(['hook-retry-countdown'], [8_000, 4_000, 2_000]);
    expect(gapsOf(attempts)).toEqual({ arrived: [8, 4, 2], stamped: [8, 4, 2] });
  });

  it("'hook-contradicts-status': payout.success while Payout Status says PROCESSING", async () => {
    // The clock stands still: the payout cannot settle between the delivery and the status read.
    const s = await setup(['hook-contradicts-status']);
    await s.post(OPERATION_PATHS.transactionInitiation, initiationBody('PO-HOOK-C', { amount: 25 }));
    const d = await s.waitFor(about('payout.success', 'PO-HOOK-C'));
    expect(eventOf(d).data.status).toBe('SUCCESS');
    const status = await s.post(OPERATION_PATHS.payoutStatus, {
      svc_wallet_id: MERCHANT_A.walletId,
      debit_account_type: 'svc_wallet',
      payout_order_id: 'PO-HOOK-C',
    });
    expect(status.json.data.status).toBe('PROCESSING');
  });
});
