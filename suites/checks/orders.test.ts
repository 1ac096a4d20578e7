// The Create Order checks (P-ORDER-1..4, P-AMOUNT-1), each condition broken alone by a made-up server
// that creates orders as the interface says but for one thing. The https payment_link branches:
// payment-link.test.ts; each check against the sandbox and its faults: order-checks.test.ts.
import { describe, expect, it } from 'vitest';
import type { SendOptions } from '../http.js';
import { judge, verdict, type Reply, type Server } from './made-up-server-test-support.js';
import { createOrderChecks } from './orders.js';

type Json = Record<string, unknown>;
const check = (id: string) => createOrderChecks.find((c) => c.id === id)!;
type Edit = (record: Json, envelope: Json) => void;
type Row = [string, Edit, 'passed' | 'failed'];

/** The envelope of a created order, its record made from the request and changed by `edit`. */
function created(body: Json, n: number, edit: (record: Json, envelope: Json) => void = () => {}): Reply {
  const record: Json = {
    order_id: body.order_id,
    svc_order_id: `SVC-${n}`,
    order_status: 'UN_PAID',
    created_at: '21-11-2026 06:05 PM',
    payment_link: `https://pay.example.test/c/${n}`,
  };
  const envelope: Json = { status: 'success', code: '201', message: 'Order created', return_data: record };
  edit(record, envelope);
  return { status: 201, json: envelope };
}

/** A server that creates every order (201), answering what `reply` says instead where it says something. */
function orders(
  reply: (body: Json, n: number) => Reply | undefined = () => undefined,
  edit?: (record: Json, envelope: Json) => void,
): Server {
  let n = 0;
  return (options: SendOptions) => {
    const body = options.payload as Json;
    n += 1;
    return reply(body, n) ?? created(body, n, edit);
  };
}
const editing = (edit: (record: Json, envelope: Json) => void) => orders(undefined, edit);

describe('ORDER-SUCCESS-STATUS: 200 or 201', () => {
  it.each([
    [200, 'passed'],
    [201, 'passed'],
    [202, 'failed'],
    [400, 'failed'],
  ] as const)('%i: %s', async (status, outcome) => {
    expect(
      await verdict(
        check('create-order-success-status'),
        orders((body, n) => ({ status, json: { status: 'success', code: String(status), return_data: { order_id: body.order_id, n } } })),
      ),
    ).toBe(outcome);
  });
});

describe('ORDER-ENVELOPE: status "success", code the HTTP status as text, a message and return_data', () => {
  it.each([
    ['as the interface says', () => {}, 'passed'],
    ['status "SUCCESS"', (_: Json, e: Json) => void (e.status = 'SUCCESS'), 'failed'],
    ['status true', (_: Json, e: Json) => void (e.status = true), 'failed'],
    ['code "200" on a 201', (_: Json, e: Json) => void (e.code = '200'), 'failed'],
    ['code 201 as a number', (_: Json, e: Json) => void (e.code = 201), 'failed'],
    ['no message', (_: Json, e: Json) => void delete e.message, 'failed'],
    ['return_data null', (_: Json, e: Json) => void (e.return_data = null), 'failed'],
    ['return_data text', (_: Json, e: Json) => void (e.return_data = 'ORDER-1'), 'failed'],
  ] satisfies Row[])('%s: %s', async (_, edit, outcome) => {
    expect(await verdict(check('create-order-envelope'), editing(edit))).toBe(outcome);
  });

  it('fails an envelope that is not a JSON object, and a create that did not succeed', async () => {
    expect(await verdict(check('create-order-envelope'), () => ({ status: 201, text: 'created' }))).toBe('failed');
    expect(await verdict(check('create-order-envelope'), () => ({ status: 201, json: null }))).toBe('failed');
    expect(await verdict(check('create-order-envelope'), () => 400)).toBe('failed');
  });
});

describe('ORDER-SVC-ORDER-ID: two orders, two distinct non-empty svc_order_ids', () => {
  it.each([
    ['distinct', () => {}, 'passed'],
    ['the same for both', (r: Json) => void (r.svc_order_id = 'SVC-1'), 'failed'],
    ['empty', (r: Json) => void (r.svc_order_id = ''), 'failed'],
    ['a number', (r: Json) => void (r.svc_order_id = Number(String(r.svc_order_id).slice(4))), 'failed'],
  ] satisfies Row[])('%s: %s', async (_, edit, outcome) => {
    expect(await verdict(check('create-order-distinct-svc-order-ids'), editing(edit))).toBe(outcome);
  });

  it('fails only the second order when only its svc_order_id is empty', async () => {
    expect(
      await verdict(
        check('create-order-distinct-svc-order-ids'),
        editing((r) => void (r.svc_order_id === 'SVC-2' && (r.svc_order_id = ''))),
      ),
    ).toBe('failed');
  });
});

describe('ORDER-ORDER-ID-ECHO: order_id comes back equal as text', () => {
  it.each([
    ['as sent', () => {}, 'passed'],
    ['every id as text', (r: Json) => void (r.order_id = String(r.order_id)), 'passed'],
    [
      'a string of digits as a number (leading zeros lost)',
      (r: Json) => void (typeof r.order_id === 'string' && /^\d+$/.test(r.order_id) && (r.order_id = Number(r.order_id))),
      'failed',
    ],
    ['another id', (r: Json) => void (r.order_id = `${String(r.order_id)}-X`), 'failed'],
  ] satisfies Row[])('%s: %s', async (_, edit, outcome) => {
    expect(await verdict(check('create-order-order-id-echo'), editing(edit))).toBe(outcome);
  });
});

describe('ORDER-STATUS-UNPAID and ORDER-CREATED-AT: the new record', () => {
  it('fails a new order that is not UN_PAID', async () => {
    expect(
      await verdict(
        check('create-order-un-paid'),
        editing((r) => void (r.order_status = 'PENDING')),
      ),
    ).toBe('failed');
    expect(await verdict(check('create-order-un-paid'), orders())).toBe('passed');
  });

  it.each([
    ['21-11-2026 06:05 PM', 'passed'],
    ['21-11-2026 18:05', 'failed'],
    ['2026-11-21T18:05:00Z', 'failed'],
    ['31-02-2026 06:05 PM', 'failed'],
    [1795255200, 'failed'],
  ] as const)('created_at %j: %s', async (createdAt, outcome) => {
    expect(
      await verdict(
        check('create-order-created-at'),
        editing((r) => void (r.created_at = createdAt)),
      ),
    ).toBe(outcome);
  });
});

describe('ORDER-PAYMENT-LINK: an absolute http(s) URL', () => {
  it.each([
    ['HTTPS://PAY.EXAMPLE.TEST/c/1', 'passed'],
    ['http://pay.example.test/c/1', 'passed'],
    ['/c/1', 'failed'],
    ['http://', 'failed'],
    [42, 'failed'],
  ] as const)('%j: %s', async (link, outcome) => {
    expect(
      await verdict(
        check('create-order-payment-link'),
        editing((r) => void (r.payment_link = link)),
      ),
    ).toBe(outcome);
  });
});

describe('the sweeps: each order answered as expected, every wrong one named', () => {
  const refusing = (wrong: (body: Json) => boolean, status: Reply = 400) => orders((body) => (wrong(body) ? status : undefined));

  it('ORDER-AMOUNT-FORMS takes any 2xx for each form, and names each form refused', async () => {
    expect(
      await verdict(
        check('create-order-amount-forms'),
        orders((body) => ({ status: 299, json: { status: 'success', code: '299', return_data: { order_id: body.order_id } } })),
      ),
    ).toBe('passed');
    const strings = await judge(
      check('create-order-amount-forms'),
      refusing((body) => typeof body.order_amount === 'string'),
    );
    expect(strings.outcome).toBe('failed');
    expect(strings.failure?.message).toBe(
      'order_amount must be accepted both as a JSON number and as a decimal string (P-AMOUNT-1): expected a 2xx answer for an order_amount of "1499.50" (a decimal string with two decimals), an order_amount of "1499.5" (a decimal string), an order_amount of "500" (a whole-number string)',
    );
    expect(strings.failure?.details.exchange?.request.body).toContain('"order_amount":"1499.50"');
    for (const status of [199, 300, 'no answer'] as const)
      expect(
        await verdict(
          check('create-order-amount-forms'),
          refusing((body) => body.order_amount === '500', status),
        ),
        String(status),
      ).toBe('failed');
  });

  it('ORDER-EVERY-CURRENCY fails one currency refused', async () => {
    expect(
      await verdict(
        check('create-order-every-currency'),
        refusing((body) => body.order_currency === 'JPY'),
      ),
    ).toBe('failed');
    expect(await verdict(check('create-order-every-currency'), orders())).toBe('passed');
  });

  it('ORDER-UNICODE-NAMES fails a name outside ASCII refused', async () => {
    const ascii = (body: Json) => !/^[\x20-\x7e]*$/.test((body.customer as Json).name as string);
    expect(await verdict(check('create-order-unicode-names'), refusing(ascii))).toBe('failed');
    expect(await verdict(check('create-order-unicode-names'), orders())).toBe('passed');
  });

  it('ORDER-ADDRESS-REQUIRED wants 400 for each missing address field, not 422 or a 2xx', async () => {
    const address = (body: Json) => ((body.customer as Json).address as Json | undefined) ?? {};
    const missing = (body: Json) => ['line1', 'city', 'state', 'country', 'postal_code'].some((f) => address(body)[f] === undefined);
    expect(await verdict(check('create-order-address-required'), refusing(missing))).toBe('passed');
    expect(await verdict(check('create-order-address-required'), refusing(missing, 422))).toBe('failed');
    expect(
      await verdict(
        check('create-order-address-required'),
        refusing((body) => (body.customer as Json).address === undefined),
      ),
    ).toBe('failed');
  });

  it('ORDER-OPTIONAL-FIELDS fails a server that wants order_note, and ORDER-GENERATED-ACCEPTED one that refuses generated orders', async () => {
    expect(
      await verdict(
        check('create-order-optional-fields'),
        refusing((body) => body.order_note === undefined),
      ),
    ).toBe('failed');
    expect(await verdict(check('create-order-optional-fields'), orders())).toBe('passed');
    expect(await verdict(check('create-order-generated-accepted'), () => 400)).toBe('failed');
    expect(await verdict(check('create-order-generated-accepted'), orders())).toBe('passed');
  });
});

describe('the sweeps: what a failure shows', () => {
  const refusing = (wrong: (body: Json) => boolean, status: Reply = 400) => orders((body) => (wrong(body) ? status : undefined));

  it('ORDER-AMOUNT-FORMS passes 200 for each form', async () => {
    const ok = orders((body) => ({ status: 200, json: { status: 'success', code: '200', return_data: { order_id: body.order_id } } }));
    expect(await verdict(check('create-order-amount-forms'), ok)).toBe('passed');
  });

  it('ORDER-EVERY-CURRENCY names each currency refused with its status, and the first answer in full', async () => {
    const labels: string[] = [];
    const server = refusing((body) => body.order_currency === 'JPY' || body.order_currency === 'KRW');
    const judged = await judge(check('create-order-every-currency'), (o) => (labels.push(o.label), server(o)));
    expect(labels).toContain('create an order in JPY');
    expect(judged.failure?.message).toBe(
      'every currency of the table must be accepted (P-ORDER-4): expected a 2xx answer for an order in JPY, an order in KRW',
    );
    expect(judged.failure?.details.actual).toBe(
      'an order in JPY: 400; an order in KRW: 400 (first: HTTP 400 (application/json) {"status":false,"code":400,"message":"refused with 400"})',
    );
    expect(judged.failure?.details.exchange?.label).toBe('create an order in JPY');
  });

  it('a sweep shows an order that got no answer as "no answer"', async () => {
    const judged = await judge(
      check('create-order-every-currency'),
      refusing((body) => body.order_currency === 'JPY', 'no answer'),
    );
    expect(judged.failure?.details.actual).toBe('an order in JPY: no answer (first: connection refused)');
  });

  it('ORDER-UNICODE-NAMES and ORDER-ADDRESS-REQUIRED name the order refused or accepted', async () => {
    const names = await judge(
      check('create-order-unicode-names'),
      refusing((body) => (body.customer as Json).name === '김지훈'),
    );
    expect(names.failure?.message).toMatch(/expected a 2xx answer for an order for 김지훈$/);
    const address = await judge(check('create-order-address-required'), orders());
    expect(address.failure?.message).toBe(
      'a missing required address field must be refused (P-ORDER-1, P-ERR-4): expected HTTP 400 for an order without customer.address, ' +
        ['line1', 'city', 'state', 'country', 'postal_code'].map((f) => `an order without customer.address.${f}`).join(', '),
    );
  });

  it('ORDER-OPTIONAL-FIELDS fails a server that wants customer.address.line2', async () => {
    const line2 = (body: Json) => ((body.customer as Json).address as Json).line2 === undefined;
    expect(await verdict(check('create-order-optional-fields'), refusing(line2))).toBe('failed');
  });
});

describe('the new record: what a failure shows, and values that only look right as text', () => {
  it.each([
    ['create-order-envelope', (_: Json, e: Json) => void (e.status = 'SUCCESS'), 'status "success"'],
    ['create-order-envelope', (_: Json, e: Json) => void (e.code = '200'), 'code "201"'],
    ['create-order-un-paid', (r: Json) => void (r.order_status = 'PAID'), 'order_status "UN_PAID"'],
    ['create-order-created-at', (r: Json) => void (r.created_at = '21-11-2026 18:05'), 'e.g. "21-11-2026 06:05 PM"'],
  ] satisfies Array<[string, Edit, string]>)('%s shows %j expected', async (id, edit, expected) => {
    expect((await judge(check(id), editing(edit))).failure?.details.expected).toBe(expected);
  });

  it('fails a created_at or payment_link sent as an array of one good string', async () => {
    expect(
      await verdict(
        check('create-order-created-at'),
        editing((r) => void (r.created_at = ['21-11-2026 06:05 PM'])),
      ),
    ).toBe('failed');
    expect(
      await verdict(
        check('create-order-payment-link'),
        editing((r) => void (r.payment_link = ['https://pay.example.test/c/1'])),
      ),
    ).toBe('failed');
  });

  it('fails a payment_link of another scheme with an http URL inside', async () => {
    expect(
      await verdict(
        check('create-order-payment-link'),
        editing((r) => void (r.payment_link = 'ftp://pay.example.test/?next=https://pay.example.test/c/1')),
      ),
    ).toBe('failed');
  });
});

describe('ORDER-PAYMENT-LINK-HTTPS: only when the base URL is https', () => {
  it('is not applicable to an http base URL, even one whose path says https:', async () => {
    const judged = await judge(
      check('create-order-payment-link-https'),
      orders(),
      (c) => void (c.baseUrl = 'http://127.0.0.1:9/https://api'),
    );
    expect(judged.outcome).toMatch(/^skipped: not applicable/);
    expect(judged.skip?.options.notApplicable).toBe(true);
  });

  it('fails a payment_link that is not a URL at all under an https base URL', async () => {
    expect(
      await verdict(
        check('create-order-payment-link-https'),
        editing((r) => void (r.payment_link = '/c/1')),
        (c) => void (c.baseUrl = 'https://127.0.0.1:9'),
      ),
    ).toBe('failed');
  });
});

describe('ORDER-GENERATED-ACCEPTED: a fresh id of the kind generated', () => {
  it.each(['number', 'string'] as const)('a server refusing %s order_ids fails on a generated id of that kind', async (refused) => {
    const server = orders((body) => (typeof body.order_id === refused ? 400 : undefined));
    const judged = await judge(check('create-order-generated-accepted'), server, undefined, { runs: 20 });
    expect(judged.outcome).toBe('failed');
    expect(typeof (judged.failure?.details.counterexample as Json).order_id).toBe(refused);
  });
});
