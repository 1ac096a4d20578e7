// Malformed requests for the Errors checks (P-ERR-3, P-ERR-4): fixed sweeps that cover every required
// field deterministically, and properties over the generators' labelled one-defect mutations.
import { getPath, withPath } from '../../core/predicates.js';
import type fc from 'fast-check';
import { invalidOrderCreateRequest, type DefectKind, type InvalidRequest } from '../../generators/index.js';
import { expectStatus, expectThat, type CheckContext } from '../check.js';
import { requiredPaths } from '../../schemas/field-order.js';
import type { Exchange } from '../http.js';
import { forAll } from '../property.js';
import { CREATE_ORDER_PATH, PAYOUT_STATUS_PATH, validOrder } from '../requests.js';
import { alterLastCharacter, sendProbe } from './shared-auth.js';
import { shown } from './shown.js';

/** The interface's required Create Order fields (P-ORDER-1), read from its schema: parents before children. */
export const REQUIRED_ORDER_FIELDS = requiredPaths('order-create-request');

/** P-ERR-4: amount and currency defects may also answer 422. */
export function statusesFor(field: string): readonly number[] {
  return field === 'order_amount' || field === 'order_currency' ? [400, 422] : [400];
}

/** One fixed malformed Create Order and the statuses P-ERR-4 allows for it. */
export interface OrderCase {
  description: string;
  order: unknown;
  expected: readonly number[];
}

/** Sends each case as a correctly signed Create Order; every answer must be one the case allows. */
export async function sweepOrders(ctx: CheckContext, cases: readonly OrderCase[]): Promise<void> {
  await ctx.sweep(cases, async ({ description, order, expected }) => {
    const exchange = await ctx.send({ label: `Create Order: ${description}`, path: CREATE_ORDER_PATH, payload: order });
    expectStatus(exchange, expected, `a Create Order whose ${description}`);
  });
}

/** Every required field of a plain valid order, in turn replaced by what `make` gives (undefined: removed). */
export function fieldCases(ctx: CheckContext, what: string, make: (path: string, current: unknown) => unknown): OrderCase[] {
  return REQUIRED_ORDER_FIELDS.map((path) => {
    const order = validOrder(ctx);
    const replacement = make(path, getPath(order, path));
    const shown = replacement === undefined || replacement === null ? '' : ` (${JSON.stringify(replacement)})`;
    return { description: `${path} ${what}${shown}`, order: withPath(order, path, replacement), expected: statusesFor(path) };
  });
}

/** One wrong-typed value per required field: a number for text, text for an object, and so on. */
export function wrongTypeFor(path: string, current: unknown): unknown {
  if (path === 'order_id' || path === 'order_amount') return true;
  if (path === 'order_currency') return 356;
  if (path === 'customer' || path === 'customer.address') return JSON.stringify(current);
  return 12345;
}

export const operationName = (path: string) => (path === CREATE_ORDER_PATH ? 'Create Order' : 'Payout Status');

/** Sends a labelled invalid request correctly signed: JSON as canonical text, anything else as is (P-ERR-4). */
export function sendInvalid(ctx: CheckContext, path: string, invalid: InvalidRequest): Promise<Exchange> {
  const label = `${operationName(path)}: ${invalid.description}`;
  if (invalid.body.kind === 'text') return ctx.send({ label, path, raw: invalid.body.text });
  let payload = invalid.body.value;
  // A fresh order_id per case, so a server that wrongly accepts one case cannot turn the next into a 409.
  if (
    path === CREATE_ORDER_PATH &&
    invalid.field !== 'order_id' &&
    payload !== null &&
    typeof payload === 'object' &&
    !Array.isArray(payload) &&
    'order_id' in payload
  ) {
    payload = { ...payload, order_id: ctx.ids.orderId('ERR') };
  }
  return ctx.send({ label, path, payload });
}

/** A property: every Create Order with one defect of these kinds answers a status its label allows. */
export async function orderDefectProperty(ctx: CheckContext, requirement: string, defects: readonly DefectKind[]): Promise<void> {
  const arbitrary = invalidOrderCreateRequest({ defects, orderIdKind: 'string', orderIdPrefix: `ERR-${ctx.ids.nonce()}` });
  await forAll(ctx, requirement, arbitrary, async (invalid) => {
    const exchange = await sendInvalid(ctx, CREATE_ORDER_PATH, invalid);
    expectStatus(exchange, invalid.expectedStatuses, `a Create Order whose ${invalid.description}`);
  });
}

/** A property: no request of the arbitrary answers a 5xx, or no answer at all (P-ERR-3). */
export async function noServerErrorProperty(ctx: CheckContext, path: string, arbitrary: fc.Arbitrary<InvalidRequest>): Promise<void> {
  await forAll(ctx, 'ERR-NO-5XX', arbitrary, async (invalid) => {
    expectNoServerError(await sendInvalid(ctx, path, invalid), invalid.description);
  });
}

export function expectNoServerError(exchange: Exchange, what: string): void {
  const status = exchange.response?.status;
  expectThat(
    status !== undefined && status < 500,
    `${what}: expected an answer below 500, got ${status === undefined ? 'no answer' : `HTTP ${status}`}`,
    shown(exchange, 'an answer below 500'),
  );
}

/** Error answers every target gives: 401 (altered signature), 400 (invalid JSON, a missing field) and
 *  404 (unknown payout). The envelope checks inspect them; their statuses are asserted by other checks. */
export async function provokeErrors(ctx: CheckContext): Promise<Exchange[]> {
  const order = validOrder(ctx);
  return [
    await sendProbe(ctx, 'Payout Status with an altered signature (a 401)', { signature: alterLastCharacter }),
    await ctx.send({
      label: 'Payout Status with invalid JSON (a 400)',
      path: PAYOUT_STATUS_PATH,
      raw: '{"debit_account_type":"svc_wallet",',
    }),
    await ctx.send({
      label: 'Create Order without return_url (a 400)',
      path: CREATE_ORDER_PATH,
      payload: withPath(order, 'return_url', undefined),
    }),
    await sendProbe(ctx, 'Payout Status of an unknown payout (a 404)'),
  ];
}
