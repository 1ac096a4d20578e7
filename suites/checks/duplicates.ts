// Duplicates (P-DUP-1..4, P-OPS-2): a used order_id is refused with 409, sequentially and under
// concurrency, without touching the first order; per merchant, compared as text.
import { expectStatus, expectThat, type Check, type CheckContext } from '../check.js';
import { concurrencyOf } from '../settings.js';
import { expectOneWinner, racing, warmConnections } from './races.js';
import { creating } from './shared-auth.js';
import {
  createOrder,
  decimalEquals,
  decimalOf,
  expectData,
  expectOrderCreated,
  expectSuccess,
  orderLookup,
  validOrder,
} from '../requests.js';
import { shown } from './shown.js';

/** Same order_id, other amount, note and customer. The currency stays INR: a refusal for a currency the
 *  merchant has not enabled would hide whether the order_id was judged at all. */
function sameIdOtherwiseDifferent(ctx: CheckContext, orderId: string | number) {
  const body = validOrder(ctx, {
    order_id: orderId,
    order_amount: 999.99,
    order_currency: 'INR',
    order_note: `duplicate attempt ${ctx.ids.nonce()}`,
  });
  return { ...body, customer: { ...body.customer, name: 'Someone Else', email: 'someone.else@example.net' } };
}

async function sequentialDuplicate(ctx: CheckContext): Promise<void> {
  const first = validOrder(ctx);
  expectOrderCreated(await createOrder(ctx, first, 'create an order'), 'the first order must be created');
  const again = await createOrder(
    ctx,
    sameIdOtherwiseDifferent(ctx, first.order_id),
    'create again with the same order_id, amount, note and customer different',
  );
  expectStatus(again, [409], 'a second Create Order with a used order_id must answer 409, whatever the other fields (P-DUP-1)');
}

async function firstUnchanged(ctx: CheckContext): Promise<void> {
  const first = validOrder(ctx, { order_amount: 120.5, order_currency: 'INR' });
  const created = expectOrderCreated(await createOrder(ctx, first, 'create an order of 120.50 INR'), 'the first order must be created');
  await createOrder(ctx, sameIdOtherwiseDifferent(ctx, first.order_id), 'create again with the same order_id: 999.99 INR');
  const status = await orderLookup(ctx, 'orderStatus', first.order_id, 'Order Status of the first order');
  const record = expectData(status, 'Order Status of the first order must answer its record');
  const details = shown(status, `the first order: svc_order_id ${JSON.stringify(created.svc_order_id)}, 120.50 INR`);
  const amount = decimalOf(record.order_amount);
  expectThat(
    amount !== undefined && decimalEquals(amount, decimalOf(first.order_amount)!),
    `after a refused duplicate the order's amount is ${JSON.stringify(record.order_amount)}, not 120.50 (P-DUP-1, P-OPS-2)`,
    details,
  );
  expectThat(
    record.order_currency === 'INR',
    `after a refused duplicate the order's currency is ${JSON.stringify(record.order_currency)}, not INR (P-DUP-1, P-OPS-2)`,
    details,
  );
  expectThat(
    record.svc_order_id === created.svc_order_id,
    `after a refused duplicate Order Status shows svc_order_id ${JSON.stringify(record.svc_order_id)}, not the first order's (P-DUP-1, P-OPS-2)`,
    details,
  );
}

async function concurrentDuplicates(ctx: CheckContext): Promise<void> {
  const n = concurrencyOf(ctx.config);
  const orderId = ctx.ids.orderId('RACE');
  // Each request differs (its order_note), so replay protection cannot be what refuses them.
  const bodies = Array.from({ length: n }, (_, i) =>
    validOrder(ctx, { order_id: orderId, order_note: `concurrent attempt ${i + 1} ${ctx.ids.nonce()}` }),
  );
  // Open n connections first, so the creates leave together instead of spread out by n handshakes: a
  // narrow race window on the target must still see them overlap. The evidence is the race alone.
  await warmConnections(ctx, n);
  const exchanges = await Promise.all(bodies.map((body, i) => createOrder(ctx, body, `concurrent create ${i + 1} of ${n}, one order_id`)));
  expectOneWinner(exchanges, 409, 'creates with one new order_id', 'P-DUP-2', true);
}

async function otherMerchantSameId(ctx: CheckContext): Promise<void> {
  const first = validOrder(ctx);
  expectOrderCreated(await createOrder(ctx, first, 'create an order'), 'the first order must be created');
  const other = await createOrder(
    ctx,
    validOrder(ctx, { order_id: first.order_id }),
    'the other merchant creates the same order_id',
    ctx.config.otherMerchant,
  );
  expectSuccess(other, "another merchant's order with the same order_id should be accepted: ids are unique per merchant (P-DUP-3)");
}

async function integerThenString(ctx: CheckContext): Promise<void> {
  const orderId = ctx.ids.integerOrderId();
  expectOrderCreated(
    await createOrder(ctx, validOrder(ctx, { order_id: orderId }), `create order_id ${orderId} (integer)`),
    'the integer order must be created',
  );
  const again = await createOrder(ctx, validOrder(ctx, { order_id: String(orderId) }), `create order_id "${orderId}" (string)`);
  expectStatus(again, [409], `order_id "${orderId}" should be a duplicate of ${orderId}: ids compare as text (P-DUP-4)`);
}

export const duplicateChecks: Check[] = [
  creating('duplicate-sequential', 'DUP-SEQUENTIAL', 'a used order_id with other fields different answers 409', sequentialDuplicate),
  creating(
    'duplicate-first-unchanged',
    'DUP-FIRST-UNCHANGED',
    'after a refused duplicate Order Status shows the first order unchanged',
    firstUnchanged,
    ['profile.operations.orderStatus'],
  ),
  racing(
    'duplicate-concurrent',
    'DUP-CONCURRENT',
    'of N concurrent creates of one order_id exactly one succeeds, N-1 answer 409',
    [],
    concurrentDuplicates,
  ),
  creating('duplicate-other-merchant', 'DUP-OTHER-MERCHANT', 'another merchant may use the same order_id', otherMerchantSameId, [
    'otherMerchant',
  ]),
  creating('duplicate-integer-string', 'DUP-INTEGER-STRING', 'order_id 123 then "123" answers 409', integerThenString),
];
