// What each model check runs: the fixed sequences of its rule (ordered pairs of the commands that
// move its records, on one record after it is made, then the command that judges; and a few more),
// and the commands its random sequences draw from.
import { decimalText } from '../checks/requests.js';
import { ModelCommand, readBalance, type Kind } from './commands.js';
import type { Model, ModelRule } from './model.js';
import type { Real } from './target.js';

export interface SequencePlan {
  /** Whether the rule's sequences make payouts (and so need the wallet and its currency). */
  payouts: boolean;
  fixed: ModelCommand[][];
  random: Kind[];
}

/** [start, a, b, close] on slot 0 for every ordered pair (a, b) of `middle`. */
function pairs(start: Kind, middle: readonly Kind[], close: Kind): ModelCommand[][] {
  return middle.flatMap((a) => middle.map((b) => [start, a, b, close].map((kind) => new ModelCommand(kind, 0))));
}

const ORDER_KINDS: readonly Kind[] = ['createOrder', 'createOrderUsedId', 'orderStatus', 'orderCancel', 'checkoutPay', 'checkoutFail', 'checkoutExpire'];
const PAYOUT_KINDS: readonly Kind[] = ['initiate', 'initiateRejected', 'initiateUsedId', 'payoutStatus', 'settleSuccess', 'settleFailed', 'settleReversed'];

/** One sequence on slot 0. */
const sequence = (...kinds: Kind[]) => kinds.map((kind) => new ModelCommand(kind, 0));

/**
 * The fixed sets are kept small (every model check runs in every run, and the proof runs every fault):
 * each pairs the commands that move its rule's records, and a few sequences reach what the pairs do not.
 */
export function sequencePlan(rule: ModelRule): SequencePlan {
  switch (rule) {
    case 'STATE-ORDER-LIFECYCLE':
      // cancel, pay and expire, in every order: each ends in a final state the other must not move
      return { payouts: false, fixed: pairs('createOrder', ['orderCancel', 'checkoutPay', 'checkoutExpire'], 'orderStatus'), random: ORDER_KINDS.filter((k) => k !== 'createOrderUsedId') };
    case 'STATE-PAYOUT-LIFECYCLE':
      return {
        payouts: true,
        fixed: [...pairs('initiate', ['settleSuccess', 'settleFailed'], 'payoutStatus'), sequence('initiate', 'settleSuccess', 'settleReversed', 'payoutStatus'), sequence('initiateRejected', 'settleSuccess', 'payoutStatus')],
        random: PAYOUT_KINDS.filter((k) => k !== 'initiateUsedId'),
      };
    case 'STATE-READS-AGREE':
      return {
        payouts: true,
        fixed: [
          sequence('createOrder', 'checkoutPay', 'createOrderUsedId', 'orderStatus'), sequence('createOrder', 'orderCancel', 'orderStatus'),
          sequence('initiate', 'settleSuccess', 'initiateUsedId', 'payoutStatus'), sequence('initiate', 'settleFailed', 'payoutStatus'),
        ],
        random: [...ORDER_KINDS, ...PAYOUT_KINDS],
      };
    case 'MONEY-CONSERVATION':
      return {
        payouts: true,
        fixed: [...pairs('initiate', ['settleSuccess', 'settleFailed'], 'balance'), sequence('initiate', 'settleSuccess', 'settleReversed', 'balance'), sequence('initiate', 'initiateUsedId', 'balance')],
        random: [...PAYOUT_KINDS, 'balance'],
      };
    case 'DUP-PERMANENT':
      return {
        payouts: true,
        fixed: [
          sequence('createOrder', 'orderCancel', 'createOrderUsedId'), sequence('createOrder', 'checkoutPay', 'createOrderUsedId'), sequence('createOrder', 'checkoutExpire', 'createOrderUsedId'),
          sequence('initiate', 'settleFailed', 'initiateUsedId'), sequence('initiateRejected', 'initiateUsedId'), sequence('initiate', 'settleSuccess', 'settleReversed', 'initiateUsedId'),
        ],
        random: [...ORDER_KINDS, ...PAYOUT_KINDS],
      };
  }
}

/** The money rule's sequences start from the balance as it is before their first command. */
export async function readBalanceInto(model: Model, real: Real): Promise<void> {
  const { exchange, balance } = await readBalance(real, 'Balance Inquiry (before the sequence)');
  real.step(`Balance Inquiry → ${exchange.response?.status ?? 'no answer'} ${decimalText(balance)} (the start)`, exchange);
  model.startBalance = balance;
}
