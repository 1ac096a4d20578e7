// The sandbox's payment-gateway operations against the interface and the profile: Create Order
// (P-ORDER, P-ERR-4, P-DUP), Order Status and Order Cancel (P-OPS-1, P-OPS-2).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidOrderCreateRequest, orderCreateRequest } from '../../generators/index.js';
import { validateSchema } from '../../schemas/index.js';
import { MERCHANT_B } from '../tenants.js';
import { ORIGIN } from '../test-support.js';
import { createdOrder, edited, orderBody, orderSandbox } from './order-test-support.js';

describe('Create Order (interface: Endpoints / Create Order)', () => {
  it.each([201, 200] as const)(
    'P-ORDER-2/3: answers HTTP %i with the create-order envelope and an UN_PAID record',
    async (createStatus) => {
      const s = orderSandbox({ variant: { createStatus } });
      const answer = await s.create(orderBody('ORD-1'));
      expect(answer.status).toBe(createStatus);
      expect(answer.contentType).toMatch(/^application\/json/);
      expect(validateSchema('create-order-envelope', answer.json)).toEqual({ valid: true, errors: [] });
      expect(answer.json).toMatchObject({ code: String(createStatus), status: 'success', message: 'Order created' });
      const record = answer.json.return_data;
      expect(record).toMatchObject({ order_id: 'ORD-1', order_status: 'UN_PAID', created_at: '21-11-2026 10:00 AM' });
      expect(record.payment_link).toBe(`${ORIGIN}/checkout/${record.svc_order_id}`);
    },
  );

  it('P-ORDER-3: svc_order_id is distinct per order and order_id comes back as sent', async () => {
    const s = orderSandbox();
    const a = await s.create(orderBody(123));
    const b = await s.create(orderBody('000124'));
    expect(a.json.return_data.order_id).toBe(123);
    expect(b.json.return_data.order_id).toBe('000124');
    expect(a.json.return_data.svc_order_id).not.toBe(b.json.return_data.svc_order_id);
  });

  it('P-SIGN-5: accepts non-ASCII names and notes with & < > and quotes', async () => {
    const s = orderSandbox();
    const body = orderBody('ORD-UNI', {
      order_note: '<b>gift</b> & "fragile" for O\'Neil 🎁',
      customer: { ...(orderBody(0).customer as object), name: 'José Müller 李雷' },
    });
    expect((await s.create(body)).status).toBe(201);
  });

  // Rows marked "sandbox rule" are this sandbox's choices where the profile is silent (a numeric
  // string amount, more than two decimals, an absurd amount, an empty id); the suites never assert them.
  it.each([
    ['P-ORDER-1', 'customer.address', undefined, '/customer'],
    ['P-ORDER-1', 'customer.address.city', undefined, '/customer/address'],
    ['P-ERR-4', 'order_id', undefined, '(root)'],
    ['P-ERR-4', 'customer.email', null, '/customer/email'],
    ['P-ERR-4', 'order_amount', 0, '/order_amount'],
    ['P-ERR-4', 'order_amount', -10, '/order_amount'],
    ['P-AMOUNT-1', 'order_amount', '1e3', '/order_amount'],
    ['P-AMOUNT-1', 'order_amount', '1,499.50', '/order_amount'],
    ['P-AMOUNT-1', 'order_amount', '-5', '/order_amount'],
    ['sandbox rule (P-AMOUNT-2 leaves it open)', 'order_amount', 10.005, '/order_amount'],
    ['sandbox rule (P-AMOUNT-2 leaves it open)', 'order_amount', '10.005', '/order_amount'],
    ['sandbox rule', 'order_amount', 1e300, '/order_amount'],
    ['P-ERR-4', 'order_currency', 'RUB', '/order_currency'],
    ['P-ERR-4', 'order_currency', 'inr', '/order_currency'],
    ['P-ERR-4', 'order_id', true, '/order_id'],
    ['sandbox rule', 'order_id', '', '/order_id'],
    ['P-ERR-4', 'customer.name', 42, '/customer/name'],
    ['P-ERR-4', 'return_url', 42, '/return_url'],
  ])('%s: %s = %j answers 400 naming the field', async (_rule, path, value, named) => {
    const s = orderSandbox();
    const answer = await s.create(edited(orderBody('ORD-BAD'), path, value));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: false, code: 400 });
    expect(answer.json.message).toContain(named);
    expect((await s.status('ORD-BAD')).status).toBe(404);
  });

  it('P-ORDER-4: every generated valid order is accepted and its answer validates', async () => {
    const s = orderSandbox();
    let serial = 0;
    await fc.assert(
      fc.asyncProperty(orderCreateRequest({ orderIdKind: 'string', orderIdPrefix: 'PROP' }), async (request) => {
        // generated ids repeat across runs of one seed: a serial suffix keeps every id new
        const body = { ...request, order_id: `${request.order_id}-${(serial += 1)}` };
        const answer = await s.create(body);
        expect(answer.status, answer.text).toBe(201);
        expect(validateSchema('create-order-envelope', answer.json).errors).toEqual([]);
        expect(answer.json.return_data.order_id).toBe(body.order_id);
        const status = await s.status(body.order_id);
        expect(validateSchema('order-status-record', status.json.data).errors).toEqual([]);
        expect(status.json.data.order_currency).toBe(request.order_currency);
      }),
      { numRuns: 150 },
    );
  });

  it('P-ERR-3, P-ERR-4: every generated one-defect order answers one of its expected statuses, never 5xx', async () => {
    const s = orderSandbox();
    await fc.assert(
      fc.asyncProperty(invalidOrderCreateRequest({ orderIdKind: 'string', orderIdPrefix: 'BAD' }), async (bad) => {
        const answer = bad.body.kind === 'text' ? await s.createRaw(bad.body.text) : await s.create(bad.body.value);
        expect(answer.status, `${bad.description}: ${answer.text}`).toBeLessThan(500);
        expect(bad.expectedStatuses, `${bad.description}: ${answer.text}`).toContain(answer.status);
        expect(validateSchema('error-envelope', answer.json).errors).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('Duplicates (P-DUP)', () => {
  it('P-DUP-1, P-OPS-2: a second order with the same id answers 409 and leaves the first unchanged', async () => {
    const s = orderSandbox();
    const first = await createdOrder(s, orderBody('ORD-DUP'));
    const again = await s.create(orderBody('ORD-DUP', { order_amount: 5, order_currency: 'USD', order_note: 'other' }));
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ status: false, code: 409 });
    const status = await s.status('ORD-DUP');
    expect(status.json.data).toMatchObject({
      svc_order_id: first,
      order_amount: '1499.50',
      order_currency: 'INR',
      order_status: 'UN_PAID',
    });
  });

  it('P-DUP-2: of 8 concurrent creates with one new id exactly one succeeds and 7 answer 409', async () => {
    const s = orderSandbox({ variant: { replay: 'refuse' } });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => s.create(orderBody('ORD-RACE', { order_note: `attempt ${i}` }))));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
  });

  it('P-DUP-3: another merchant may use the same order id', async () => {
    const s = orderSandbox();
    await createdOrder(s, orderBody('ORD-SHARED'));
    expect((await s.create(orderBody('ORD-SHARED'), MERCHANT_B)).status).toBe(201);
    expect((await s.status('ORD-SHARED', MERCHANT_B)).json.data.order_id).toBe('ORD-SHARED');
  });

  it('P-DUP-4: 123 and "123" are the same order id, both ways round', async () => {
    const s = orderSandbox();
    await createdOrder(s, orderBody(123));
    expect((await s.create(orderBody('123'))).status).toBe(409);
    await createdOrder(s, orderBody('456'));
    expect((await s.create(orderBody(456))).status).toBe(409);
    expect((await s.status('123')).json.data.order_id).toBe(123);
  });
});

describe('Order Status (P-OPS)', () => {
  it('answers the general envelope with the order record, amount as text and currency', async () => {
    const s = orderSandbox();
    const svc = await createdOrder(s, orderBody('ORD-ST', { order_amount: 250, order_currency: 'JPY' }));
    const answer = await s.status('ORD-ST');
    expect(answer.status).toBe(200);
    expect(validateSchema('success-envelope', answer.json).errors).toEqual([]);
    expect(validateSchema('order-status-record', answer.json.data).errors).toEqual([]);
    expect(answer.json).toMatchObject({ status: true, code: 200, message: 'Order fetched' });
    expect(answer.json.data).toEqual({
      svc_order_id: svc,
      created_at: '21-11-2026 10:00 AM',
      order_id: 'ORD-ST',
      order_status: 'UN_PAID',
      payment_link: `${ORIGIN}/checkout/${svc}`,
      order_amount: '250',
      order_currency: 'JPY',
    });
  });

  it.each([
    [1499.5, 'INR', '1499.50'],
    ['1499.50', 'INR', '1499.50'],
    ['1499.5', 'INR', '1499.50'],
    ['500', 'INR', '500.00'],
    ['150.000', 'INR', '150.00'],
    ['12.345', 'KWD', '12.345'],
    [12.5, 'KWD', '12.500'],
    ['250', 'JPY', '250'],
    [7, 'KRW', '7'],
  ] as const)('P-AMOUNT: order_amount %j in %s is accepted and read by value; Order Status says %s', async (amount, currency, text) => {
    const s = orderSandbox();
    await createdOrder(s, orderBody('ORD-AMT', { order_amount: amount, order_currency: currency }));
    expect((await s.status('ORD-AMT')).json.data).toMatchObject({ order_amount: text, order_currency: currency });
  });

  it("P-OPS-1: an unknown order, or another merchant's, answers 404", async () => {
    const s = orderSandbox();
    await createdOrder(s, orderBody('ORD-A-ONLY'));
    for (const answer of [await s.status('ORD-NOPE'), await s.status('ORD-A-ONLY', MERCHANT_B)]) {
      expect(answer.status).toBe(404);
      expect(validateSchema('error-envelope', answer.json).errors).toEqual([]);
    }
  });

  it.each([[{}], [{ order_id: null }], [{ order_id: '' }], [{ order_id: 1.5 }], [{ order_id: ['x'] }]])(
    'P-ERR-4: lookup body %j answers 400',
    async (payload) => {
      const s = orderSandbox();
      expect((await s.lookup('orderStatus', payload)).status).toBe(400);
      expect((await s.lookup('orderCancel', payload)).status).toBe(400);
    },
  );

  it('P-OPS-1: a PROCESSING payment reads PAID once settleSeconds have passed on the clock', async () => {
    const s = orderSandbox({ settleSeconds: 30 });
    const svc = await createdOrder(s, orderBody('ORD-SETTLE'));
    expect((await s.pay(svc, { method: 'upi', outcome: 'pending' })).status).toBe(200);
    expect((await s.status('ORD-SETTLE')).json.data.order_status).toBe('PROCESSING');
    s.advance(29);
    expect((await s.status('ORD-SETTLE')).json.data.order_status).toBe('PROCESSING');
    s.advance(1);
    expect((await s.status('ORD-SETTLE')).json.data.order_status).toBe('PAID');
  });

  it('P-OPS-1: checkout success and failure show as PAID and FAILED', async () => {
    const s = orderSandbox();
    await s.pay(await createdOrder(s, orderBody('ORD-OK')), { method: 'card', outcome: 'success' });
    await s.pay(await createdOrder(s, orderBody('ORD-KO')), { method: 'wallet', outcome: 'failure' });
    expect((await s.status('ORD-OK')).json.data.order_status).toBe('PAID');
    expect((await s.status('ORD-KO')).json.data.order_status).toBe('FAILED');
  });
});

describe('Order Cancel (P-OPS-1)', () => {
  it('moves UN_PAID to CANCELLED and answers the same record', async () => {
    const s = orderSandbox();
    const svc = await createdOrder(s, orderBody('ORD-C'));
    const answer = await s.cancel('ORD-C');
    expect(answer.status).toBe(200);
    expect(validateSchema('order-status-record', answer.json.data).errors).toEqual([]);
    expect(answer.json).toMatchObject({
      status: true,
      code: 200,
      data: { svc_order_id: svc, order_id: 'ORD-C', order_status: 'CANCELLED', order_amount: '1499.50' },
    });
    expect((await s.status('ORD-C')).json.data.order_status).toBe('CANCELLED');
  });

  it.each([
    ['P-OPS-1', 'PAID', 'success'],
    ['sandbox rule: money is in flight', 'PROCESSING', 'pending'],
  ])('%s: a %s order answers 422 and stays as it was', async (_rule, state, outcome) => {
    const s = orderSandbox();
    await s.pay(await createdOrder(s, orderBody('ORD-X')), { method: 'qr', outcome });
    const answer = await s.cancel('ORD-X');
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({ status: false, code: 422 });
    expect((await s.status('ORD-X')).json.data.order_status).toBe(state);
  });

  it('a CANCELLED order answers 422 on a second cancel', async () => {
    const s = orderSandbox();
    await createdOrder(s, orderBody('ORD-CC'));
    expect((await s.cancel('ORD-CC')).status).toBe(200);
    expect((await s.cancel('ORD-CC')).status).toBe(422);
  });

  it('a FAILED order (no money moved) may be cancelled (sandbox rule)', async () => {
    const s = orderSandbox();
    await s.pay(await createdOrder(s, orderBody('ORD-F')), { method: 'netbanking', outcome: 'failure' });
    expect((await s.cancel('ORD-F')).json.data.order_status).toBe('CANCELLED');
  });

  it('a cancelled order can no longer be paid at checkout', async () => {
    const s = orderSandbox();
    const svc = await createdOrder(s, orderBody('ORD-CP'));
    await s.cancel('ORD-CP');
    expect((await s.pay(svc, { method: 'upi', outcome: 'success' })).status).toBe(409);
  });

  it('an unknown order answers 404; by number for an order created with text', async () => {
    const s = orderSandbox();
    expect((await s.cancel('ORD-NONE')).status).toBe(404);
    await createdOrder(s, orderBody('77'));
    expect((await s.cancel(77)).status).toBe(200);
  });
});
