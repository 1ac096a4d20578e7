// The deterministic edges (generators/edges.ts) against the rules they stress: zero in every spelling
// (P-AMOUNT-4), exact minor units in 0-, 2- and 3-decimal currencies (P-AMOUNT-4, P-AMOUNT-3), the
// largest amounts (P-AMOUNT-4, P-ERR-3), identifiers that compare exactly (P-DUP-5) and texts that
// break servers (P-ERR-3). Every run sends every edge, whatever --seed and --runs: a seed changes the
// random cases, never whether an edge is tried. Every id is this run's own (ctx.ids).
import { edgeSet, type AmountEdge } from '../../generators/edges.js';
import { minorUnitOf } from '../../schemas/amounts.js';
import type { Currency, MerchantOrderId, OrderCreateRequest } from '../../schemas/types.js';
import { canonicalize } from '../../signer/canonical.js';
import {
  answered,
  CheckInconclusive,
  CheckSkipped,
  expectStatus,
  expectThat,
  isCheckSkipped,
  type Check,
  type CheckContext,
} from '../check.js';
import { operationOf } from '../config.js';
import type { Exchange } from '../http.js';
import {
  createOrder,
  decimalEquals,
  decimalOf,
  expectData,
  initiatePayout,
  isSuccess,
  orderLookup,
  payoutRequest,
  payoutStatus,
  validOrder,
} from '../requests.js';
import { WALLET } from './operations.js';
import { amountNumber, ownAmount, walletCurrency } from '../wallet.js';

type Json = Record<string, unknown>;

/** P-ERR-4: an amount defect answers 400, or 422. */
const AMOUNT_REFUSED = [400, 422] as const;

const EDGES = edgeSet();

/**
 * Zero spellings that reach the wire as different texts: the numbers 0, 0.0 and 0.00 are all written
 * 0 in canonical JSON (P-SIGN-1), so they are one request, labelled with every spelling it stands for.
 */
function distinctZeros(): Array<{ amount: AmountEdge['amount']; spellings: string }> {
  const byText = new Map<string, { amount: AmountEdge['amount']; spellings: string[] }>();
  for (const edge of EDGES.amounts.filter((e) => e.class === 'zero')) {
    const text = canonicalize(edge.amount);
    const entry = byText.get(text) ?? { amount: edge.amount, spellings: [] };
    entry.spellings.push(edge.spelled);
    byText.set(text, entry);
  }
  return [...byText.values()].map(({ amount, spellings }) => ({ amount, spellings: spellings.join(', ') }));
}

/**
 * AMOUNT-ZERO-REFUSED (P-AMOUNT-4, P-ERR-4): every zero refused 400 or 422 on Create Order and, where
 * configured, Transaction Initiation (each payout with this run's own payout_order_id; a zero payout
 * that a faulty server accepts moves nothing). Payouts are in the wallet's currency when Balance
 * Inquiry can tell it, so a refusal is for the amount, not for the currency.
 */
async function zeroRefused(ctx: CheckContext): Promise<void> {
  const zeros = distinctZeros();
  await ctx.sweep(zeros, async ({ amount, spellings }) => {
    const exchange = await createOrder(ctx, validOrder(ctx, { order_amount: amount }), `Create Order with order_amount ${spellings}`);
    expectStatus(exchange, AMOUNT_REFUSED, `order_amount ${spellings} is zero and must be refused (P-AMOUNT-4)`);
  });
  if (operationOf(ctx.config, 'transactionInitiation') === undefined) return;
  const currency: Currency = operationOf(ctx.config, 'balanceInquiry') === undefined ? 'INR' : await walletCurrency(ctx);
  await ctx.sweep(zeros, async ({ amount, spellings }) => {
    const exchange = await initiatePayout(
      ctx,
      payoutRequest(ctx, amount, currency),
      `Transaction Initiation with amount ${spellings} ${currency}`,
    );
    expectStatus(exchange, AMOUNT_REFUSED, `a payout amount ${spellings} is zero and must be refused (P-AMOUNT-4)`);
  });
}

/** An order of this amount read back by Order Status: its order_amount and order_currency. */
async function readBack(ctx: CheckContext, orderId: MerchantOrderId, label: string): Promise<{ record: Json; exchange: Exchange }> {
  const exchange = await orderLookup(ctx, 'orderStatus', orderId, label);
  return { record: expectData(exchange, `${label}: Order Status of the new order must answer it (P-OPS)`), exchange };
}

/** The record shows the amount sent, by exact decimal value (never a float), in its currency (P-AMOUNT-3/4). */
function expectAmountKept(edge: AmountEdge, record: Json, exchange: Exchange, rule: string): void {
  const kept = decimalOf(record.order_amount);
  const sent = decimalOf(edge.amount)!;
  expectThat(
    kept !== undefined && decimalEquals(kept, sent) && record.order_currency === edge.currency,
    `${edge.label}: Order Status answers ${JSON.stringify(record.order_amount)} ${JSON.stringify(record.order_currency)}, not the amount sent (${rule})`,
    {
      expected: `order_amount equal by value to ${String(edge.amount)}, order_currency ${edge.currency}`,
      actual: answered(exchange),
      exchange,
    },
  );
}

/**
 * AMOUNT-KEPT-EXACTLY (P-AMOUNT-4, P-AMOUNT-3; an extension: it reads Order Status). Each exact edge is
 * created and read back. A currency the merchant has not enabled may be refused (400 or 422): that is
 * ORDER-EVERY-CURRENCY's to judge, so such an edge is not judged here; when no currency of a minor
 * unit (0, 2 or 3 decimals) could be judged, the check says so rather than pass.
 */
async function keptExactly(ctx: CheckContext): Promise<void> {
  const edges = EDGES.amounts.filter((e) => e.class === 'exact');
  const judged = await ctx.sweep(edges, async (edge) => {
    const body = validOrder(ctx, { order_amount: edge.amount, order_currency: edge.currency });
    const created = await createOrder(ctx, body, `Create Order of ${edge.label}`);
    // Refused, or answered 5xx (ERR-NO-5XX's to judge, as every answer is observed): nothing was kept to compare.
    if (!isSuccess(created)) return undefined;
    const { record, exchange } = await readBack(ctx, body.order_id, `Order Status of the order of ${edge.label}`);
    expectAmountKept(edge, record, exchange, 'P-AMOUNT-4');
    return minorUnitOf(edge.currency);
  });
  const unjudged = ([0, 2, 3] as const).filter((digits) => !judged.includes(digits));
  if (unjudged.length > 0) {
    throw new CheckSkipped(
      `not judged for ${unjudged.map((d) => `${d}-decimal`).join(' and ')} currencies: every order in them was refused (see ORDER-EVERY-CURRENCY)`,
    );
  }
}

/**
 * AMOUNT-LARGE (P-AMOUNT-4, P-ERR-3): the largest amounts, and values past 2^31 and 2^32 minor units,
 * as numbers and strings: created, or refused 400 or 422 (a deployment's own limit), never 5xx; one
 * that is accepted is read back equal where Order Status is configured.
 */
async function largeAmounts(ctx: CheckContext): Promise<void> {
  const canReadBack = operationOf(ctx.config, 'orderStatus') !== undefined;
  const accepted = await ctx.sweep(
    EDGES.amounts.filter((e) => e.class === 'large'),
    async (edge) => {
      const body = validOrder(ctx, { order_amount: edge.amount, order_currency: edge.currency });
      const created = await createOrder(ctx, body, `Create Order of ${edge.label}`);
      if (created.error) throw new CheckInconclusive(`not judged: Create Order of ${edge.label} got no answer (${created.error.message})`);
      if (!isSuccess(created)) {
        expectStatus(
          created,
          AMOUNT_REFUSED,
          `Create Order of ${edge.label} must be created or refused with 400 or 422, never 5xx (P-AMOUNT-4)`,
        );
        return false;
      }
      if (!canReadBack) return true;
      const { record, exchange } = await readBack(ctx, body.order_id, `Order Status of the order of ${edge.label}`);
      expectAmountKept(edge, record, exchange, 'P-AMOUNT-4: never stored altered');
      return false;
    },
  );
  if (accepted.includes(true)) {
    throw new CheckSkipped(
      'partly judged: no large amount was answered 5xx, but whether the accepted ones were stored unaltered needs profile.operations.orderStatus to read them back',
    );
  }
}

/** Creates an order with this id; the exchange. */
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
    {
      expected: mayRefuse ? 'a new order, or 400 for an id the server will not take' : 'a new order',
      actual: answered(other),
      exchange: other,
    },
  );
  const echoed = (other.response?.json as { return_data?: Json } | undefined)?.return_data?.order_id;
  expectThat(
    String(echoed) === String(second),
    `the order ${JSON.stringify(second)} came back as order_id ${JSON.stringify(echoed)}: not exactly the id sent (P-DUP-5)`,
    {
      expected: `order_id ${JSON.stringify(second)}`,
      actual: answered(other),
      exchange: other,
    },
  );
}

/** An order_id past a column width: refused 400, or created, echoed and read back (where Order Status is configured) whole. */
async function longOrderId(ctx: CheckContext, long: string): Promise<void> {
  const created = await createWithId(ctx, long, `Create Order with an order_id of ${long.length} characters`);
  if (created.response?.status === 400) return;
  expectThat(
    isSuccess(created),
    `an order_id of ${long.length} characters answered ${created.response ? `HTTP ${created.response.status}` : 'nothing'}: expected the order, or 400 (P-DUP-5)`,
    {
      expected: 'a new order, or 400',
      actual: answered(created),
      exchange: created,
    },
  );
  const echoed = (created.response?.json as { return_data?: Json } | undefined)?.return_data?.order_id;
  expectThat(
    echoed === long,
    `an order_id of ${long.length} characters came back as ${String(echoed).length} characters: it must be stored and echoed whole (P-DUP-5)`,
    {
      expected: `order_id of ${long.length} characters`,
      actual: answered(created),
      exchange: created,
    },
  );
  if (operationOf(ctx.config, 'orderStatus') === undefined) return;
  const { record, exchange } = await readBack(ctx, long, `Order Status of the order_id of ${long.length} characters`);
  expectThat(
    record.order_id === long,
    `Order Status of the order_id of ${long.length} characters answers order_id ${JSON.stringify(record.order_id)}, not the id whole (P-DUP-5)`,
    { actual: answered(exchange), exchange },
  );
}

/**
 * A payout_order_id past a column width, on a payout of this run's own small amount in the wallet's
 * currency (so a refusal is about the id, not the money): refused 400, or initiated and read back
 * whole by Payout Status. A 409 means the server took it for an earlier, shorter id of this run (the
 * three share their first 64 characters): cut. Any other refusal is not about the id: not judged.
 */
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
  if (status === 409) {
    expectThat(
      false,
      `${label} answered 409: the id was taken for another of this run's, which differs from it only past 64 characters, so it was cut (P-DUP-5)`,
      {
        expected: 'a new payout, or 400',
        actual: answered(initiated),
        exchange: initiated,
      },
    );
  }
  if (!isSuccess(initiated))
    throw new CheckSkipped(
      `not judged: ${label} was refused (${status === undefined ? 'no answer' : `HTTP ${status}`}) for something other than its id`,
    );
  const echoed = (initiated.response?.json as { data?: Json } | undefined)?.data?.payout_order_id;
  expectThat(
    echoed === undefined || echoed === long,
    `${label} echoed payout_order_id of ${String(echoed).length} characters: it must be stored and echoed whole (P-DUP-5)`,
    {
      expected: `payout_order_id of ${long.length} characters`,
      actual: answered(initiated),
      exchange: initiated,
    },
  );
  const read = await payoutStatus(ctx, long, `Payout Status of the payout_order_id of ${long.length} characters`);
  const record = expectData(
    read,
    `Payout Status must find the payout initiated with a payout_order_id of ${long.length} characters by that id whole (P-DUP-5)`,
  );
  expectThat(
    record.payout_order_id === long,
    `Payout Status of the payout_order_id of ${long.length} characters answers payout_order_id of ${String(record.payout_order_id).length} characters, not the id whole (P-DUP-5)`,
    {
      expected: `payout_order_id of ${long.length} characters`,
      actual: answered(read),
      exchange: read,
    },
  );
}

/**
 * DUP-EXACT-IDS (P-DUP-5): case variants are two orders; a trailing-space variant is another order or
 * refused 400, never a 409 against the first; a leading-zero text and the integer it reads as are two
 * orders (P-DUP-4 equates only 123 and "123"); ids of 65, 256 and 1025 characters (each past a common
 * column width) are refused 400 or kept whole (order_ids here; payout_order_ids in
 * edges-long-payout-ids). Each part is judged on its own: one that cannot be judged (its first order
 * refused, no wallet currency to pay in) leaves the others judged; only when none is, is the check.
 */
async function exactIds(ctx: CheckContext): Promise<void> {
  const edge = (cls: string) => EDGES.identifiers.find((e) => e.class === cls)!;
  const edgeIds = (cls: string) => edge(cls).ids({ text: ctx.ids.orderId(cls.toUpperCase()), integer: ctx.ids.integerOrderId() });
  const unjudged: string[] = [];
  let judged = 0;
  const part = async (judge: () => Promise<void>): Promise<void> => {
    try {
      await judge();
      judged++;
    } catch (error) {
      if (!isCheckSkipped(error)) throw error;
      unjudged.push(error.message.replace(/^not judged: /, ''));
    }
  };
  await part(() => distinctPair(ctx, edgeIds('case'), 'the same id in other letter case', false));
  await part(() => distinctPair(ctx, edgeIds('trailing-space'), 'the same id with a trailing space', true));
  const integer = edgeIds('integer')[0] as number;
  await part(() => distinctPair(ctx, [integer, `000${integer}`], "the integer's digits with leading zeros", false));
  for (const long of edgeIds('long') as string[]) await part(() => longOrderId(ctx, long));
  if (judged === 0) throw new CheckSkipped(`not judged: ${unjudged.join('; ')}`);
}

/**
 * DUP-EXACT-IDS (P-DUP-5) for payout_order_ids of 65, 256 and 1025 characters. A check of its own, in
 * the wallet lane after the balance checks: its payouts move the merchant's wallet, and one made beside
 * a balance check (or settling during one) would be "other activity" to it.
 */
async function exactPayoutIds(ctx: CheckContext): Promise<void> {
  const longs = EDGES.identifiers
    .find((e) => e.class === 'long')!
    .ids({ text: ctx.ids.payoutOrderId('LONG'), integer: ctx.ids.integerOrderId() }) as string[];
  const unjudged: string[] = [];
  let judged = 0;
  for (const long of longs) {
    try {
      await longPayoutOrderId(ctx, long);
      judged++;
    } catch (error) {
      if (!isCheckSkipped(error)) throw error;
      unjudged.push(error.message.replace(/^not judged: /, ''));
    }
  }
  if (judged === 0) throw new CheckSkipped(`not judged: ${unjudged.join('; ')}`);
}

/** The long payout_order_ids, listed after the operation checks (suites/sections.ts): they pay from the wallet. */
export const longPayoutIdChecks: Check[] = [
  {
    id: 'edges-long-payout-ids',
    requirement: 'DUP-EXACT-IDS',
    title: 'payout_order_ids of 65, 256 and 1025 characters are refused with 400 or kept and read back whole',
    needs: ['profile.operations.transactionInitiation', 'profile.operations.balanceInquiry'],
    creates: true,
    lane: WALLET,
    run: exactPayoutIds,
  },
];

/** Where a text edge goes: the fields a customer or a merchant writes. */
const TEXT_FIELDS = ['customer.name', 'order_note', 'customer.address.line1'] as const;

function withText(order: OrderCreateRequest, field: (typeof TEXT_FIELDS)[number], text: string): OrderCreateRequest {
  if (field === 'order_note') return { ...order, order_note: text };
  if (field === 'customer.name') return { ...order, customer: { ...order.customer, name: text } };
  return { ...order, customer: { ...order.customer, address: { ...order.customer.address, line1: text } } };
}

/**
 * ERR-NO-5XX (P-ERR-3) over the text edges: each in each of customer.name, order_note and address
 * line1. Only a 5xx fails: a server may refuse a text it will not store (bidi controls, a name longer
 * than its column) with a 4xx, since the interface shows no formats or sizes; whether it must take
 * names in any script is ORDER-UNICODE-NAMES's to judge. No answer at all is not judged (a timeout on
 * a loaded target is no proof of a crash).
 */
async function textsNo5xx(ctx: CheckContext): Promise<void> {
  const cases = EDGES.texts.flatMap((edge) => TEXT_FIELDS.map((field) => ({ edge, field })));
  await ctx.sweep(cases, async ({ edge, field }) => {
    const exchange = await createOrder(ctx, withText(validOrder(ctx), field, edge.text), `Create Order with ${field} = ${edge.label}`);
    if (exchange.error)
      throw new CheckInconclusive(`not judged: Create Order with ${field} = ${edge.label} got no answer (${exchange.error.message})`);
    expectThat(
      exchange.response.status < 500,
      `Create Order with ${field} = ${edge.label} answered HTTP ${exchange.response.status} (P-ERR-3: no input of the generators may produce a 5xx)`,
      {
        expected: 'any answer but a 5xx (a 4xx for a text the server will not take is fair)',
        actual: answered(exchange),
        exchange,
      },
    );
  });
}

export const edgeChecks: Check[] = [
  {
    id: 'edges-amount-zero',
    requirement: 'AMOUNT-ZERO-REFUSED',
    title: 'zero as 0, 0.0, 0.00, "0", "0.00" and "-0.00" is refused on Create Order and Transaction Initiation',
    creates: true,
    run: zeroRefused,
  },
  {
    id: 'edges-amount-kept-exactly',
    requirement: 'AMOUNT-KEPT-EXACTLY',
    title: 'exact amounts in JPY, KRW, INR, USD, EUR, KWD, BHD and OMR, as numbers and strings, read back equal by Order Status',
    needs: ['profile.operations.orderStatus'],
    creates: true,
    run: keptExactly,
  },
  {
    id: 'edges-amount-large',
    requirement: 'AMOUNT-LARGE',
    title: '99999999.99 and amounts past 2^31 and 2^32 minor units are created and kept, or refused 400/422, never 5xx',
    creates: true,
    run: largeAmounts,
  },
  {
    id: 'edges-exact-ids',
    requirement: 'DUP-EXACT-IDS',
    title:
      'case, trailing-space and leading-zero variants are distinct orders; order_ids and payout_order_ids of 65, 256 and 1025 characters are refused 400 or kept whole',
    creates: true,
    run: exactIds,
  },
  {
    id: 'edges-texts-no-5xx',
    requirement: 'ERR-NO-5XX',
    title: 'emoji, U+2028/U+2029, bidi controls, HTML characters and a 400-character name in a name, note or address never answer 5xx',
    creates: true,
    run: textsNo5xx,
  },
];
