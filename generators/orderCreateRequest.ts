// Well-formed Create Order requests (P-ORDER-1, P-ORDER-4, P-SIGN-5): every currency, both id types,
// optional fields present and absent, many locales and scripts, text with `&`, `<`, `>`, `/` and emoji.
import { fc } from '../common/fast-check.js';
import {
  CURRENCIES,
  type Address,
  type Currency,
  type Customer,
  type MerchantOrderId,
  type OrderCreateRequest,
  type RequestAmount,
} from '../schemas/types.js';
import { AMOUNT_FORMS, amountIn, type AmountForm } from './_internal/amounts.js';
import {
  checkCurrencies,
  checkIdPrefix,
  checkMaxAmount,
  checkNonEmptyStrings,
  checkOneOf,
  GeneratorConstraintError,
} from './_internal/constraints.js';
import {
  alphanumericString,
  digitsOf,
  drawWith,
  fakerSeed,
  LATIN_LOCALES,
  localeById,
  LOCALES,
  type LocaleProfile,
  UPPER_ALPHANUMERIC,
} from './_internal/seededFaker.js';

export type OrderIdKind = 'integer' | 'string' | 'both';

export interface OrderCreateRequestConstraints {
  /** Codes `order_currency` is drawn from. Default: the interface's whole table. */
  currencies?: readonly Currency[];
  /** JSON type of `order_id`. Default: 'string' when `orderIdPrefix` is set, else 'both'. */
  orderIdKind?: OrderIdKind;
  /** `order_amount` stays strictly below this. Default 1_000_000. */
  maxAmount?: number;
  /** JSON form of `order_amount` (P-AMOUNT-1): numbers, decimal strings, or both. Default 'both'. */
  amountForm?: AmountForm;
  /** Values for `service_type` (the interface does not list them). Default ['payment']. */
  serviceTypes?: readonly string[];
  /** Every string `order_id` starts with this (e.g. a run id, so reruns do not collide). */
  orderIdPrefix?: string;
}

const API = 'orderCreateRequest';

/** The constraints checked, with their defaults filled in. */
function withDefaults(constraints: OrderCreateRequestConstraints) {
  const orderIdPrefix = checkIdPrefix(API, 'orderIdPrefix', constraints.orderIdPrefix);
  const orderIdKind = checkOneOf(
    API,
    'orderIdKind',
    constraints.orderIdKind,
    ['integer', 'string', 'both'],
    orderIdPrefix === undefined ? 'both' : 'string',
  );
  if (orderIdPrefix !== undefined && orderIdKind === 'integer') {
    throw new GeneratorConstraintError(API, "orderIdPrefix applies to string order ids and cannot be combined with orderIdKind 'integer'");
  }
  return {
    currencies: checkCurrencies(API, 'currencies', constraints.currencies) ?? CURRENCIES,
    orderIdKind,
    maxAmount: checkMaxAmount(API, constraints.maxAmount, 1_000_000),
    amountForm: checkOneOf(API, 'amountForm', constraints.amountForm, AMOUNT_FORMS, 'both'),
    serviceTypes: checkNonEmptyStrings(API, 'serviceTypes', constraints.serviceTypes) ?? ['payment'],
    orderIdPrefix,
  };
}

type ResolvedConstraints = ReturnType<typeof withDefaults>;

/** Positive safe integers, mostly of a size merchants use, sometimes up to 2^53 - 1. */
function integerOrderId(): fc.Arbitrary<number> {
  return fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: 99_999_999 }), weight: 3 },
    { arbitrary: fc.maxSafeNat().map((n) => Math.max(1, n)), weight: 1 },
  );
}

/** `ORD-2026-00042`-style ids, or plain ASCII alphanumerics; with a prefix, every id starts with it. */
function stringOrderId(prefix: string | undefined): fc.Arbitrary<string> {
  const head = prefix === undefined ? fc.constantFrom('ORD', 'INV', 'SO', 'CART', 'TXN') : fc.constant(prefix);
  const dated = fc
    .tuple(head, fc.integer({ min: 2020, max: 2030 }), fc.integer({ min: 1, max: 99_999 }))
    .map(([h, year, serial]) => `${h}-${year}-${String(serial).padStart(5, '0')}`);
  const plain =
    prefix === undefined ? alphanumericString(6, 24) : alphanumericString(6, 16, UPPER_ALPHANUMERIC).map((tail) => `${prefix}-${tail}`);
  return fc.oneof(dated, plain);
}

function orderId(c: ResolvedConstraints): fc.Arbitrary<MerchantOrderId> {
  if (c.orderIdKind === 'integer') return integerOrderId();
  if (c.orderIdKind === 'string') return stringOrderId(c.orderIdPrefix);
  return fc.oneof(integerOrderId(), stringOrderId(c.orderIdPrefix));
}

/** The currency first, then an amount within that currency's minor unit (P-AMOUNT-2). */
function money(c: ResolvedConstraints): fc.Arbitrary<{ currency: Currency; amount: RequestAmount }> {
  return fc
    .constantFrom(...c.currencies)
    .chain((currency) => amountIn(currency, c.maxAmount, c.amountForm).map((amount) => ({ currency, amount })));
}

/** A customer whose name, phone and address come from one locale (the surname sometimes from another). */
function customer(): fc.Arbitrary<Customer> {
  return fc
    .record({
      locale: fc.constantFrom(...LOCALES),
      surnameLocale: fc.option(fc.constantFrom(...LATIN_LOCALES), { nil: undefined, freq: 4 }),
      seed: fakerSeed(),
      withLine2: fc.boolean(),
      internationalPhone: fc.boolean(),
      countryAsCode: fc.boolean(),
    })
    .map(({ locale, surnameLocale, seed, withLine2, internationalPhone, countryAsCode }) => {
      const surname =
        surnameLocale === undefined || !locale.latin ? undefined : drawWith(surnameLocale.faker, seed, (g) => g.person.lastName());
      return drawWith(locale.faker, seed, (f): Customer => {
        const name = surname === undefined ? f.person.fullName() : `${f.person.firstName()} ${surname}`;
        const email = f.internet.email();
        const phone = internationalPhone
          ? `+${digitsOf(f.phone.number({ style: 'international' }))}`
          : digitsOf(f.phone.number({ style: 'national' }));
        const line1 = f.location.streetAddress();
        const line2 = f.location.secondaryAddress();
        const city = f.location.city();
        const state = f.location.state();
        const country = countryAsCode ? locale.countryCode : locale.country;
        const postal_code = f.location.zipCode();
        const address: Address = { line1, ...(withLine2 ? { line2 } : {}), city, state, country, postal_code };
        return { name, email, phone, address };
      });
    });
}

/** Characters a signer must keep as they are (P-SIGN-1, P-SIGN-5), one mark a word. */
const NOTE_MARKS = `& < > / " ' <b>gift</b> A&B R&D 1/2 "fragile" O'Neil → € ₹ 🎁 🚚 ✅ 👍🏽 🇮🇳`.split(' ');

function orderNote(): fc.Arbitrary<string> {
  return fc
    .record({
      locale: fc.constantFrom(...LOCALES),
      seed: fakerSeed(),
      sentence: fc.boolean(),
      marks: fc.array(fc.tuple(fc.constantFrom(...NOTE_MARKS), fc.nat()), { maxLength: 4 }),
    })
    .map(({ locale, seed, sentence, marks }) => {
      const text = drawWith(locale.faker, seed, (f) =>
        sentence ? f.lorem.sentence({ min: 3, max: 10 }) : `Order of ${f.commerce.productName()}`,
      );
      const words = text.split(' ');
      for (const [mark, at] of marks) words.splice(at % (words.length + 1), 0, mark);
      return words.join(' ');
    });
}

const RETURN_PATHS = [
  '/checkout/return',
  '/payments/callback',
  '/orders/{id}/complete',
  '/shop/thank-you',
  '/api/v1/pg/return',
  '/de/kasse/danke',
] as const;

/** An https URL with a path and a query string, often with several `&`-separated parameters. */
function returnUrl(orderIdValue: MerchantOrderId, seed: number, locale: LocaleProfile): string {
  return drawWith(localeById('en_US').faker, seed, (f) => {
    const path = f.helpers.arrayElement(RETURN_PATHS).replace('{id}', encodeURIComponent(String(orderIdValue)));
    const params: Array<[string, string]> = [['order_id', String(orderIdValue)]];
    const extra = f.helpers.arrayElements(
      [
        ['ref', f.string.alphanumeric(10)],
        ['lang', locale.id.slice(0, 2)],
        ['utm_source', 'newsletter'],
        ['next', '/account/orders'],
        ['note', 'A&B'],
      ],
      { min: 0, max: 3 },
    );
    const query = [...params, ...extra].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
    return `https://${f.internet.domainName()}${path}?${query}`;
  });
}

/** Create Order request bodies that the interface's schema accepts (P-ORDER-4). Deterministic for a
 *  fast-check seed: faker is reseeded from a drawn integer before each use. */
export function orderCreateRequest(constraints: OrderCreateRequestConstraints = {}): fc.Arbitrary<OrderCreateRequest> {
  const c = withDefaults(constraints);
  return fc
    .record({
      order_id: orderId(c),
      money: money(c),
      order_note: fc.option(orderNote(), { nil: undefined, freq: 2 }),
      service_type: fc.constantFrom(...c.serviceTypes),
      customer: customer(),
      urlSeed: fakerSeed(),
      urlLocale: fc.constantFrom(...LOCALES),
    })
    .map(
      ({ order_id, money: { currency, amount }, order_note, service_type, customer: who, urlSeed, urlLocale }): OrderCreateRequest => ({
        order_id,
        order_amount: amount,
        order_currency: currency,
        ...(order_note === undefined ? {} : { order_note }),
        service_type,
        customer: who,
        return_url: returnUrl(order_id, urlSeed, urlLocale),
      }),
    );
}
