// Records over time (P-STATE, P-MONEY-1, P-DUP-5): each check runs sequences of operations against a
// model of what the target must hold and asserts its own rule; suites/model/ is the engine.
import type { Check, CheckContext } from '../check.js';
import { runModel } from '../model/engine.js';
import type { ModelRule } from '../model/model.js';
import { WALLET } from './operations.js';

const ORDERS = ['profile.operations.orderStatus', 'profile.operations.orderCancel'] as const;
const PAYOUTS = ['profile.operations.transactionInitiation', 'profile.operations.balanceInquiry'] as const;

const judging = (rule: ModelRule) => (ctx: CheckContext) => runModel(ctx, rule);

// The checks that make payouts hold the wallet lane: their payouts move the balance that the lane's
// checks compare (and the money check compares it itself).
export const modelChecks: Check[] = [
  {
    id: 'model-order-lifecycle',
    requirement: 'STATE-ORDER-LIFECYCLE',
    title: 'over sequences of order operations, an order moves only as its lifecycle allows and PAID, CANCELLED, EXPIRED stay final',
    needs: [...ORDERS],
    creates: true,
    run: judging('STATE-ORDER-LIFECYCLE'),
  },
  {
    id: 'model-payout-lifecycle',
    requirement: 'STATE-PAYOUT-LIFECYCLE',
    title:
      'over sequences of payout operations, a payout moves forward only, FAILED and REVERSED stay final, its fixed fields never change',
    needs: [...PAYOUTS],
    creates: true,
    lane: WALLET,
    run: judging('STATE-PAYOUT-LIFECYCLE'),
  },
  {
    id: 'model-reads-agree',
    requirement: 'STATE-READS-AGREE',
    title: 'over sequences of operations, Order Status and Payout Status show what Create Order and Transaction Initiation answered',
    needs: [...ORDERS, ...PAYOUTS],
    creates: true,
    lane: WALLET,
    run: judging('STATE-READS-AGREE'),
  },
  {
    id: 'model-money-conservation',
    requirement: 'MONEY-CONSERVATION',
    title: "over sequences of the run's own payouts, the balance moves by exactly the debited and reversed amounts",
    needs: [...PAYOUTS],
    creates: true,
    lane: WALLET,
    run: judging('MONEY-CONSERVATION'),
  },
  {
    id: 'model-dup-permanent',
    requirement: 'DUP-PERMANENT',
    title: 'an order_id or payout_order_id stays used whatever became of its record (cancelled, paid, expired, failed, reversed)',
    needs: [...ORDERS, ...PAYOUTS],
    creates: true,
    lane: WALLET,
    run: judging('DUP-PERMANENT'),
  },
];
