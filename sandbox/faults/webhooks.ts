import type { FaultSpec } from './spec.js';

/** Faults of the webhook sender (P-HOOK). */
export const WEBHOOK_FAULTS = {
  'hook-no-event-id': {
    rule: 'P-HOOK-1',
    requirement: 'HOOK-DELIVERY-HEADERS',
    area: 'webhooks',
    description: 'deliveries carry no X-EVENT-ID header (the id is only in the body)',
  },
  'hook-non-canonical-body': {
    rule: 'P-HOOK-1',
    requirement: 'HOOK-CANONICAL-BODY',
    area: 'webhooks',
    description: 'the event is sent as built, keys in insertion order (JSON.stringify), and signed so',
  },
  'hook-sign-reserialized': {
    rule: 'P-HOOK-1',
    requirement: 'HOOK-SIGNATURE',
    area: 'webhooks',
    description: 'the canonical text is sent, but the signature covers a second serialization of the event (keys in insertion order)',
  },
  'hook-separate-secret': {
    rule: 'P-HOOK-1',
    requirement: 'HOOK-SIGNATURE',
    area: 'webhooks',
    description: "deliveries are signed with a webhook secret of the sender's own (whsec_…), not the merchant's secret key",
  },
  'hook-same-timestamp': {
    rule: 'P-HOOK-1',
    requirement: 'HOOK-FRESH-TIMESTAMP',
    area: 'webhooks',
    description: "every retry re-sends the first attempt's timestamp and signature (a stored request)",
  },
  'hook-created-at-iso': {
    rule: 'P-HOOK-2',
    requirement: 'HOOK-EVENT-SHAPE',
    area: 'webhooks',
    description: "the event's created_at is ISO 8601 text, not UNIX seconds",
  },
  'hook-silent-failures': {
    rule: 'P-HOOK-2',
    requirement: 'HOOK-EVENTS-FIRED',
    area: 'webhooks',
    description: 'a payout that FAILED is never notified (payout.failed is not sent)',
  },
  'hook-retry-countdown': {
    rule: 'P-HOOK-3',
    requirement: 'HOOK-RETRY',
    area: 'webhooks',
    description: 'retries come sooner each time (8, 4, 2, 1 s: the schedule read from its end)',
  },
  'hook-no-retry': {
    rule: 'P-HOOK-3',
    requirement: 'HOOK-RETRY',
    area: 'webhooks',
    description: 'a delivery that is not acknowledged is never retried',
  },
  'hook-contradicts-status': {
    rule: 'P-HOOK-4',
    requirement: 'HOOK-AGREES-WITH-STATUS',
    area: 'webhooks',
    description: "the bank's acceptance of a payout is notified as payout.success while Payout Status still says PROCESSING",
  },
} as const satisfies Record<string, FaultSpec>;
