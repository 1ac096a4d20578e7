// DUP-EXACT-IDS (P-DUP-5) over the identifier edges of generators/edges.ts: ids compare exactly and
// are kept whole. Every id is this run's own (ctx.ids).
import { edgeSet } from '../../generators/edges.js';
import type { MerchantOrderId } from '../../schemas/types.js';
import { CheckSkipped, expectThat, isCheckSkipped, type Check, type CheckContext } from '../check.js';
import { operationOf } from '../config.js';
import type { Exchange } from '../http.js';
import { createOrder, expectData, initiatePayout, isSuccess, orderLookup, payoutRequest, payoutStatus, validOrder } from '../requests.js';
import { adding } from './operations.js';
import { amountNumber, ownAmount, walletCurrency } from '../wallet.js';
import { shown } from './shown.js';

type Json = Record<string, unknown>;

const IDENTIFIERS = edgeSet().identifiers;
/** The ids of one identifier edge, built from ids of this run's own. */
const edgeIds = (cls: string, text: string, integer: number) => IDENTIFIERS.find((e) => e.class === cls)!.ids({ text, integer });

function createWithId(ctx: CheckContext, orderId: MerchantOrderId, label: string): Promise<Exchange> {
  return createOrder(ctx, validOrder(ctx, { order_id: orderId }), label);
}

/** The first order of a pair must be created for the pair to say anything; else the pair is not judged. */
function expectCreatedFirst(exchange: Exchange, what: string): void {
  if (!isSuccess(exchange))
    throw new CheckSkipped(
      `not judged: ${what} was not created (${exchange.response ? `HTTP ${exchange.response.status}` : 'no answer'}), so there was nothing to compare the other id with`,
    );
}

/** Two ids that must be two orders: the second created too (never 409), or for `mayRefuse` a 400. */
async function distinctPair(
  ctx: CheckContext,
  [first, second]: readonly MerchantOrderId[],
  what: string,
  mayRefuse: boolean,
): Promise<void> {
  const one = await createWithId(ctx, first!, `Create Order with order_id ${JSON.stringify(first)}`);
  expectCreatedFirst(one, `the order ${JSON.stringify(first)}`);
  const other = await createWithId(ctx, second!, `Create Order with order_id ${JSON.stringify(second)} (${what})`);
  if (mayRefuse && other.response?.status === 400) return;
  expectThat(
    isSuccess(other),
    `${JSON.stringify(second)} after ${JSON.stringify(first)} (${what}) answered ${other.response ? `HTTP ${other.response.status}` : 'nothing'}: ${other.response?.status === 409 ? 'the two ids were taken for one' : 'expected a new order'} (P-DUP-5: identifiers compare exactly)`,
    shown(other, mayRefuse ? 'a new order, or 400 for an id the server will not take' : 'a new order'),
  );
  const echoed = (other.response?.json as { return_data?: Json } | undefined)?.return_data?.order_id;
  expectThat(
    String(echoed) === String(second),
    `the order ${JSON.stringify(second)} came back as order_id ${JSON.stringify(echoed)}: not exactly the id sent (P-DUP-5)`,
    shown(other, `order_id ${JSON.stringify(second)}`),
  );
}

/** An order_id past a column width: refused 400, or created, echoed and read back (where Order Status is configured) whole. */
async function longOrderId(ctx: CheckContext, long: string): Promise<void> {
  const created = await createWithId(ctx, long, `Create Order with an order_id of ${long.length} characters`);
  if (created.response?.status === 400) return;
  expectThat(
    isSuccess(created),
    `an order_id of ${long.length} characters answered ${created.response ? `HTTP ${created.response.status}` : 'nothing'}: expected the order, or 400 (P-DUP-5)`,
    shown(created, 'a new order, or 400'),
  );
  const echoed = (created.response?.json as { return_data?: Json } | undefined)?.return_data?.order_id;
  expectThat(
    echoed === long,
    `an order_id of ${long.length} characters came back as ${String(echoed).length} characters: it must be stored and echoed whole (P-DUP-5)`,
    shown(created, `order_id of ${long.length} characters`),
  );
  if (operationOf(ctx.config, 'orderStatus') === undefined) return;
  const label = `Order Status of the order_id of ${long.length} characters`;
  const exchange = await orderLookup(ctx, 'orderStatus', long, label);
  const record = expectData(exchange, `${label}: Order Status of the new order must answer it (P-OPS)`);
  expectThat(
    record.order_id === long,
    `Order Status of the order_id of ${long.length} characters answers order_id ${JSON.stringify(record.order_id)}, not the id whole (P-DUP-5)`,
    shown(exchange),
  );
}

/** A long payout_order_id, paid in the wallet's currency so a refusal is about the id. A 409 means it was
 *  taken for an earlier id of this run sharing its first 64 characters: cut. Other refusals: not judged. */
async function longPayoutOrderId(ctx: CheckContext, long: string): Promise<void> {
  const currency = await walletCurrency(ctx);
  const label = `Transaction Initiation with a payout_order_id of ${long.length} characters`;
  const initiated = await initiatePayout(
    ctx,
    payoutRequest(ctx, amountNumber(ownAmount(ctx, currency)), currency, { payout_order_id: long }),
    label,
  );
  const status = initiated.response?.status;
  if (status === 400) return;
  expectThat(
    status !== 409,
    `${label} answered 409: the id was taken for another of this run's, which differs from it only past 64 characters, so it was cut (P-DUP-5)`,
    shown(initiated, 'a new payout, or 400'),
  );
  if (!isSuccess(initiated))
    throw new CheckSkipped(
      `not judged: ${label} was refused (${status === undefined ? 'no answer' : `HTTP ${status}`}) for something other than its id`,
    );
  const echoed = (initiated.response?.json as { data?: Json } | undefined)?.data?.payout_order_id;
  expectThat(
    echoed === undefined || echoed === long,
    `${label} echoed payout_order_id of ${String(echoed).length} characters: it must be stored and echoed whole (P-DUP-5)`,
    shown(initiated, `payout_order_id of ${long.length} characters`),
  );
  const read = await payoutStatus(ctx, long, `Payout Status of the payout_order_id of ${long.length} characters`);
  const record = expectData(
    read,
    `Payout Status must find the payout initiated with a payout_order_id of ${long.length} characters by that id whole (P-DUP-5)`,
  );
  expectThat(
    record.payout_order_id === long,
    `Payout Status of the payout_order_id of ${long.length} characters answers payout_order_id of ${String(record.payout_order_id).length} characters, not the id whole (P-DUP-5)`,
    shown(read, `payout_order_id of ${long.length} characters`),
  );
}

/** Parts judged on their own: one not judged (a skip) leaves the others; only when none is, is the check. */
function separateParts(): { part: (judge: () => Promise<void>) => Promise<void>; done: () => void } {
  const unjudged: string[] = [];
  let judged = 0;
  return {
    part: async (judge) => {
      try {
        await judge();
        judged++;
      } catch (error) {
        if (!isCheckSkipped(error)) throw error;
        unjudged.push(error.message.replace(/^not judged: /, ''));
      }
    },
    done: () => {
      if (judged === 0) throw new CheckSkipped(`not judged: ${unjudged.join('; ')}`);
    },
  };
}

/** DUP-EXACT-IDS: a trailing-space variant may be refused 400, never 409 against the first; "000123" and
 *  123 are two orders (P-DUP-4 equates only 123 and "123"). Long payout_order_ids: edges-long-payout-ids. */
export async function exactIds(ctx: CheckContext): Promise<void> {
  const ids = (cls: string) => edgeIds(cls, ctx.ids.orderId(cls.toUpperCase()), ctx.ids.integerOrderId());
  const { part, done } = separateParts();
  await part(() => distinctPair(ctx, ids('case'), 'the same id in other letter case', false));
  await part(() => distinctPair(ctx, ids('trailing-space'), 'the same id with a trailing space', true));
  const integer = ids('integer')[0] as number;
  await part(() => distinctPair(ctx, [integer, `000${integer}`], "the integer's digits with leading zeros", false));
  for (const long of ids('long') as string[]) await part(() => longOrderId(ctx, long));
  done();
}

/** In the wallet lane after the balance checks: its payouts would be "other activity" to a balance check. */
async function exactPayoutIds(ctx: CheckContext): Promise<void> {
  const longs = edgeIds('long', ctx.ids.payoutOrderId('LONG'), ctx.ids.integerOrderId()) as string[];
  const { part, done } = separateParts();
  for (const long of longs) await part(() => longPayoutOrderId(ctx, long));
  done();
}

/** Listed after the operation checks (suites/sections.ts): they pay from the wallet. */
export const longPayoutIdChecks: Check[] = [
  adding(
    'edges-long-payout-ids',
    'DUP-EXACT-IDS',
    'payout_order_ids of 65, 256 and 1025 characters are refused with 400 or kept and read back whole',
    ['profile.operations.transactionInitiation', 'profile.operations.balanceInquiry'],
    exactPayoutIds,
  ),
];
