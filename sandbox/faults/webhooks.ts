import { faultsOf } from './spec.js';

/** Faults of the webhook sender (P-HOOK). */
export const WEBHOOK_FAULTS = {
  ...faultsOf('webhooks', {
    'hook-no-event-id': ['P-HOOK-1', 'HOOK-DELIVERY-HEADERS', 'deliveries carry no X-EVENT-ID header (the id is only in the body)'],
    'hook-non-canonical-body': [
      'P-HOOK-1',
      'HOOK-CANONICAL-BODY',
      'the event is sent as built, keys in insertion order (JSON.stringify), and signed so',
    ],
    'hook-sign-reserialized': [
      'P-HOOK-1',
      'HOOK-SIGNATURE',
      'the canonical text is sent, but the signature covers a second serialization of the event (keys in insertion order)',
    ],
    'hook-separate-secret': [
      'P-HOOK-1',
      'HOOK-SIGNATURE',
      "deliveries are signed with a webhook secret of the sender's own (whsec_…), not the merchant's secret key",
    ],
    'hook-same-timestamp': [
      'P-HOOK-1',
      'HOOK-FRESH-TIMESTAMP',
      "every retry re-sends the first attempt's timestamp and signature (a stored request)",
    ],
    'hook-created-at-iso': ['P-HOOK-2', 'HOOK-EVENT-SHAPE', "the event's created_at is ISO 8601 text, not UNIX seconds"],
    'hook-silent-failures': ['P-HOOK-2', 'HOOK-EVENTS-FIRED', 'a payout that FAILED is never notified (payout.failed is not sent)'],
    'hook-retry-countdown': ['P-HOOK-3', 'HOOK-RETRY', 'retries come sooner each time (8, 4, 2, 1 s: the schedule read from its end)'],
    'hook-no-retry': ['P-HOOK-3', 'HOOK-RETRY', 'a delivery that is not acknowledged is never retried'],
    'hook-contradicts-status': [
      'P-HOOK-4',
      'HOOK-AGREES-WITH-STATUS',
      "the bank's acceptance of a payout is notified as payout.success while Payout Status still says PROCESSING",
    ],
  }),
};
