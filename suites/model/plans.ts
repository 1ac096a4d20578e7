// What each model check runs: the commands its rule is about, the fixed sequences built from them
// (every ordered pair of them on one record, after the record is made, then the command that judges),
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

const ORDER_MOVES: readonly Kind[] = ['orderCancel', 'checkoutPay', 'checkoutFail', 'checkoutExpire'];
const PAYOUT_MOVES: readonly Kind[] = ['settleSuccess', 'settleFailed', 'settleReversed'];
const ORDER_KINDS: readonly Kind[] = ['createOrder', 'createOrderUsedId', 'orderStatus', 'orderCancel', 'checkoutPay', 'checkoutFail', 'checkoutExpire'];
const PAYOUT_KINDS: readonly Kind[] = ['initiate', 'initiateRejected', 'initiateUsedId', 'payoutStatus', 'settleSuccess', 'settleFailed', 'settleReversed'];

export function sequencePlan(rule: ModelRule): SequencePlan {
  switch (rule) {
    case 'STATE-ORDER-LIFECYCLE':
      return { payouts: false, fixed: pairs('createOrder', [...ORDER_MOVES, 'orderStatus'], 'orderStatus'), random: ORDER_KINDS.filter((k) => k !== 'createOrderUsedId') };
    case 'STATE-PAYOUT-LIFECYCLE':
      return {
        payouts: true,
        fixed: [...pairs('initiate', [...PAYOUT_MOVES, 'payoutStatus'], 'payoutStatus'), ...pairs('initiateRejected', ['payoutStatus', 'settleSuccess'], 'payoutStatus')],
        random: PAYOUT_KINDS.filter((k) => k !== 'initiateUsedId'),
      };
    case 'STATE-READS-AGREE':
      return {
        payouts: true,
        fixed: [...pairs('createOrder', ['orderCancel', 'checkoutPay', 'createOrderUsedId'], 'orderStatus'), ...pairs('initiate', ['settleSuccess', 'settleReversed', 'initiateUsedId'], 'payoutStatus')],
        random: [...ORDER_KINDS, ...PAYOUT_KINDS],
      };
    case 'MONEY-CONSERVATION':
      return { payouts: true, fixed: pairs('initiate', [...PAYOUT_MOVES, 'initiateUsedId'], 'balance'), random: [...PAYOUT_KINDS, 'balance'] };
    case 'DUP-PERMANENT':
      return {
        payouts: true,
        fixed: [...pairs('createOrder', ORDER_MOVES, 'createOrderUsedId'), ...pairs('initiate', PAYOUT_MOVES, 'initiateUsedId'), [new ModelCommand('initiateRejected', 0), new ModelCommand('initiateUsedId', 0)]],
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
