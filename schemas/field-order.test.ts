import { describe, expect, it } from 'vitest';
import { requiredPaths, webhookBuiltOrder } from './field-order.js';

describe('webhookBuiltOrder', () => {
  it("is P-HOOK-2's field order, with data in its record schema's order (the schema it builds on first)", () => {
    expect(webhookBuiltOrder('{"event":"payout.failed","event_id":"evt_1","data":{}}')).toEqual({
      keys: ['event_id', 'event', 'created_at', 'data'],
      fields: {
        data: {
          keys: [
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
          ],
        },
      },
    });
    const payment = webhookBuiltOrder('{"event":"payment.success","event_id":"evt_2"}')!;
    expect(payment.fields!.data!.keys.slice(-2)).toEqual(['order_amount', 'order_currency']);
    expect(payment.fields!.data!.keys[0]).not.toBe('order_amount');
  });

  it.each(['', 'not json', '[1]', 'null', '{"order_id":"A-1"}', '{"event":"payout.failed"}'])(
    'is undefined for a body that is not a webhook event: %j',
    (body) => {
      expect(webhookBuiltOrder(body)).toBeUndefined();
    },
  );
});

describe('requiredPaths', () => {
  it("reads Create Order's required fields from its schema, parents before children (P-ORDER-1)", () => {
    expect(requiredPaths('order-create-request')).toEqual([
      'order_id',
      'order_amount',
      'order_currency',
      'service_type',
      'customer',
      'customer.name',
      'customer.email',
      'customer.phone',
      'customer.address',
      'customer.address.line1',
      'customer.address.city',
      'customer.address.state',
      'customer.address.country',
      'customer.address.postal_code',
      'return_url',
    ]);
    expect(requiredPaths('payout-status-request')).toEqual(['svc_wallet_id', 'debit_account_type', 'payout_order_id']);
  });
});
