// Create Order validation (P-ORDER-1, P-ORDER-4, P-ERR-4) and the faults that loosen or tighten it: the
// body is validated as a copy in which only a tolerated defect is patched, so each fault changes one part.
import { decimalOf, minorUnitOf, toMinorUnits } from '../../schemas/amounts.js';
import { isJsonObject } from '../../core/json-of.js';
import { getPath, setPath } from '../../core/predicates.js';
import { requiredPaths } from '../../schemas/field-order.js';
import { CURRENCIES, type Currency } from '../../schemas/types.js';
import { OperationError, requireSchema, type OperationContext } from '../context.js';
import type { FaultName } from '../faults.js';
import { refuseLongId, storedOrderId } from './identifiers.js';
import { amountInMinorUnits, refuseAmountForm } from './request-amount.js';

/** The 500 of a faulty server that crashed on what it was sent. */
const crashed = () => new OperationError(500, 'internal server error');

/** What Create Order keeps of a request it accepted. */
export interface AcceptedOrder {
  /** As sent: number or string (compared as text, P-DUP-4). */
  orderId: number | string;
  /** In the currency's minor units (P-AMOUNT-2), whichever form it was sent in. */
  amountMinor: number;
  currency: Currency;
  note?: string;
  returnUrl: string;
  customerName: string;
}

type Json = Record<string, unknown>;

const PLACEHOLDER_ADDRESS = {
  line1: 'placeholder',
  city: 'placeholder',
  state: 'placeholder',
  country: 'placeholder',
  postal_code: '000000',
};
/** A valid stand-in for each required field (schemas/ names them). */
const PLACEHOLDER: Json = {
  order_id: 'placeholder',
  order_amount: 1,
  order_currency: 'INR',
  service_type: 'payment',
  customer: { name: 'placeholder', email: 'placeholder@example.com', phone: '0000000000', address: PLACEHOLDER_ADDRESS },
  return_url: 'https://merchant.example/return',
};

/** Only these are served under `order-reject-currencies` (a merchant narrowed by its category). */
const NARROW_CURRENCIES: readonly string[] = ['INR', 'USD', 'EUR'];

/** The body with the defects the active faults tolerate replaced by valid values, so the schema sees every
 * other defect exactly as before. */
function toleratedCopy(body: Json, fault: (name: FaultName) => boolean): Json {
  const copy = structuredClone(body);
  if (fault('errors-null-field-accepted')) {
    // Parents before children: a null customer takes the stand-in's, whose fields are then all set.
    for (const path of requiredPaths('order-create-request'))
      if (getPath(copy, path) === null) setPath(copy, path, structuredClone(getPath(PLACEHOLDER, path)));
  }
  if (fault('errors-zero-amount-accepted') && zeroOrNegative(copy.order_amount)) copy.order_amount = 1;
  if (fault('amount-zero-string-accepted') && zeroText(copy.order_amount)) copy.order_amount = 1;
  if (
    fault('errors-unknown-currency-accepted') &&
    typeof copy.order_currency === 'string' &&
    !(CURRENCIES as readonly string[]).includes(copy.order_currency)
  ) {
    copy.order_currency = 'INR';
  }
  if (fault('order-address-optional') && isJsonObject(copy.customer) && copy.customer.address === undefined) {
    copy.customer.address = structuredClone(PLACEHOLDER_ADDRESS);
  }
  return copy;
}

/** An amount, in either form, that reads as zero or less ("0", -5, "-0.01"): what one fault accepts. */
function zeroOrNegative(value: unknown): boolean {
  const amount = decimalOf(value);
  return amount !== undefined && amount.units <= 0n;
}

/** Zero spelled as a decimal string, signed or not ("0.00", "-0.00"): what `amount-zero-string-accepted` lets through. */
function zeroText(value: unknown): boolean {
  return typeof value === 'string' && /^-?0+(\.0+)?$/.test(value);
}

/** The amount a faulty server stores for a null, zero or negative amount it let through; else undefined. */
function tolerated(value: unknown, currency: Currency): number | undefined {
  if (value === null) return 0; // only under errors-null-field-accepted: the schema saw a placeholder
  if (zeroOrNegative(value)) return Number(toMinorUnits(decimalOf(value)!, currency) ?? 0n); // errors-zero-amount-accepted
  if (zeroText(value)) return 0; // amount-zero-string-accepted
  return undefined;
}

/** Validates a Create Order body; throws OperationError (400, 422, or the 500 of a fault). */
export function validateCreateOrder(ctx: OperationContext): AcceptedOrder {
  const body = ctx.body;
  const customer = isJsonObject(body.customer) ? body.customer : undefined;

  // The fault's server reads customer.address.city without a guard: a null dereference.
  if (ctx.fault('errors-missing-field-500') && customer && customer.address === undefined) throw crashed();

  refuseAmountForm(ctx, 'order_amount', { string: 'order-amount-string-refused', number: 'order-amount-number-refused' });
  requireSchema('order-create-request', toleratedCopy(body, ctx.fault));
  refuseLongId(ctx, 'order_id', body.order_id);
  crashOnEdgeText(ctx, customer);
  // outside the table only under errors-unknown-currency-accepted, read then with two decimals
  const currency = (typeof body.order_currency === 'string' ? body.order_currency : 'INR') as Currency;
  const amountMinor = storedAmount(ctx, body.order_amount, currency);

  const name = typeof customer?.name === 'string' ? customer.name : '';
  if (ctx.fault('order-reject-non-ascii') && /[^\x20-\x7e]/.test(name)) {
    throw new OperationError(400, '/customer/name: must contain only ASCII letters');
  }
  if (ctx.fault('order-reject-currencies') && !NARROW_CURRENCIES.includes(currency)) {
    throw new OperationError(422, `/order_currency: ${currency} is not enabled for this merchant; only ${NARROW_CURRENCIES.join(', ')}`);
  }

  return {
    // null only under errors-null-field-accepted; the faulty server stores what it was sent
    orderId: storedOrderId(ctx, body.order_id as number | string),
    amountMinor,
    currency,
    ...(typeof body.order_note === 'string' ? { note: body.order_note } : {}),
    returnUrl: typeof body.return_url === 'string' ? body.return_url : '',
    customerName: name,
  };
}

/** The order_amount in minor units as stored: exact (P-AMOUNT-4), or under their faults cut to two decimals
 * (DECIMAL(…,2)), wrapped past 2^31 - 1 (32-bit column) or rounded to a 4-byte float (FLOAT column). */
function storedAmount(ctx: OperationContext, amount: unknown, currency: Currency): number {
  const minor = tolerated(amount, currency) ?? amountInMinorUnits(amount, currency, 'order_amount');
  if (ctx.fault('amount-three-decimals-truncated') && minorUnitOf(currency) === 3) return minor - (minor % 10);
  if (ctx.fault('amount-large-int32')) return minor % 2 ** 31;
  const scale = 10 ** minorUnitOf(currency);
  if (ctx.fault('amount-float32')) return Math.round(Math.fround(minor / scale) * scale);
  return minor;
}

const LINE_SEPARATORS = /[\u2028\u2029]/;
const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;

/** P-ERR-3's text faults, each a crash's 500: an emoji in a 3-byte utf8 column, U+2028/U+2029 in text embedded in a script. */
function crashOnEdgeText(ctx: OperationContext, customer: Json | undefined): void {
  if (ctx.fault('errors-astral-500') && typeof customer?.name === 'string' && ASTRAL.test(customer.name)) throw crashed();
  if (ctx.fault('errors-line-separator-500')) {
    const address = isJsonObject(customer?.address) ? customer.address : {};
    const texts = [ctx.body.order_note, customer?.name, ...Object.values(address)];
    if (texts.some((text) => typeof text === 'string' && LINE_SEPARATORS.test(text))) throw crashed();
  }
}
