// AUTH-FAILURE-NO-EFFECT on the profile's operations (P-AUTH-5, P-MONEY-4); authentication.ts holds
// the Create Order case. These need the P-OPS operations, so they sit with what they rest on.
import { expectStatus, expectThat, type Check, type CheckContext } from '../check.js';
import {
  createOrder,
  decimalText,
  expectData,
  expectOrderCreated,
  orderLookup,
  payoutRequest,
  payoutStatus,
  validOrder,
} from '../requests.js';
import { paying } from './operations.js';
import { alterLastCharacter, creating, expectRefused } from './shared-auth.js';
import { amountNumber, balanceChange, ownAmount, ZERO } from '../wallet.js';
import { shown } from './shown.js';

/** An Order Cancel signed wrong is refused, and the order is still UN_PAID. */
async function refusedCancelCancelsNothing(ctx: CheckContext): Promise<void> {
  const body = validOrder(ctx);
  expectOrderCreated(await createOrder(ctx, body, 'create an order'), 'the order must be created');
  const { method, path } = ctx.operation('orderCancel');
  const label = 'Order Cancel with an altered signature';
  expectRefused(
    await ctx.send({ label, method, path, payload: { order_id: body.order_id }, signature: alterLastCharacter }),
    `an ${label}`,
  );
  const status = await orderLookup(ctx, 'orderStatus', body.order_id, 'Order Status after the refused cancel');
  const record = expectData(status, 'Order Status of the order must answer it');
  expectThat(
    record.order_status === 'UN_PAID',
    `after an Order Cancel refused with 401 the order is ${JSON.stringify(record.order_status)}, not UN_PAID (P-AUTH-5)`,
    shown(status, 'order_status UN_PAID'),
  );
}

/** A Transaction Initiation signed wrong is refused, its payout_order_id is unknown afterwards, and
 *  the balance did not move (judged as wallet.ts judges a change, with this try's own amount). */
async function refusedInitiationPaysNothing(ctx: CheckContext): Promise<void> {
  await balanceChange(ctx, 'P-AUTH-5', async (before, suffix) => {
    const amount = ownAmount(ctx, before.currency);
    const body = payoutRequest(ctx, amountNumber(amount), before.currency);
    const { method, path } = ctx.operation('transactionInitiation');
    const refused = await ctx.send({
      label: `Transaction Initiation of ${decimalText(amount)} with an altered signature${suffix}`,
      method,
      path,
      payload: body,
      signature: alterLastCharacter,
    });
    expectRefused(refused, 'a Transaction Initiation with an altered signature');
    const label = `Payout Status of the refused payout's payout_order_id${suffix}`;
    const why = 'after a Transaction Initiation refused with 401 its payout_order_id must be unknown: no payout was made (P-AUTH-5)';
    expectStatus(await payoutStatus(ctx, body.payout_order_id as string, label), [404], why);
    return { amount, expected: ZERO };
  });
}

export const authEffectChecks: Check[] = [
  creating('auth-failure-no-cancel', 'AUTH-FAILURE-NO-EFFECT', 'a refused Order Cancel cancels nothing', refusedCancelCancelsNothing, [
    'profile.operations.orderCancel',
    'profile.operations.orderStatus',
  ]),
  paying(
    'auth-failure-no-payout',
    'AUTH-FAILURE-NO-EFFECT',
    'a refused Transaction Initiation pays nothing',
    ['profile.operations.balanceInquiry', 'profile.operations.transactionInitiation'],
    refusedInitiationPaysNothing,
  ),
];
