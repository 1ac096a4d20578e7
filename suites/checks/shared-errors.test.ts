// The Errors checks' shared requests, read as sent: what each provoking request and each property
// case puts on the wire, through a made-up server that records them. The verdicts: errors.test.ts.
import { describe, expect, it } from 'vitest';
import type { InvalidRequest } from '../../generators/index.js';
import type { SendOptions } from '../http.js';
import { CREATE_ORDER_PATH } from '../requests.js';
import { madeUpConfig, madeUpContext } from './made-up-server-test-support.js';
import { alterLastCharacter } from './shared-auth.js';
import { orderDefectProperty, provokeErrors, sendInvalid } from './shared-errors.js';

/** A context whose server answers 400 to everything and records what it was sent. */
function recording() {
  const sent: SendOptions[] = [];
  const ctx = madeUpContext(madeUpConfig(), (options) => (sent.push(options), 400));
  return { ctx, sent };
}

describe('provokeErrors', () => {
  it('sends an altered signature, JSON cut short, an order without return_url, and an unknown payout', async () => {
    const { ctx, sent } = recording();
    await provokeErrors(ctx);
    expect(sent.map((o) => o.label)).toEqual([
      'Payout Status with an altered signature (a 401)',
      'Payout Status with invalid JSON (a 400)',
      'Create Order without return_url (a 400)',
      'Payout Status of an unknown payout (a 404)',
    ]);
    expect(sent[0]!.signature).toBe(alterLastCharacter);
    expect(sent[1]!.raw).toMatch(/^\{"/);
    expect(() => JSON.parse(sent[1]!.raw!)).toThrow(SyntaxError);
    const order = sent[2]!.payload as Record<string, unknown>;
    expect(order).not.toHaveProperty('return_url');
    expect(order).toHaveProperty('order_id');
    expect(order).toHaveProperty('order_amount');
  });
});

describe('sendInvalid', () => {
  it('sends a null Create Order body as it is', async () => {
    const { ctx, sent } = recording();
    const invalid = { description: 'the body is null', field: 'customer', body: { kind: 'json', value: null }, expectedStatuses: [400] };
    await sendInvalid(ctx, CREATE_ORDER_PATH, invalid as unknown as InvalidRequest);
    expect(sent.map((o) => o.payload)).toEqual([null]);
  });
});

describe('orderDefectProperty', () => {
  it('sends only the defects asked for, each order_id a string of its own prefix', async () => {
    const { ctx, sent } = recording();
    await orderDefectProperty(ctx, 'ERR-MISSING-FIELD', ['missing-field']);
    expect(sent.length).toBeGreaterThan(0);
    for (const o of sent) {
      expect(o.raw).toBeUndefined();
      expect(o.label).toMatch(/^Create Order: /);
      const id = (o.payload as Record<string, unknown>).order_id;
      if (id !== undefined) expect(id).toMatch(/^ERR-/);
    }
  });
});
