// Create Order (interface: Endpoints / Create Order, Order record; P-ORDER-1..4): what a server must
// accept and what its order record must say. Each check creates its own orders with fresh ids.
import { withPath } from '../../core/predicates.js';
import { orderCreateRequest } from '../../generators/index.js';
import { isSvcDateTime } from '../../schemas/formats.js';
import { CURRENCIES, type OrderCreateRequest, type RequestAmount } from '../../schemas/types.js';
import { CheckSkipped, answered, expectSchema, expectStatus, expectThat, type Check, type CheckContext } from '../check.js';
import { forAll } from '../property.js';
import { createOrder, expectOrderCreated, expectSuccess, validOrder, withoutField, type Json } from '../requests.js';
import { creating } from './shared-auth.js';
import { REQUIRED_ORDER_FIELDS } from './shared-errors.js';
import { shown } from './shown.js';

async function createdOrder(ctx: CheckContext, label: string, overrides: Partial<OrderCreateRequest> = {}) {
  const body = validOrder(ctx, overrides);
  const exchange = await createOrder(ctx, body, label);
  const record = expectOrderCreated(exchange, `${label}: a well-formed order must be created`);
  return { body, exchange, record };
}

/** What an answer must be: its description for the report and the test. */
const ACCEPTED = { text: 'a 2xx answer', test: (status: number) => status >= 200 && status <= 299 };
const BAD_REQUEST: typeof ACCEPTED = { text: 'HTTP 400', test: (status) => status === 400 };

/** Sends each body and fails with every one whose answer is not as expected, not only the first. */
async function expectEach(
  ctx: CheckContext,
  cases: ReadonlyArray<{ what: string; body: unknown }>,
  expected: typeof ACCEPTED,
  rule: string,
): Promise<void> {
  const answers = await ctx.sweep(cases, ({ what, body }) => createOrder(ctx, body, `create ${what}`));
  const wrong = cases
    .map(({ what }, i) => ({ what, exchange: answers[i]! }))
    .filter(({ exchange }) => exchange.response === undefined || !expected.test(exchange.response.status));
  const first = wrong[0];
  expectThat(first === undefined, `${rule}: expected ${expected.text} for ${wrong.map((w) => w.what).join(', ')}`, {
    expected: `${expected.text} for each of ${cases.length} orders`,
    actual:
      wrong.map((w) => `${w.what}: ${w.exchange.response?.status ?? 'no answer'}`).join('; ') +
      (first ? ` (first: ${answered(first.exchange)})` : ''),
    ...(first ? { exchange: first.exchange } : {}),
  });
}

async function successStatus(ctx: CheckContext): Promise<void> {
  const exchange = await createOrder(ctx, validOrder(ctx), 'create an order');
  expectStatus(exchange, [200, 201], 'Create Order of a well-formed order must answer 200 or 201 (P-ORDER-2)');
}

async function successEnvelope(ctx: CheckContext): Promise<void> {
  const exchange = await createOrder(ctx, validOrder(ctx), 'create an order');
  expectSuccess(exchange, 'a well-formed order must be created before its envelope can be checked');
  const http = exchange.response.status;
  const body = exchange.response.json as Json | undefined;
  const details = shown(exchange);
  expectThat(body !== null && typeof body === 'object', 'the create envelope must be a JSON object (P-ORDER-2)', details);
  expectThat(
    body.status === 'success',
    `the create envelope must say status "success", not ${JSON.stringify(body.status)} (P-ORDER-2)`,
    shown(exchange, 'status "success"'),
  );
  expectThat(
    body.code === String(http),
    `the create envelope must say code "${http}" (the HTTP status as text), not ${JSON.stringify(body.code)} (P-ORDER-2, P-ERR-2)`,
    shown(exchange, `code "${http}"`),
  );
  expectThat(typeof body.message === 'string', 'the create envelope must carry a message string (P-ORDER-2)', details);
  expectThat(
    body.return_data !== null && typeof body.return_data === 'object',
    'the create envelope must carry return_data, the order record (P-ORDER-2)',
    details,
  );
}

async function distinctIds(ctx: CheckContext): Promise<void> {
  const first = await createdOrder(ctx, 'create a first order');
  const second = await createdOrder(ctx, 'create a second order');
  for (const { record, exchange } of [first, second]) {
    expectThat(
      typeof record.svc_order_id === 'string' && record.svc_order_id !== '',
      `svc_order_id must be a non-empty string, got ${JSON.stringify(record.svc_order_id)} (P-ORDER-3)`,
      shown(exchange),
    );
  }
  expectThat(
    first.record.svc_order_id !== second.record.svc_order_id,
    `two orders got the same svc_order_id ${JSON.stringify(first.record.svc_order_id)} (P-ORDER-3)`,
    shown(second.exchange, 'a distinct svc_order_id per order'),
  );
}

async function orderIdEcho(ctx: CheckContext): Promise<void> {
  // A string of digits with leading zeros must not come back as a number; an integer may come back as text.
  const ids: Array<string | number> = [ctx.ids.orderId(), `00${ctx.ids.integerOrderId()}`, ctx.ids.integerOrderId()];
  for (const orderId of ids) {
    const { record, exchange } = await createdOrder(ctx, `create order_id ${JSON.stringify(orderId)}`, { order_id: orderId });
    expectThat(
      String(record.order_id) === String(orderId),
      `order_id ${JSON.stringify(orderId)} came back as ${JSON.stringify(record.order_id)} (P-ORDER-3: equal as text)`,
      shown(exchange, `order_id ${JSON.stringify(String(orderId))} (as text)`),
    );
  }
}

async function unpaid(ctx: CheckContext): Promise<void> {
  const { record, exchange } = await createdOrder(ctx, 'create an order');
  expectThat(
    record.order_status === 'UN_PAID',
    `a new order must be UN_PAID, got ${JSON.stringify(record.order_status)} (P-ORDER-3)`,
    shown(exchange, 'order_status "UN_PAID"'),
  );
}

async function createdAt(ctx: CheckContext): Promise<void> {
  const { record, exchange } = await createdOrder(ctx, 'create an order');
  const text = record.created_at;
  expectThat(
    typeof text === 'string' && isSvcDateTime(text),
    `created_at ${JSON.stringify(text)} is not DD-MM-YYYY hh:mm AM/PM with a real date and an hour 01-12 (P-ORDER-3)`,
    shown(exchange, 'e.g. "21-11-2026 06:05 PM"'),
  );
}

/** The URL when `text` is an absolute http(s) URL, else undefined. */
function absoluteHttpUrl(text: unknown): URL | undefined {
  return typeof text === 'string' && /^https?:\/\//i.test(text) && URL.canParse(text) ? new URL(text) : undefined;
}

async function paymentLink(ctx: CheckContext): Promise<void> {
  const { record, exchange } = await createdOrder(ctx, 'create an order');
  const url = absoluteHttpUrl(record.payment_link);
  expectThat(
    url !== undefined,
    `payment_link ${JSON.stringify(record.payment_link)} is not an absolute http(s) URL (P-ORDER-3)`,
    shown(exchange, 'an absolute http(s) URL'),
  );
  if (ctx.config.environment === 'production') {
    const why = `payment_link ${JSON.stringify(record.payment_link)} must use https in production (P-ORDER-3)`;
    expectThat(url.protocol === 'https:', why, shown(exchange, 'an https URL'));
  }
}

async function linkHttps(ctx: CheckContext): Promise<void> {
  if (!/^https:/i.test(ctx.config.baseUrl))
    throw new CheckSkipped('not applicable: the base URL is not https, so the rule "https when the base URL is https" does not apply', {
      notApplicable: true,
    });
  const { record, exchange } = await createdOrder(ctx, 'create an order');
  expectThat(
    absoluteHttpUrl(record.payment_link)?.protocol === 'https:',
    `payment_link ${JSON.stringify(record.payment_link)} should use https, as the base URL does (P-ORDER-3)`,
    shown(exchange, 'an https URL'),
  );
}

async function generatedAccepted(ctx: CheckContext): Promise<void> {
  await forAll(ctx, 'ORDER-GENERATED-ACCEPTED', orderCreateRequest(), async (generated) => {
    // A fresh id of the generated kind, so reruns and shrinking never collide with earlier orders.
    const orderId = typeof generated.order_id === 'number' ? ctx.ids.integerOrderId() : ctx.ids.orderId('GEN');
    const exchange = await createOrder(ctx, { ...generated, order_id: orderId }, 'create a generated order');
    expectSuccess(exchange, 'a well-formed generated order must be accepted (P-ORDER-4)');
    expectSchema(exchange, 'create-order-envelope', 'the answer to a generated order');
  });
}

/** One amount in each form a client may choose (P-AMOUNT-1); all four are the same kind of order. */
const AMOUNT_FORMS: ReadonlyArray<readonly [what: string, amount: RequestAmount]> = [
  ['a JSON number', 1499.5],
  ['a decimal string with two decimals', '1499.50'],
  ['a decimal string', '1499.5'],
  ['a whole-number string', '500'],
];

async function amountForms(ctx: CheckContext): Promise<void> {
  const cases = AMOUNT_FORMS.map(([what, amount]) => ({
    what: `an order_amount of ${JSON.stringify(amount)} (${what})`,
    body: validOrder(ctx, { order_amount: amount }),
  }));
  await expectEach(ctx, cases, ACCEPTED, 'order_amount must be accepted both as a JSON number and as a decimal string (P-AMOUNT-1)');
}

async function everyCurrency(ctx: CheckContext): Promise<void> {
  // A whole amount is valid in every currency, those without minor units (JPY, KRW) included.
  const cases = CURRENCIES.map((currency) => ({
    what: `an order in ${currency}`,
    body: validOrder(ctx, { order_currency: currency, order_amount: 100 }),
  }));
  await expectEach(ctx, cases, ACCEPTED, 'every currency of the table must be accepted (P-ORDER-4)');
}

const NON_ASCII_NAMES = ['José Müller', 'Zoë Łukasiewicz-Ørsted', '山田 太郎', '김지훈', 'محمد عبد الله', 'Nguyễn Thị Hương'] as const;

async function unicodeNames(ctx: CheckContext): Promise<void> {
  const cases = NON_ASCII_NAMES.map((name) => ({ what: `an order for ${name}`, body: withPath(validOrder(ctx), 'customer.name', name) }));
  await expectEach(ctx, cases, ACCEPTED, 'customer names in any script must be accepted (P-ORDER-4, P-SIGN-5)');
}

const ADDRESS = 'customer.address.';
const REQUIRED_ADDRESS_FIELDS = REQUIRED_ORDER_FIELDS.filter((path) => path.startsWith(ADDRESS)).map((path) => path.slice(ADDRESS.length));

async function addressRequired(ctx: CheckContext): Promise<void> {
  const cases = [
    { what: 'an order without customer.address', body: withoutField(validOrder(ctx), 'customer.address') },
    ...REQUIRED_ADDRESS_FIELDS.map((field) => ({
      what: `an order without customer.address.${field}`,
      body: withoutField(validOrder(ctx), `customer.address.${field}`),
    })),
  ];
  await expectEach(ctx, cases, BAD_REQUEST, 'a missing required address field must be refused (P-ORDER-1, P-ERR-4)');
}

async function optionals(ctx: CheckContext): Promise<void> {
  const body = withoutField(withoutField(validOrder(ctx), 'order_note'), 'customer.address.line2');
  const exchange = await createOrder(ctx, body, 'create an order without order_note and customer.address.line2');
  expectSuccess(exchange, 'order_note and customer.address.line2 are optional (P-ORDER-1)');
}

export const createOrderChecks: Check[] = [
  creating('create-order-success-status', 'ORDER-SUCCESS-STATUS', 'a well-formed order answers 200 or 201', successStatus),
  creating('create-order-envelope', 'ORDER-ENVELOPE', 'the create envelope says "success" and the HTTP status as text', successEnvelope),
  creating('create-order-distinct-svc-order-ids', 'ORDER-SVC-ORDER-ID', 'two orders get distinct non-empty svc_order_ids', distinctIds),
  creating('create-order-order-id-echo', 'ORDER-ORDER-ID-ECHO', 'order_id comes back equal as text (leading zeros, integers)', orderIdEcho),
  creating('create-order-un-paid', 'ORDER-STATUS-UNPAID', 'a new order is UN_PAID', unpaid),
  creating('create-order-created-at', 'ORDER-CREATED-AT', 'created_at is DD-MM-YYYY hh:mm AM/PM, a real date, hour 01-12', createdAt),
  creating('create-order-payment-link', 'ORDER-PAYMENT-LINK', 'payment_link is an absolute http(s) URL (https in production)', paymentLink),
  creating('create-order-payment-link-https', 'ORDER-PAYMENT-LINK-HTTPS', 'payment_link uses https when the base URL does', linkHttps),
  creating(
    'create-order-generated-accepted',
    'ORDER-GENERATED-ACCEPTED',
    'generated well-formed orders are accepted, amounts as numbers and strings (property)',
    generatedAccepted,
  ),
  creating(
    'create-order-amount-forms',
    'ORDER-AMOUNT-FORMS',
    'order_amount 1499.5, "1499.50", "1499.5" and "500" are each accepted',
    amountForms,
  ),
  creating('create-order-every-currency', 'ORDER-EVERY-CURRENCY', 'an order in each of the 34 currencies is accepted', everyCurrency),
  creating(
    'create-order-unicode-names',
    'ORDER-UNICODE-NAMES',
    'customer names in Latin with diacritics, CJK, Hangul and Arabic are accepted',
    unicodeNames,
  ),
  creating(
    'create-order-address-required',
    'ORDER-ADDRESS-REQUIRED',
    'an order without the address or one of its required fields answers 400',
    addressRequired,
  ),
  creating('create-order-optional-fields', 'ORDER-OPTIONAL-FIELDS', 'an order without order_note and address.line2 is accepted', optionals),
];
