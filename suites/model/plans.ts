// What each model check runs: its rule's fixed sequences (ordered pairs of the commands that move its
// records, then the command that judges; and a few more), and its random sequences' commands.
import { awaitsSettlement, decimalText } from '../requests.js';
import { quietLook } from '../wallet.js';
import { KINDS, ModelCommand, type Kind } from './commands.js';
import type { Model, ModelRule } from './model.js';
import { NotJudged, type Real } from './target.js';

export interface SequencePlan {
  /** Whether the rule's sequences make payouts (and so need the wallet and its currency). */
  payouts: boolean;
  fixed: ModelCommand[][];
  random: Kind[];
  /** The record states the rule speaks of (`order:PAID`). Off the reference sandbox a run may reach none:
   *  they are named in a notice, and when `needed` the rule is not judged. */
  aims?: { states: readonly string[]; needed: boolean };
}

/** [start, a, b, close] on slot 0 for every ordered pair (a, b) of `middle`. */
function pairs(start: Kind, middle: readonly Kind[], close: Kind): ModelCommand[][] {
  return middle.flatMap((a) => middle.map((b) => [start, a, b, close].map((kind) => new ModelCommand(kind, 0))));
}

const ORDER_KINDS = KINDS.filter((kind) => /^(createOrder|order|checkout)/.test(kind));
const PAYOUT_KINDS = KINDS.filter((kind) => /^(initiate|payout|settle)/.test(kind));

/** One sequence on slot 0. */
const sequence = (...kinds: Kind[]) => kinds.map((kind) => new ModelCommand(kind, 0));

/** Payout sequences with no control request, which any target runs: each fixed set needs some, or off the sandbox its rule is judged by random sequences alone. */
const EVERY_TARGET_PAYOUT_READS = [sequence('initiate', 'payoutStatus'), sequence('initiate', 'payoutStatus', 'payoutStatus')];

/** Kept small, as every model check runs in every run and the proof runs every fault: pairs of the
 *  commands that move the rule's records, and a few sequences reaching what pairs do not. */
export function sequencePlan(rule: ModelRule): SequencePlan {
  switch (rule) {
    case 'STATE-ORDER-LIFECYCLE':
      // cancel, pay and expire, in every order: each ends in a final state the other must not move
      // and, for every target, a read before and after a cancel (the pairs need the sandbox's checkout but one)
      return {
        payouts: false,
        fixed: [
          ...pairs('createOrder', ['orderCancel', 'checkoutPay', 'checkoutExpire'], 'orderStatus'),
          sequence('createOrder', 'orderStatus', 'orderCancel', 'orderStatus'),
        ],
        random: ORDER_KINDS.filter((k) => k !== 'createOrderUsedId'),
        aims: { states: ['order:PAID', 'order:CANCELLED', 'order:EXPIRED'], needed: true },
      };
    case 'STATE-PAYOUT-LIFECYCLE':
      return {
        payouts: true,
        fixed: [
          ...pairs('initiate', ['settleSuccess', 'settleFailed'], 'payoutStatus'),
          sequence('initiate', 'settleSuccess', 'settleReversed', 'payoutStatus'),
          sequence('initiateRejected', 'settleSuccess', 'payoutStatus'),
          // Sequences every target runs (no settle control request): reads that may only move forward.
          ...EVERY_TARGET_PAYOUT_READS,
        ],
        random: PAYOUT_KINDS.filter((k) => k !== 'initiateUsedId'),
        aims: { states: ['payout:FAILED', 'payout:REVERSED'], needed: false },
      };
    case 'STATE-READS-AGREE':
      return {
        payouts: true,
        fixed: [
          sequence('createOrder', 'checkoutPay', 'createOrderUsedId', 'orderStatus'),
          sequence('createOrder', 'orderCancel', 'orderStatus'),
          sequence('initiate', 'settleSuccess', 'initiateUsedId', 'payoutStatus'),
          sequence('initiate', 'settleFailed', 'payoutStatus'),
          // Every target: a payout read back as written, and after a refused duplicate.
          ...EVERY_TARGET_PAYOUT_READS,
          sequence('initiate', 'initiateUsedId', 'payoutStatus'),
        ],
        random: [...ORDER_KINDS, ...PAYOUT_KINDS],
      };
    case 'MONEY-CONSERVATION':
      return {
        payouts: true,
        fixed: [
          ...pairs('initiate', ['settleSuccess', 'settleFailed'], 'balance'),
          sequence('initiate', 'settleSuccess', 'settleReversed', 'balance'),
          sequence('initiate', 'initiateUsedId', 'balance'),
          // Every target: the debit of one payout, as its record says it stands.
          sequence('initiate', 'payoutStatus', 'balance'),
        ],
        random: [...PAYOUT_KINDS, 'balance'],
        aims: { states: ['payout:REVERSED'], needed: false },
      };
    case 'DUP-PERMANENT':
      return {
        payouts: true,
        fixed: [
          sequence('createOrder', 'orderCancel', 'createOrderUsedId'),
          sequence('createOrder', 'checkoutPay', 'createOrderUsedId'),
          sequence('createOrder', 'checkoutExpire', 'createOrderUsedId'),
          sequence('initiate', 'settleFailed', 'initiateUsedId'),
          sequence('initiateRejected', 'initiateUsedId'),
          sequence('initiate', 'settleSuccess', 'settleReversed', 'initiateUsedId'),
          // Every target: a payout's id once it has been read (settled, perhaps, by the target itself).
          sequence('initiateRejected', 'payoutStatus', 'initiateUsedId'),
        ],
        random: [...ORDER_KINDS, ...PAYOUT_KINDS],
        aims: { states: ['order:CANCELLED', 'order:PAID', 'order:EXPIRED', 'payout:FAILED', 'payout:REVERSED'], needed: true },
      };
  }
}

/** How the money rule's sequences of one check look at the wallet. */
export interface Watch {
  /** Set once a sequence missed: the looks are longer, as seeing other activity is then the point. */
  afterMiss: boolean;
}

/** The money rule's start balance, read in a quiet look (wallet.ts) with the run's own payouts still
 *  settling read around it: a move seen there is other activity, which excuses a miss (engine.ts). */
export async function readBalanceInto(model: Model, real: Real, watch: Watch): Promise<void> {
  const look = await quietLook(real.ctx, 'the start of the sequence', { walletId: real.facts.walletId }, watch.afterMiss);
  real.step(
    `Balance Inquiry → ${look.second.exchange.response?.status ?? 'no answer'} ${decimalText(look.second.balance)} (the start, in a quiet look${look.otherActivity !== undefined ? `: ${look.otherActivity}` : ''})`,
    look.second.exchange,
  );
  if (!look.still) throw new NotJudged("the run's earlier payouts kept settling around the start balance");
  model.startBalance = look.second.balance;
  // Those settled by now are in the start for good; the rest may still move it.
  model.inherited = [...look.own].flatMap(([payoutOrderId, record]) =>
    record !== undefined && record !== 'absent' && awaitsSettlement(record) ? [{ payoutOrderId, atStart: record, last: record }] : [],
  );
}
