// Records over time (P-STATE, P-MONEY-1, P-DUP-5): each check runs sequences of operations against a
// model of what the target must hold and asserts its own rule; suites/model/ is the engine.
import type { Check, Need } from '../check.js';
import { runModel } from '../model/engine.js';
import type { ModelRule } from '../model/model.js';
import { WALLET } from './operations.js';

const ORDERS = ['profile.operations.orderStatus', 'profile.operations.orderCancel'] as const;
const PAYOUTS = ['profile.operations.transactionInitiation', 'profile.operations.balanceInquiry'] as const;

/** A check of one rule of the model. Those that pay hold the wallet lane (their payouts move the balance
 *  its checks compare); the others take a lane of their own, so their chain of steps starts first. */
function judging(id: string, rule: ModelRule, title: string, needs: readonly Need[]): Check {
  const paying = needs.some((need) => (PAYOUTS as readonly Need[]).includes(need));
  const lane = paying ? { lane: WALLET, addsOnly: rule !== 'MONEY-CONSERVATION' } : { lane: id };
  return { id, requirement: rule, title, needs, creates: true, ...lane, run: (ctx) => runModel(ctx, rule) };
}

export const modelChecks: Check[] = [
  judging(
    'model-order-lifecycle',
    'STATE-ORDER-LIFECYCLE',
    'over sequences of order operations, an order moves only as its lifecycle allows and PAID, CANCELLED, EXPIRED stay final',
    ORDERS,
  ),
  judging(
    'model-payout-lifecycle',
    'STATE-PAYOUT-LIFECYCLE',
    'over sequences of payout operations, a payout moves forward only, FAILED and REVERSED stay final, its fixed fields never change',
    PAYOUTS,
  ),
  judging(
    'model-reads-agree',
    'STATE-READS-AGREE',
    'over sequences of operations, Order Status and Payout Status show what Create Order and Transaction Initiation answered',
    [...ORDERS, ...PAYOUTS],
  ),
  judging(
    'model-money-conservation',
    'MONEY-CONSERVATION',
    "over sequences of the run's own payouts, the balance moves by exactly the debited and reversed amounts",
    PAYOUTS,
  ),
  judging(
    'model-dup-permanent',
    'DUP-PERMANENT',
    'an order_id or payout_order_id stays used whatever became of its record (cancelled, paid, expired, failed, reversed)',
    [...ORDERS, ...PAYOUTS],
  ),
];
