// The deterministic edges (generators/edges.ts) against the rules they stress. Every run sends every
// edge, whatever --seed and --runs: a seed changes the random cases, never whether an edge is tried.
import { edgeSet, type AmountEdge } from '../../generators/edges.js';
import { minorUnitOf } from '../../schemas/amounts.js';
import type { Currency, MerchantOrderId } from '../../schemas/types.js';
import { withPath } from '../../core/predicates.js';
import { canonicalize } from '../../signer/canonical.js';
import { CheckInconclusive, CheckSkipped, expectStatus, expectThat, type Check, type CheckContext } from '../check.js';
import { operationOf } from '../config.js';
import {
  createOrder,
  decimalEquals,
  decimalOf,
  expectData,
  initiatePayout,
  isSuccess,
  orderLookup,
  payoutRequest,
  validOrder,
} from '../requests.js';
import { walletCurrency } from '../wallet.js';
import { exactIds } from './edges-ids.js';
import { shown } from './shown.js';
import { creating } from './shared-auth.js';

export { longPayoutIdChecks } from './edges-ids.js';

/** P-ERR-4: an amount defect answers 400, or 422. */
const AMOUNT_REFUSED = [400, 422] as const;

const EDGES = edgeSet();

/** Zero spellings that reach the wire as different texts: the numbers 0, 0.0 and 0.00 are all written
 *  0 in canonical JSON (P-SIGN-1), so they are one request, labelled with every spelling it stands for. */
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

/** AMOUNT-ZERO-REFUSED (P-AMOUNT-4, P-ERR-4). Payouts are in the wallet's currency when Balance Inquiry
 *  can tell it, so a refusal is for the amount; a zero payout a faulty server accepts moves nothing. */
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

/** Order Status reads the amount sent back by exact decimal value (never a float), in its currency (P-AMOUNT-3/4). */
async function expectAmountKept(ctx: CheckContext, edge: AmountEdge, orderId: MerchantOrderId, rule: string): Promise<void> {
  const label = `Order Status of the order of ${edge.label}`;
  const exchange = await orderLookup(ctx, 'orderStatus', orderId, label);
  const record = expectData(exchange, `${label}: Order Status of the new order must answer it (P-OPS)`);
  const kept = decimalOf(record.order_amount);
  expectThat(
    kept !== undefined && decimalEquals(kept, decimalOf(edge.amount)!) && record.order_currency === edge.currency,
    `${edge.label}: Order Status answers ${JSON.stringify(record.order_amount)} ${JSON.stringify(record.order_currency)}, not the amount sent (${rule})`,
    shown(exchange, `order_amount equal by value to ${String(edge.amount)}, order_currency ${edge.currency}`),
  );
}

/** AMOUNT-KEPT-EXACTLY (P-AMOUNT-4, P-AMOUNT-3). A refused currency is ORDER-EVERY-CURRENCY's to judge;
 *  when no currency of a minor unit (0, 2 or 3 decimals) could be judged, the check says so. */
async function keptExactly(ctx: CheckContext): Promise<void> {
  const edges = EDGES.amounts.filter((e) => e.class === 'exact');
  const judged = await ctx.sweep(edges, async (edge) => {
    const body = validOrder(ctx, { order_amount: edge.amount, order_currency: edge.currency });
    const created = await createOrder(ctx, body, `Create Order of ${edge.label}`);
    // Refused, or answered 5xx (ERR-NO-5XX's to judge, as every answer is observed): nothing was kept to compare.
    if (!isSuccess(created)) return undefined;
    await expectAmountKept(ctx, edge, body.order_id, 'P-AMOUNT-4');
    return minorUnitOf(edge.currency);
  });
  const unjudged = ([0, 2, 3] as const).filter((digits) => !judged.includes(digits));
  if (unjudged.length > 0) {
    throw new CheckSkipped(
      `not judged for ${unjudged.map((d) => `${d}-decimal`).join(' and ')} currencies: every order in them was refused (see ORDER-EVERY-CURRENCY)`,
    );
  }
}

/** AMOUNT-LARGE (P-AMOUNT-4, P-ERR-3): a refusal of 400 or 422 is a deployment's own limit, fair. */
async function largeAmounts(ctx: CheckContext): Promise<void> {
  const canReadBack = operationOf(ctx.config, 'orderStatus') !== undefined;
  const edges = EDGES.amounts.filter((e) => e.class === 'large');
  const accepted = await ctx.sweep(edges, async (edge) => {
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
    await expectAmountKept(ctx, edge, body.order_id, 'P-AMOUNT-4: never stored altered');
    return false;
  });
  if (accepted.includes(true)) {
    throw new CheckSkipped(
      'partly judged: no large amount was answered 5xx, but whether the accepted ones were stored unaltered needs profile.operations.orderStatus to read them back',
    );
  }
}

/** Where a text edge goes: the fields a customer or a merchant writes. */
const TEXT_FIELDS = ['customer.name', 'order_note', 'customer.address.line1'] as const;

/** ERR-NO-5XX (P-ERR-3): a 4xx is fair, as the interface shows no formats or sizes (ORDER-UNICODE-NAMES
 *  judges scripts). No answer is not judged: a timeout on a loaded target is no proof of a crash. */
async function textsNo5xx(ctx: CheckContext): Promise<void> {
  const cases = EDGES.texts.flatMap((edge) => TEXT_FIELDS.map((field) => ({ edge, field })));
  await ctx.sweep(cases, async ({ edge, field }) => {
    const exchange = await createOrder(ctx, withPath(validOrder(ctx), field, edge.text), `Create Order with ${field} = ${edge.label}`);
    if (exchange.error)
      throw new CheckInconclusive(`not judged: Create Order with ${field} = ${edge.label} got no answer (${exchange.error.message})`);
    expectThat(
      exchange.response.status < 500,
      `Create Order with ${field} = ${edge.label} answered HTTP ${exchange.response.status} (P-ERR-3: no input of the generators may produce a 5xx)`,
      shown(exchange, 'any answer but a 5xx (a 4xx for a text the server will not take is fair)'),
    );
  });
}

export const edgeChecks: Check[] = [
  creating(
    'edges-amount-zero',
    'AMOUNT-ZERO-REFUSED',
    'zero as 0, 0.0, 0.00, "0", "0.00" and "-0.00" is refused on Create Order and Transaction Initiation',
    zeroRefused,
  ),
  creating(
    'edges-amount-kept-exactly',
    'AMOUNT-KEPT-EXACTLY',
    'exact amounts in JPY, KRW, INR, USD, EUR, KWD, BHD and OMR, as numbers and strings, read back equal by Order Status',
    keptExactly,
    ['profile.operations.orderStatus'],
  ),
  creating(
    'edges-amount-large',
    'AMOUNT-LARGE',
    '99999999.99 and amounts past 2^31 and 2^32 minor units are created and kept, or refused 400/422, never 5xx',
    largeAmounts,
  ),
  creating(
    'edges-exact-ids',
    'DUP-EXACT-IDS',
    'case, trailing-space and leading-zero variants are distinct orders; order_ids and payout_order_ids of 65, 256 and 1025 characters are refused 400 or kept whole',
    exactIds,
  ),
  creating(
    'edges-texts-no-5xx',
    'ERR-NO-5XX',
    'emoji, U+2028/U+2029, bidi controls, HTML characters and a 400-character name in a name, note or address never answer 5xx',
    textsNo5xx,
  ),
];
