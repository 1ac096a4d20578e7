// Interface: Errors. Profile: P-ERR-1…4, P-ORDER-1. The observers (suites/observers.ts) hold every
// exchange of the run to P-ERR-1/2/3; the checks here provoke errors on purpose and classify them.
import { isJsonContentType } from '../../core/predicates.js';
import { canonicalize } from '../../signer/canonical.js';
import { invalidOrderCreateRequest, invalidPayoutStatusRequest, type DefectKind } from '../../generators/index.js';
import { expectSchema, expectStatus, expectThat, type Check, type CheckContext } from '../check.js';
import type { Exchange } from '../http.js';
import { CREATE_ORDER_PATH, PAYOUT_STATUS_PATH, validOrder, withoutField } from '../requests.js';
import { check, creating, unknownPayoutStatus } from './shared-auth.js';
import {
  expectNoServerError,
  fieldCases,
  noServerErrorProperty,
  operationName,
  orderDefectProperty,
  provokeErrors,
  REQUIRED_ORDER_FIELDS,
  sweepOrders,
  type OrderCase,
  wrongTypeFor,
} from './shared-errors.js';
import { shown } from './shown.js';

/** Only answers of 300 and above are judged as errors; a 2xx here is another check's failure. */
const isError = (exchange: Exchange) => (exchange.response?.status ?? 0) >= 300;

/** ERR-ENVELOPE (P-ERR-1): status false, an integer code, a non-empty message; no data on Payout Status. */
async function errorsAnswerTheEnvelope(ctx: CheckContext): Promise<void> {
  for (const exchange of (await provokeErrors(ctx)).filter(isError)) {
    const schema = exchange.request.url.endsWith(PAYOUT_STATUS_PATH) ? 'payout-status-error-envelope' : 'error-envelope';
    expectSchema(exchange, schema, `${exchange.label}: a non-2xx answer is the general error envelope`);
  }
}

/** ERR-CONTENT-TYPE (P-ERR-1): errors, and a success when a fixture allows one, are application/json. */
async function answersAreJson(ctx: CheckContext): Promise<void> {
  const exchanges = await provokeErrors(ctx);
  const fixture = ctx.config.fixtures?.payouts?.SUCCESS;
  if (fixture !== undefined) {
    const payload = { ...unknownPayoutStatus(ctx), payout_order_id: fixture };
    exchanges.push(await ctx.send({ label: 'Payout Status of the SUCCESS fixture (a 200)', path: PAYOUT_STATUS_PATH, payload }));
  }
  for (const exchange of exchanges) {
    if (exchange.response === undefined) continue;
    const type = exchange.response.headers['content-type'] ?? '';
    expectThat(
      isJsonContentType(type),
      `${exchange.label}: answered Content-Type ${type ? JSON.stringify(type) : 'none'}`,
      shown(exchange, 'Content-Type: application/json (parameters such as charset allowed)'),
    );
  }
}

/** ERR-CODE-MATCHES-STATUS (P-ERR-2): the body's code says the HTTP status. Its JSON type is ERR-ENVELOPE's. */
async function codeIsStatus(ctx: CheckContext): Promise<void> {
  for (const exchange of (await provokeErrors(ctx)).filter(isError)) {
    const response = exchange.response;
    if (response === undefined) continue;
    const body = response.json as { code?: unknown } | undefined;
    if (body === null || typeof body !== 'object' || body.code === undefined) continue;
    // A code that is neither text nor a number says no status at all.
    const code = typeof body.code === 'string' || typeof body.code === 'number' ? String(body.code) : undefined;
    expectThat(
      code === String(response.status),
      `${exchange.label}: HTTP ${response.status} with code ${JSON.stringify(body.code)}`,
      shown(exchange, `code ${response.status}`),
    );
  }
}

/** ERR-NO-5XX (P-ERR-3): Create Order without each required field, then every defect kind of the generators. */
async function noServerErrorForInvalidOrders(ctx: CheckContext): Promise<void> {
  const cases = REQUIRED_ORDER_FIELDS.map((path) => ({ path, order: withoutField(validOrder(ctx), path) }));
  await ctx.sweep(cases, async ({ path, order }) => {
    expectNoServerError(
      await ctx.send({ label: `Create Order without ${path}`, path: CREATE_ORDER_PATH, payload: order }),
      `a Create Order without ${path}`,
    );
  });
  await noServerErrorProperty(
    ctx,
    CREATE_ORDER_PATH,
    invalidOrderCreateRequest({ orderIdKind: 'string', orderIdPrefix: `ERR-${ctx.ids.nonce()}` }),
  );
}

/** ERR-NO-5XX (P-ERR-3): every defect kind of the generators on Payout Status. */
async function noServerErrorForInvalidPayoutStatus(ctx: CheckContext): Promise<void> {
  await noServerErrorProperty(ctx, PAYOUT_STATUS_PATH, invalidPayoutStatusRequest({ walletId: ctx.config.merchant.walletId }));
}

/** ERR-INVALID-JSON (P-ERR-4): 400. A bare NaN may also get 422: some parsers (Python's json) read it
 *  as a number, and a NaN order_amount is a defect P-ERR-4 lets a server refuse with 422. */
async function refusesInvalidJson(ctx: CheckContext): Promise<void> {
  const order = canonicalize(validOrder(ctx));
  const status = canonicalize(unknownPayoutStatus(ctx));
  const cases: Array<[string, string, string, readonly number[]]> = [
    [CREATE_ORDER_PATH, 'cut off in the middle', order.slice(0, Math.floor(order.length / 2)), [400]],
    [CREATE_ORDER_PATH, 'a trailing comma', `${order.slice(0, -1)},}`, [400]],
    [CREATE_ORDER_PATH, 'single quotes', order.replaceAll('"', "'"), [400]],
    [CREATE_ORDER_PATH, 'a bare NaN amount', order.replace(/"order_amount":[^,}]+/, '"order_amount":NaN'), [400, 422]],
    [PAYOUT_STATUS_PATH, 'cut off in the middle', status.slice(0, Math.floor(status.length / 2)), [400]],
  ];
  await ctx.sweep(cases, async ([path, how, raw, statuses]) => {
    const operation = operationName(path);
    const exchange = await ctx.send({ label: `${operation} with invalid JSON: ${how}`, path, raw });
    expectStatus(exchange, statuses, `${operation} with invalid JSON (${how})`);
  });
}

/** ERR-EMPTY-BODY (P-ERR-4): an empty body, signed as "" + timestamp (P-SIGN-4). */
async function refusesEmptyBody(ctx: CheckContext): Promise<void> {
  for (const path of [CREATE_ORDER_PATH, PAYOUT_STATUS_PATH]) {
    const what = `${operationName(path)} with an empty body`;
    expectStatus(await ctx.send({ label: what, path, raw: '' }), [400], what);
  }
}

/** ERR-NON-OBJECT (P-ERR-4): arrays and scalars at the top level, sent as canonical JSON. */
async function refusesNonObjectBody(ctx: CheckContext): Promise<void> {
  const order = validOrder(ctx);
  const cases: Array<[string, unknown, string]> = [
    [CREATE_ORDER_PATH, [order], 'an array holding the order'],
    [CREATE_ORDER_PATH, [], 'an empty array'],
    [CREATE_ORDER_PATH, canonicalize({ ...order, order_id: ctx.ids.orderId('ERR') }), 'a string holding the encoded order'],
    [CREATE_ORDER_PATH, 1, 'the number 1'],
    [CREATE_ORDER_PATH, true, 'true'],
    [CREATE_ORDER_PATH, null, 'null'],
    [PAYOUT_STATUS_PATH, [unknownPayoutStatus(ctx)], 'an array holding the request'],
  ];
  await ctx.sweep(cases, async ([path, payload, what]) => {
    const label = `${operationName(path)} whose body is ${what}`;
    expectStatus(await ctx.send({ label, path, payload }), [400], label);
  });
}

/** A fixed sweep of one defect (P-ERR-4), and a property over the generators' mutations of that kind. */
function defectChecks(
  id: string,
  requirement: string,
  kind: DefectKind,
  titles: [string, string],
  cases: (ctx: CheckContext) => OrderCase[],
): Check[] {
  return [
    creating(id, requirement, titles[0], (ctx) => sweepOrders(ctx, cases(ctx))),
    creating(`${id}-property`, requirement, titles[1], (ctx) => orderDefectProperty(ctx, requirement, [kind])),
  ];
}

/** ERR-BAD-AMOUNT, ERR-UNKNOWN-CURRENCY (P-ERR-4): each value of one field, refused 400 or 422. */
const valueCases = (ctx: CheckContext, field: 'order_amount' | 'order_currency', values: readonly unknown[]): OrderCase[] =>
  values.map((value) => ({
    description: `${field} is ${JSON.stringify(value)}`,
    order: { ...validOrder(ctx), [field]: value },
    expected: [400, 422],
  }));

// Every check that sends a Create Order is `creates: true` (P-ENV-3): the orders are malformed, but a
// lenient server could store them, so against production they run only with --allow-production.
export const errorChecks: Check[] = [
  creating('err-envelope', 'ERR-ENVELOPE', 'a 401, 400 and 404 answer the general error envelope', errorsAnswerTheEnvelope),
  creating('err-content-type', 'ERR-CONTENT-TYPE', 'errors and successes are labelled application/json', answersAreJson),
  creating('err-code-matches-status', 'ERR-CODE-MATCHES-STATUS', 'the code of a 401, 400 and 404 equals the HTTP status', codeIsStatus),
  creating('err-no-5xx-create-order', 'ERR-NO-5XX', 'no malformed Create Order answers a 5xx', noServerErrorForInvalidOrders),
  check('err-no-5xx-payout-status', 'ERR-NO-5XX', 'no malformed Payout Status answers a 5xx', noServerErrorForInvalidPayoutStatus),
  creating('err-invalid-json', 'ERR-INVALID-JSON', 'invalid JSON: 400 (a bare NaN amount: 400 or 422)', refusesInvalidJson),
  creating('err-empty-body', 'ERR-EMPTY-BODY', 'an empty body: 400', refusesEmptyBody),
  creating('err-non-object', 'ERR-NON-OBJECT', 'a top-level array or scalar: 400', refusesNonObjectBody),
  // Each required field left out, null, or of another JSON type in turn, customer.address included (P-ORDER-1).
  ...defectChecks(
    'err-missing-field',
    'ERR-MISSING-FIELD',
    'missing-field',
    ['each required Create Order field missing: 400', 'generated orders missing a required field: 400'],
    (ctx) => fieldCases(ctx, 'is missing', () => undefined),
  ),
  ...defectChecks(
    'err-null-field',
    'ERR-NULL-FIELD',
    'null-field',
    ['each required Create Order field null: 400', 'generated orders with a required field null: 400'],
    (ctx) => fieldCases(ctx, 'is null', () => null),
  ),
  ...defectChecks(
    'err-wrong-type',
    'ERR-WRONG-TYPE',
    'wrong-type',
    ['each required Create Order field of another type: 400', 'generated orders with a field of another type: 400'],
    (ctx) => fieldCases(ctx, 'has the wrong type', wrongTypeFor),
  ),
  // Non-numeric, empty, NaN and Infinity text, zero, negative; codes outside the table, lower case included.
  ...defectChecks(
    'err-bad-amount',
    'ERR-BAD-AMOUNT',
    'bad-amount',
    ['non-numeric, zero, negative, NaN or Infinity amounts: 400 or 422', 'generated orders with a bad amount: 400 or 422'],
    (ctx) => valueCases(ctx, 'order_amount', ['abc', '', 'NaN', 'Infinity', 0, -1, -0.01]),
  ),
  ...defectChecks(
    'err-unknown-currency',
    'ERR-UNKNOWN-CURRENCY',
    'unknown-currency',
    ['currencies outside the table: 400 or 422', 'generated orders with an unknown currency: 400 or 422'],
    (ctx) => valueCases(ctx, 'order_currency', ['inr', 'RUB', 'XYZ']),
  ),
];
