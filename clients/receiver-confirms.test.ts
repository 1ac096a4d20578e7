// RECEIVER-CONFIRMS-STATUS (P-HOOK-9): which status requests count as asking about a delivered event.
import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../core/webhooks.js';
import { OPERATION_PATHS } from '../sandbox/paths.js';
import { signedDelivery } from '../webhooks/delivery.js';
import { judgeConfirmations } from './receiver-confirms.js';
import { classify } from './traffic.js';

const SECRET = 'sk_test_confirms';
const event: WebhookEvent = { event_id: 'evt-1', event: 'payout.success', created_at: 1, data: { payout_order_id: 'PO-1' } };
const acknowledged = {
  url: 'http://127.0.0.1:1/hook',
  event,
  attempt: 1,
  delivery: signedDelivery(event, SECRET, 1),
  result: { status: 200, ms: 5 },
  at: 1_000,
};

/** The receiver's one Payout Status request after the delivery, with this payout_order_id. */
function statusAsking(payoutOrderId: unknown) {
  return classify([
    {
      method: 'POST',
      path: OPERATION_PATHS.payoutStatus,
      headers: [],
      body: JSON.stringify({ payout_order_id: payoutOrderId }),
      receivedAt: 1_100,
      respondedAt: 1_101,
      status: 200,
      responseBody: '{}',
    },
  ]);
}

describe('judgeConfirmations', () => {
  it('passes a Payout Status that asks for the delivered payout_order_id', () => {
    expect(judgeConfirmations([acknowledged], statusAsking('PO-1'), [SECRET]).state).toBe('passed');
  });

  // String(['PO-1']) is 'PO-1': compared as text, an array holding the id read as asking for it.
  it('fails when the payout_order_id asked for is an array holding the id, not the id', () => {
    expect(judgeConfirmations([acknowledged], statusAsking(['PO-1']), [SECRET]).state).toBe('failed');
  });
});
