// Test support: the webhook checks against a made-up target and receiver, without HTTP and on a
// virtual clock. The target delivers each payout's events as a correct sender does (canonical body,
// signed, retried after 1, 2, 4, 8 s) unless the test changes one thing: the events it sends, one
// attempt as sent, its retry delays, or what Payout Status answers.
import { virtualClock } from '../../core/clock-test-support.js';
import { EVENT_ID_HEADER, WEBHOOK_EVENTS, type WebhookEventName } from '../../core/webhooks.js';
import { canonicalize } from '../../signer/canonical.js';
import { hmacSha256Hex } from '../../signer/sign.js';
import type { AnswerPolicy, KitReceiver, ReceivedDelivery, StrayTally } from '../../webhooks/receiver.js';
import { CheckFailure, CheckSkipped, isCheckInconclusive, type Check, type CheckContext, type WebhookSession } from '../check.js';
import { madeUpConfig, madeUpContext, type Outcome, type Reply } from './made-up-server-test-support.js';
import type { SendOptions } from '../http.js';

/** One attempt of one event as the target sends it: what a test may change. */
export interface SentAttempt {
  event: WebhookEventName;
  eventId: string;
  payoutOrderId: string;
  /** 1 for the first attempt of the event. */
  attempt: number;
  /** When it arrives, ms on the run's clock. */
  at: number;
  /** When the event was made (its created_at), ms. */
  createdAt: number;
  headers: Record<string, string>;
  body: string;
}

export interface MadeUpPayout {
  payoutOrderId: string;
  /** PROCESSING (it then settles SUCCESS) or FAILED (beyond the balance). */
  initiated: 'PROCESSING' | 'FAILED';
}

export interface WebhookTarget {
  /** The events a payout's life sends, in order; default payout.processing then payout.success, or payout.failed. */
  events?: (payout: MadeUpPayout) => readonly WebhookEventName[];
  /** What one attempt looks like as sent (a defect); default as made. */
  tamper?: (attempt: SentAttempt) => SentAttempt;
  /** Seconds before each retry of an attempt not answered 200; default 1, 2, 4, 8. */
  retryDelays?: readonly number[];
  /** What Payout Status answers for a payout; default its final state (SUCCESS, or FAILED). */
  statusOf?: (payout: MadeUpPayout) => string | undefined;
  /** What the listener got besides the deliveries. */
  unseen?: Partial<StrayTally>;
  /** The merchant's registration as read during the observation (another run took it), if it changed. */
  registered?: string | null;
  /** The receiver's longest stall, ms. */
  stallMs?: number;
  /** What Balance Inquiry answers in place of 100.00 INR. */
  balance?: Reply;
  /** Sees each Transaction Initiation's body; what it returns is answered in place of the record (nothing is then sent about it). */
  initiation?: (body: Record<string, unknown>) => Reply | undefined;
}

const BALANCE = 100;
const RECEIVER_URL = 'http://127.0.0.1:9/webhooks';

function record(payout: MadeUpPayout, state: string): Record<string, unknown> {
  return {
    payout_id: `PAY-${payout.payoutOrderId}`,
    payout_order_id: payout.payoutOrderId,
    wallet_id: 'WTX-1',
    status: state,
    amount: payout.initiated === 'FAILED' ? '1100.00' : '10.00',
    currency: 'INR',
    utr_number: state === 'FAILED' ? 'NA' : '',
    message: state === 'FAILED' ? 'insufficient balance' : 'ok',
    amount_debited: state === 'FAILED' ? 'NO' : 'YES',
    created_at: '21-11-2026',
  };
}

/** A made-up receiver: deliveries arrive as the target schedules them, answered by the kit's policy. */
function madeUpReceiver(clock: { now(): number; sleep(ms: number): Promise<void> }, target: WebhookTarget, secret: string) {
  const list: ReceivedDelivery[] = [];
  const queue: SentAttempt[] = [];
  let policy: AnswerPolicy = () => 200;
  let flushing = false;
  const delays = target.retryDelays ?? [1, 2, 4, 8];

  /** An attempt arriving `at`; every attempt of an event carries the event as it was made, at `createdAt`. */
  const made = (
    event: WebhookEventName,
    payout: MadeUpPayout,
    eventId: string,
    attempt: number,
    at: number,
    createdAt = at,
  ): SentAttempt => {
    const body = canonicalize({
      event_id: eventId,
      event,
      created_at: Math.floor(createdAt / 1000),
      data: record(payout, WEBHOOK_EVENTS[event].state),
    });
    const timestamp = String(Math.floor(at / 1000));
    const headers = {
      'content-type': 'application/json',
      'x-signature': hmacSha256Hex(secret, body + timestamp),
      'x-timestamp': timestamp,
      [EVENT_ID_HEADER.toLowerCase()]: eventId,
    };
    return { event, eventId, payoutOrderId: payout.payoutOrderId, attempt, at, createdAt, headers, body };
  };
  const payouts = new Map<string, MadeUpPayout>();

  /** Delivers every attempt due, earliest first; an attempt not answered 200 is retried as the target retries. */
  const flush = () => {
    if (flushing) return;
    flushing = true;
    while (queue.length > 0) {
      queue.sort((a, b) => a.at - b.at);
      const next = queue.shift()!;
      const sent = (target.tamper ?? ((a) => a))(next);
      const delivery = {
        n: list.length + 1,
        receivedAt: sent.at,
        method: 'POST',
        path: '/webhooks',
        headers: sent.headers,
        body: sent.body,
        cut: false,
      };
      const answered = policy(delivery);
      list.push({ ...delivery, answered });
      const delay = delays[next.attempt - 1];
      if (answered !== 200 && delay !== undefined)
        queue.push(
          made(next.event, payouts.get(next.payoutOrderId)!, next.eventId, next.attempt + 1, next.at + delay * 1000, next.createdAt),
        );
    }
    flushing = false;
  };

  const receiver = {
    url: RECEIVER_URL,
    get deliveries() {
      flush();
      return list;
    },
    answerWith: (p: AnswerPolicy) => void (policy = p),
    async waitFor(match: (d: ReceivedDelivery) => boolean, deadline: number) {
      const found = receiver.deliveries.find(match);
      if (found === undefined) await clock.sleep(Math.max(0, deadline - clock.now()));
      return found;
    },
    longestStallMs: () => target.stallMs ?? 0,
    strays: (): StrayTally => ({ strays: 0, described: [], keptAtMost: 1_000, deliveriesNotKept: 0, ...target.unseen }),
  };

  /** The target initiated a payout: its events are scheduled from now on. */
  const initiated = (payout: MadeUpPayout) => {
    payouts.set(payout.payoutOrderId, payout);
    const events = target.events?.(payout) ?? (payout.initiated === 'FAILED' ? ['payout.failed'] : ['payout.processing', 'payout.success']);
    events.forEach((event, i) =>
      queue.push(made(event, payout, `EVT-${payout.payoutOrderId}-${i}`, 1, clock.now() + 100 * (i + 1) + payouts.size * 10)),
    );
  };
  return { receiver: receiver as unknown as KitReceiver, initiated, payouts };
}

/** A check's context against the made-up target (a run of its own: one observation). */
export function webhookContext(target: WebhookTarget = {}): CheckContext {
  const config = madeUpConfig();
  const clock = virtualClock(Date.UTC(2026, 10, 21, 10, 0, 0));
  const { receiver, initiated, payouts } = madeUpReceiver(clock, target, config.merchant.secretKey);
  const paths = config.profile!.operations!;
  const server = (options: SendOptions): Reply => {
    const body = options.payload as Record<string, unknown>;
    const ok = (data: Record<string, unknown>): Reply => ({ status: 200, json: { status: true, code: 200, message: 'ok', data } });
    if (options.path === paths.balanceInquiry!.path)
      return target.balance ?? ok({ svc_wallet_id: body.svc_wallet_id, balance: `${BALANCE}.00`, currency: 'INR' });
    const instead = options.path === paths.transactionInitiation!.path ? target.initiation?.(body) : undefined;
    if (instead !== undefined) return instead;
    if (options.path === paths.transactionInitiation!.path) {
      const payout: MadeUpPayout = {
        payoutOrderId: String(body.payout_order_id),
        initiated: Number(body.amount) > BALANCE ? 'FAILED' : 'PROCESSING',
      };
      initiated(payout);
      return ok(record(payout, payout.initiated));
    }
    const payout = payouts.get(String(body.payout_order_id));
    if (payout === undefined) return 404;
    const state = (target.statusOf ?? ((p) => (p.initiated === 'FAILED' ? 'FAILED' : 'SUCCESS')))(payout);
    return ok(state === undefined ? {} : record(payout, state));
  };
  const session: WebhookSession = {
    receiver,
    url: RECEIVER_URL,
    retryWithinMs: 60_000,
    ...(target.registered !== undefined ? { registered: () => Promise.resolve(target.registered) } : {}),
  };
  return { ...madeUpContext(config, server), clock, webhooks: () => Promise.resolve(session) };
}

/** One webhook check against the made-up target: its outcome ('inconclusive' too), and the failure when it failed. */
export async function judgeWebhooks(
  check: Check,
  target: WebhookTarget = {},
): Promise<{ outcome: Outcome | 'inconclusive'; failure?: CheckFailure; message?: string }> {
  const ctx = webhookContext(target);
  try {
    await check.run(ctx);
    return { outcome: 'passed' };
  } catch (error) {
    if (error instanceof CheckSkipped) return { outcome: `skipped: ${error.message}` };
    if (error instanceof CheckFailure) return { outcome: 'failed', failure: error, message: error.message };
    if (isCheckInconclusive(error)) return { outcome: 'inconclusive', message: error.message };
    throw error;
  }
}
