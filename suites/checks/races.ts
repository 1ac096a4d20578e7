// Races on the profile's operations (P-OPS-5, P-OPS-1): many requests at once on one new record, each
// run alone and over connections opened first (as DUP-CONCURRENT), so the requests leave together.
import { expectSchema, expectThat, type Check, type CheckContext, type Need } from '../check.js';
import { concurrencyOf } from '../settings.js';
import type { Exchange } from '../http.js';
import {
  createOrder,
  dataOf,
  decimalText,
  expectOrderCreated,
  initiatePayout,
  isSuccess,
  orderLookup,
  payoutRequest,
  payoutStatus,
  validOrder,
} from '../requests.js';
import { amountNumber, balanceChange, ownAmount } from '../wallet.js';
import { debitOf } from './operations.js';
import { shown } from './shown.js';

/** A race: run alone, so nothing else in flight blurs it, with every answer kept as its evidence. */
export function racing(id: string, requirement: string, title: string, needs: readonly Need[], run: Check['run']): Check {
  return { id, requirement, title, needs, creates: true, alone: true, keepAllEvidence: true, run };
}

/** n requests at once, the i-th sent by `send(i)`: the requests of a race leave together. */
const atOnce = <T>(n: number, send: (i: number) => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: n }, (_, i) => send(i)));

/** n harmless reads at once, so n connections are open before the race and its requests leave together. */
export async function warmConnections(ctx: CheckContext, n: number, walletId?: string): Promise<void> {
  await atOnce(n, (i) =>
    payoutStatus(ctx, ctx.ids.payoutOrderId('WARM'), `connection ${i + 1} of ${n} opened before the race`, walletId ? { walletId } : {}),
  );
}

/** Exactly one success and n-1 answers of `loser`, else a failure with every answer as evidence (`only`: those alone). */
export function expectOneWinner(exchanges: Exchange[], loser: number, what: string, rule: string, only = false): Exchange {
  const n = exchanges.length;
  const won = exchanges.filter(isSuccess);
  const lost = exchanges.filter((x) => x.response?.status === loser).length;
  // The evidence: an answer that is neither, or else the second success.
  const evidence = exchanges.find((x) => !isSuccess(x) && x.response?.status !== loser) ?? won[1] ?? exchanges[0]!;
  expectThat(
    won.length === 1 && lost === n - 1,
    `of ${n} concurrent ${what}, ${won.length} succeeded and ${lost} answered ${loser} (${rule})`,
    {
      expected: `exactly 1 success and ${n - 1} × ${loser}`,
      actual: `statuses ${exchanges.map((x) => x.response?.status ?? 'no answer').join(', ')}`,
      exchange: evidence,
      ...(only ? { exchanges } : {}),
    },
  );
  return won[0]!;
}

/** OPS-INITIATE-CONCURRENT (P-OPS-5): one accepted, n-1 × 409, the balance lower by the amount once,
 *  judged as wallet.ts judges a debit so another run's payouts are never blamed on the target. */
async function concurrentInitiations(ctx: CheckContext): Promise<void> {
  const n = concurrencyOf(ctx.config);
  await balanceChange(ctx, 'P-OPS-5', async (before, suffix) => {
    const amount = ownAmount(ctx, before.currency);
    const payoutOrderId = ctx.ids.payoutOrderId('RACE');
    // Each request differs (its beneficiary's name), so replay protection cannot be what refuses them.
    const bodies = Array.from({ length: n }, (_, i) => {
      const body = payoutRequest(ctx, amountNumber(amount), before.currency, { payout_order_id: payoutOrderId });
      return { ...body, beneficiary: { ...(body.beneficiary as object), name: `Kiran Desai ${i + 1} ${ctx.ids.nonce()}` } };
    });
    await warmConnections(ctx, n);
    const exchanges = await atOnce(n, (i) =>
      initiatePayout(ctx, bodies[i]!, `concurrent initiation ${i + 1} of ${n}, one payout_order_id, ${decimalText(amount)}${suffix}`),
    );
    const winner = expectOneWinner(exchanges, 409, 'Transaction Initiations with one new payout_order_id', 'P-OPS-5');
    return debitOf(ctx, dataOf(winner), payoutOrderId, amount, 'accepted payout');
  });
}

/** OPS-CANCEL-CONCURRENT (P-OPS-1, P-STATE-1): n cancels at once of one new UN_PAID order: one CANCELLED, n-1 × 422. */
async function concurrentCancels(ctx: CheckContext): Promise<void> {
  const n = concurrencyOf(ctx.config);
  const body = validOrder(ctx);
  expectOrderCreated(await createOrder(ctx, body, 'create an order to cancel'), 'the order must be created');
  await warmConnections(ctx, n);
  const exchanges = await atOnce(n, (i) =>
    orderLookup(ctx, 'orderCancel', body.order_id, `concurrent cancel ${i + 1} of ${n} of the UN_PAID order`),
  );
  const winner = expectOneWinner(exchanges, 422, 'cancels of one UN_PAID order', 'P-OPS-1');
  const record = expectSchema(winner, 'success-envelope', 'the cancel that succeeded (P-OPS)').data;
  expectThat(
    record.order_status === 'CANCELLED',
    `the cancel that succeeded answered order_status ${JSON.stringify(record.order_status)}, not CANCELLED (P-OPS-1)`,
    shown(winner),
  );
}

export const raceChecks: Check[] = [
  racing(
    'ops-initiate-concurrent',
    'OPS-INITIATE-CONCURRENT',
    'of N concurrent initiations of one payout_order_id one is accepted and debited once, N-1 answer 409',
    ['profile.operations.balanceInquiry', 'profile.operations.transactionInitiation'],
    concurrentInitiations,
  ),
  racing(
    'ops-cancel-concurrent',
    'OPS-CANCEL-CONCURRENT',
    'of N concurrent cancels of one UN_PAID order one answers CANCELLED, N-1 answer 422',
    ['profile.operations.orderCancel'],
    concurrentCancels,
  ),
];
