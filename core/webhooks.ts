// Webhooks as the profile fills them in (P-HOOK), in one place: the sandbox sends, the suites judge and
// the receiver judge forges by this table.

/** Which status operation has the last word on an event's subject (P-HOOK-4). */
type WebhookSubject = 'payment' | 'payout';

interface WebhookEventSpec {
  subject: WebhookSubject;
  /** The state the record in `data` carries: `order_status` of a payment, `status` of a payout. */
  state: string;
  /** A final state: the status operation queried after the delivery answers it, or a later one. */
  final: boolean;
}

/** P-HOOK-2's events. A payout that stays PENDING is not notified; CANCELLED has no event. */
export const WEBHOOK_EVENTS = {
  'payment.success': { subject: 'payment', state: 'PAID', final: true },
  'payment.failed': { subject: 'payment', state: 'FAILED', final: true },
  'payment.processing': { subject: 'payment', state: 'PROCESSING', final: false },
  'payment.expired': { subject: 'payment', state: 'EXPIRED', final: true },
  'payout.success': { subject: 'payout', state: 'SUCCESS', final: true },
  'payout.failed': { subject: 'payout', state: 'FAILED', final: true },
  'payout.processing': { subject: 'payout', state: 'PROCESSING', final: false },
  'payout.reversed': { subject: 'payout', state: 'REVERSED', final: true },
} as const satisfies Record<string, WebhookEventSpec>;

export type WebhookEventName = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_NAMES = Object.keys(WEBHOOK_EVENTS) as WebhookEventName[];

export function isWebhookEventName(name: unknown): name is WebhookEventName {
  return typeof name === 'string' && Object.hasOwn(WEBHOOK_EVENTS, name);
}

/** The event a record's state is notified as, if any (PENDING, UN_PAID and CANCELLED are not). */
export function eventForState(subject: WebhookSubject, state: string): WebhookEventName | undefined {
  return WEBHOOK_EVENT_NAMES.find((name) => WEBHOOK_EVENTS[name].subject === subject && WEBHOOK_EVENTS[name].state === state);
}

/** The body of a delivery, before it is written as canonical text (P-HOOK-2). */
export interface WebhookEvent {
  event_id: string;
  event: WebhookEventName;
  /** UNIX seconds, an integer. */
  created_at: number;
  /** The record the status operation answers: an Order Status record or a payout record. */
  data: Record<string, unknown>;
}

/** The header that carries the event id on every attempt (P-HOOK-1); the others are the API's. */
export const EVENT_ID_HEADER = 'X-EVENT-ID';

/** Only HTTP 200 within this long acknowledges a delivery (P-HOOK-3, P-HOOK-6). */
export const ACK_WITHIN_MS = 10_000;
/** A receiver SHOULD answer within this long (P-HOOK-6). */
export const ACK_SHOULD_WITHIN_MS = 2_000;
/** The reference sandbox's retry delays after a failed attempt, seconds (P-HOOK-3). */
export const SANDBOX_RETRY_DELAYS_SECONDS: readonly number[] = [1, 2, 4, 8];
/** A failed delivery is retried at least this many more times (P-HOOK-3). */
export const MIN_RETRIES = 3;
/** The first MIN_RETRIES retries arrive within this long of the first attempt, by default (P-CFG profile.webhooks.retryWithinSeconds). */
export const DEFAULT_RETRY_WITHIN_SECONDS = 60;

/** P-HOOK-4: the status answered after a delivery agrees with the event's, or is later (SUCCESS may be REVERSED since). */
export function agreesWithStatus(event: WebhookEventName, statusState: string): boolean {
  const spec = WEBHOOK_EVENTS[event];
  if (statusState === spec.state) return true;
  return spec.subject === 'payout' && spec.state === 'SUCCESS' && statusState === 'REVERSED';
}

/** A webhook URL the kit may send to or listen at: http(s), with a host. Returns why not, or undefined. */
export function webhookUrlProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return 'it does not parse as a URL';
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `it is ${parsed.protocol.replace(':', '')}, not http or https`;
  if (parsed.hostname === '') return 'it has no host';
  if (parsed.username !== '' || parsed.password !== '')
    return 'it carries a user name or password; put credentials nowhere in a webhook URL';
  return undefined;
}
