// One observation per run, shared by the webhook checks (P-HOOK-1…4): two payouts of the kit's own (one
// settles, one FAILED by P-OPS-3 on any target), the first delivery about them refused to see retries.
import { memo } from '../../common/memo.js';
import type { Exchange } from '../../core/exchange.js';
import { isJsonObject, jsonOf } from '../../core/json-of.js';
import { isWebhookEventName, MIN_RETRIES, WEBHOOK_EVENTS, type WebhookEventName } from '../../core/webhooks.js';
import type { Currency } from '../../schemas/types.js';
import type { KitReceiver, ReceivedDelivery, StrayTally } from '../../webhooks/receiver.js';
import { CheckSkipped, type CheckContext, type WebhookSession } from '../check.js';
import { WALLET } from './operations.js';
import { balanceInquiry, dataOf, decimalOf, expectData, initiatePayout, payoutRequest, payoutStatus } from '../requests.js';

/** A delivery's body read as an event, as far as it reads. */
export interface ParsedEvent {
  eventId?: string;
  event?: WebhookEventName;
  /** payout_order_id of a payout event's record, order_id of a payment event's, as text. */
  subject?: string;
  /** The state the record in `data` says. */
  state?: string;
}

export interface ObservedPayout {
  payoutOrderId: string;
  /** The state Transaction Initiation answered. */
  initiated: string;
  /** The state Payout Status answered when the observation ended. */
  ended?: string;
}

export interface Observation {
  session: WebhookSession;
  /** The payouts the observation initiated. */
  payouts: ObservedPayout[];
  /** Every delivery the receiver got until the observation ended, in arrival order. */
  deliveries: ReceivedDelivery[];
  /** The attempts of the delivery the kit refused to see retries (the first about its payouts), if any came. */
  probe: ReceivedDelivery[];
  /** Payout Status asked right after the first attempt of each event of ours that says a final state. */
  statusAfter: Array<{ delivery: ReceivedDelivery; state: string | undefined; exchange: Exchange }>;
  /** How long the observation waited, seconds: for messages. */
  waitedSeconds: number;
  /** The longest pause of the kit's own process while it watched, seconds of the run's clock (HOOK-RETRY allows for it). */
  stallSeconds: number;
  /** What the listener got until the observation ended that is not among the deliveries: strays, deliveries past its limit. */
  unseen: StrayTally;
  /** The merchant's webhook registration as seen when it was no longer the kit's receiver (another run took it), if it ever was not. */
  takenBy?: string | null;
}

/** The delivery refused this many times (answered 500), so the retries can be seen. */
export const REFUSED_ATTEMPTS = MIN_RETRIES;
/** After P-HOOK-3's bound, a little longer for an attempt already on its way. */
const GRACE_MS = 2_000;

export function parseEvent(delivery: Pick<ReceivedDelivery, 'body'>): ParsedEvent {
  const e = jsonOf(delivery.body);
  if (!isJsonObject(e)) return {};
  const parsed: ParsedEvent = {};
  if (typeof e.event_id === 'string') parsed.eventId = e.event_id;
  if (isWebhookEventName(e.event)) parsed.event = e.event;
  const data = e.data;
  if (isJsonObject(data) && parsed.event !== undefined) {
    const payout = WEBHOOK_EVENTS[parsed.event].subject === 'payout';
    const id = payout ? data.payout_order_id : data.order_id;
    if (typeof id === 'string' || typeof id === 'number') parsed.subject = String(id);
    const state = payout ? data.status : data.order_status;
    if (typeof state === 'string') parsed.state = state;
  }
  return parsed;
}

/** Which attempts belong together: the body's event_id, else the event and its subject. */
export function attemptGroup(delivery: Pick<ReceivedDelivery, 'body'>): string | undefined {
  const e = parseEvent(delivery);
  if (e.eventId !== undefined) return `id:${e.eventId}`;
  return e.event !== undefined && e.subject !== undefined ? `about:${e.event}:${e.subject}` : undefined;
}

/** One observation per run (its client), made by the first webhook check that asks. */
const observations = new WeakMap<object, Promise<Observation>>();

export function observation(ctx: CheckContext): Promise<Observation> {
  return memo(observations, ctx.runKey, () => observe(ctx));
}

function recordStatus(exchange: Exchange): string | undefined {
  const status = dataOf(exchange)?.status;
  return typeof status === 'string' ? status : undefined;
}

/** Refuses the first delivery about the kit's payouts REFUSED_ATTEMPTS times: its retries are P-HOOK-3's evidence. */
function refuseFirstOfOurs(receiver: KitReceiver, ours: (d: Pick<ReceivedDelivery, 'body'>) => boolean): () => string | undefined {
  let probe: string | undefined;
  receiver.answerWith((d) => {
    const group = ours(d) ? attemptGroup(d) : undefined;
    if (group === undefined) return 200;
    probe ??= group;
    if (group !== probe) return 200;
    const earlier = receiver.deliveries.filter((x) => attemptGroup(x) === group).length;
    return earlier < REFUSED_ATTEMPTS ? 500 : 200;
  });
  return () => probe;
}

async function observe(ctx: CheckContext): Promise<Observation> {
  const ids = [ctx.ids.payoutOrderId('PO-HOOK'), ctx.ids.payoutOrderId('PO-HOOK')];
  const ours = (d: Pick<ReceivedDelivery, 'body'>) => ids.includes(parseEvent(d).subject ?? '');
  // The receiver is opened, and the balance read and moved, holding the wallet lane: no balance
  // check sees the move, and the waiting that follows runs beside the rest of the run.
  const { session, payouts, startedAt, firstSeen, probe } = await ctx.exclusive(WALLET, async () => {
    const session = await ctx.webhooks();
    const probe = refuseFirstOfOurs(session.receiver, ours);
    const startedAt = ctx.clock.now();
    const firstSeen = session.receiver.deliveries.length;
    return { session, startedAt, firstSeen, probe, payouts: await initiateObserved(ctx, ids) };
  });
  const { receiver } = session;

  const statusAfter: Observation['statusAfter'] = [];
  const asked = new Set<string>();
  const probeAttempts = () => receiver.deliveries.filter((d) => probe() !== undefined && attemptGroup(d) === probe());
  const acknowledgedFinal = (payout: ObservedPayout) =>
    receiver.deliveries.some((d) => {
      const e = parseEvent(d);
      return d.answered === 200 && e.subject === payout.payoutOrderId && e.event !== undefined && WEBHOOK_EVENTS[e.event].final;
    });
  const deadline = () => (probeAttempts()[0]?.receivedAt ?? startedAt) + session.retryWithinMs + GRACE_MS + receiver.longestStallMs();
  let seen = firstSeen;
  let takenBy: string | null | undefined;
  // Another run against the same target may register its own receiver for the merchant meanwhile
  // (and put the registration back when it ends): deliveries about our payouts then go elsewhere.
  const watchRegistration = async () => {
    if (takenBy !== undefined || session.registered === undefined) return;
    const now = await session.registered();
    if (now !== receiver.url) takenBy = now;
  };
  for (;;) {
    await watchRegistration();
    // P-HOOK-4: Payout Status right after the first attempt of each event of ours that says a final state.
    while (seen < receiver.deliveries.length) {
      const delivery = receiver.deliveries[seen++]!;
      const e = parseEvent(delivery);
      const group = attemptGroup(delivery);
      if (!ours(delivery) || e.event === undefined || !WEBHOOK_EVENTS[e.event].final || group === undefined || asked.has(group)) continue;
      asked.add(group);
      const exchange = await payoutStatus(ctx, e.subject!, `Payout Status right after the ${e.event} delivery #${delivery.n} (P-HOOK-4)`);
      statusAfter.push({ delivery, state: recordStatus(exchange), exchange });
    }
    const retriesSeen = probeAttempts().length > REFUSED_ATTEMPTS;
    if (retriesSeen && payouts.every(acknowledgedFinal)) break;
    // Deliveries go elsewhere now: waiting for the rest would only run out the clock.
    if (takenBy !== undefined) break;
    const now = ctx.clock.now();
    if (now >= deadline()) break;
    await receiver.waitFor((d) => d.n > seen, Math.min(deadline(), now + 1_000));
  }
  for (const payout of payouts) {
    const state = recordStatus(await payoutStatus(ctx, payout.payoutOrderId, 'Payout Status when the observation ended'));
    if (state !== undefined) payout.ended = state;
  }
  await watchRegistration();
  receiver.answerWith(() => 200);
  return {
    ...(takenBy !== undefined ? { takenBy } : {}),
    session,
    payouts,
    deliveries: receiver.deliveries.slice(firstSeen),
    probe: probeAttempts(),
    statusAfter,
    waitedSeconds: Math.round((ctx.clock.now() - startedAt) / 1000),
    stallSeconds: receiver.longestStallMs() / 1000,
    unseen: receiver.strays(),
  };
}

/** What the observation saw that is no verdict, for report.notes: the same text from every check
 *  that reads it, so the report says it once. */
export function observationNotes(o: Pick<Observation, 'unseen'>): string[] {
  const { strays, described, keptAtMost, deliveriesNotKept } = o.unseen;
  const notes: string[] = [];
  if (strays > 0) {
    const listed = described.map((s) => `${s.method} ${s.path} (${s.why}${s.marked ? ', with delivery headers' : ''})`).join(', ');
    const more = strays > described.length ? ` and ${strays - described.length} more` : '';
    notes.push(
      `${strays} stray request${strays === 1 ? '' : 's'} to the kit's webhook listener ${strays === 1 ? 'was' : 'were'} ignored, not judged as the target's deliveries: ${listed}${more}`,
    );
  }
  if (deliveriesNotKept > 0) {
    notes.push(
      `the kit's webhook listener kept the first ${keptAtMost} deliveries and judged those; ${deliveriesNotKept} more were acknowledged with 200 but neither kept nor judged`,
    );
  }
  return notes;
}

/** Initiates the observed payouts: one of 10 that settles, one beyond the balance (FAILED, P-OPS-3). */
async function initiateObserved(ctx: CheckContext, ids: readonly string[]): Promise<ObservedPayout[]> {
  const { currency, balance } = await walletOf(ctx);
  const payouts: ObservedPayout[] = [];
  for (const [payoutOrderId, amount, why] of [
    [ids[0]!, 10, 'a payout of 10 that settles'],
    [ids[1]!, balance + 1000, 'a payout beyond the balance (FAILED, P-OPS-3)'],
  ] as const) {
    const body = payoutRequest(ctx, amount, currency, { payout_order_id: payoutOrderId });
    const exchange = await initiatePayout(ctx, body, `${why}, to see its webhooks`);
    const status = exchange.response?.status;
    if (status === undefined || status < 200 || status > 299) {
      throw new CheckSkipped(
        `could not initiate ${why} to observe its webhooks: Transaction Initiation answered ${status ?? exchange.error?.message} (the OPS- requirements judge that)`,
      );
    }
    payouts.push({ payoutOrderId, initiated: recordStatus(exchange) ?? 'unknown' });
  }
  return payouts;
}

/** The wallet's currency and whole balance, read with Balance Inquiry. */
async function walletOf(ctx: CheckContext): Promise<{ currency: Currency; balance: number }> {
  const exchange = await balanceInquiry(ctx, "the wallet's balance and currency, before the payouts whose webhooks are observed");
  let data: Record<string, unknown>;
  try {
    data = expectData(exchange, 'Balance Inquiry');
  } catch {
    throw new CheckSkipped(
      `could not read the wallet's balance to plan the payouts whose webhooks are observed: Balance Inquiry answered ${exchange.response?.status ?? exchange.error?.message} (OPS-BALANCE judges that)`,
    );
  }
  const balance = decimalOf(data.balance);
  if (balance === undefined || typeof data.currency !== 'string')
    throw new CheckSkipped('Balance Inquiry answered no usable balance and currency (OPS-BALANCE judges that)');
  const whole = balance.units < 0n ? 0 : Number(balance.units / 10n ** BigInt(balance.scale));
  return { currency: data.currency as Currency, balance: whole };
}
