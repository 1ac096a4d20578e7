// P-HOOK-9 (verify-client --webhook-url): after acknowledging an event about its own order or payout, the
// client asks the matching status operation; the kit's own probe events (nobody's orders) do not count.
import type { CheckResult } from '../core/report.js';
import { WEBHOOK_EVENTS } from '../core/webhooks.js';
import type { DeliveryAttempt } from '../sandbox/options.js';
import { createRedactor } from '../common/redact.js';
import { CONFIRMS_STATUS, deliveryExchange, receiverCatalog } from './receiver-judge.js';
import { resultOf } from './result.js';
import { field, type ClientRequest } from './traffic.js';

/** One result for RECEIVER-CONFIRMS-STATUS. */
export function judgeConfirmations(
  attempts: readonly DeliveryAttempt[],
  requests: readonly ClientRequest[],
  secrets: readonly string[],
): CheckResult {
  // Secrets in every form, and the deliveries' signatures, wherever a receiver echoes them back.
  const redact = createRedactor({ secrets, signatures: attempts.map((a) => a.delivery.headers['X-SIGNATURE']) });
  const evidence = (a: DeliveryAttempt) =>
    deliveryExchange(
      `the sandbox's delivery of ${a.event.event} ${a.event.event_id} (attempt ${a.attempt}), acknowledged`,
      a.url,
      a.delivery,
      a.result,
      redact,
    );
  const requirement = receiverCatalog().find((r) => r.id === CONFIRMS_STATUS)!;
  // The first acknowledged attempt of each event.
  const acknowledged = new Map<string, DeliveryAttempt>();
  for (const a of [...attempts].sort((x, y) => x.at - y.at))
    if (a.result.status === 200 && !acknowledged.has(a.event.event_id)) acknowledged.set(a.event.event_id, a);
  if (acknowledged.size === 0) {
    const why =
      attempts.length === 0
        ? 'the client made no order or payout change that fired an event'
        : "the receiver acknowledged none of the sandbox's events (RECEIVER-ACK says why)";
    return resultOf(requirement, { status: 'skipped', reason: `${why}, so there was nothing to confirm` }, evidence);
  }
  const unconfirmed = [...acknowledged.values()].filter((a) => {
    const payout = WEBHOOK_EVENTS[a.event.event].subject === 'payout';
    const subject = String(payout ? a.event.data.payout_order_id : a.event.data.order_id);
    const startedAt = a.at - a.result.ms;
    return !requests.some((r) => {
      if (r.raw.receivedAt < startedAt || r.operation !== (payout ? 'payoutStatus' : 'orderStatus')) return false;
      return field(r.json, payout ? 'payout_order_id' : 'order_id') === subject;
    });
  });
  if (unconfirmed.length === 0) return resultOf(requirement, { status: 'passed' }, evidence);
  const about = (a: DeliveryAttempt) =>
    `${a.event.event} ${a.event.event_id} about ${WEBHOOK_EVENTS[a.event.event].subject === 'payout' ? `payout ${String(a.event.data.payout_order_id)}` : `order ${String(a.event.data.order_id)}`}`;
  return resultOf(
    requirement,
    {
      status: 'failed',
      message: `the client acknowledged ${unconfirmed.length} of ${acknowledged.size} events about its own orders and payouts without asking the status operation afterwards: ${unconfirmed.slice(0, 5).map(about).join('; ')}`,
      expected: "Order Status or Payout Status about the event's subject after acknowledging it (P-HOOK-9)",
      actual: 'no such request',
      offending: unconfirmed,
    },
    evidence,
  );
}
