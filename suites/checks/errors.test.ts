// The Errors checks (P-ERR-1…4) and their shared requests, each condition broken alone by a made-up
// server that refuses as the profile says but for one thing. Each check against the sandbox's faults:
// test/auth-area-faults.test.ts; a bare NaN amount and the payout checks' defects: fair-verdicts.test.ts.
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../core/operations.js';
import type { InvalidRequest } from '../../generators/index.js';
import type { SendOptions } from '../http.js';
import { errorChecks } from './errors.js';
import {
  envelopeOf,
  exchangeOf,
  judge,
  madeUpConfig,
  madeUpContext,
  verdict,
  type Reply,
  type Server,
} from './made-up-server-test-support.js';
import { CREATE_ORDER_PATH, PAYOUT_STATUS_PATH } from '../requests.js';
import { fieldCases, REQUIRED_ORDER_FIELDS, sendInvalid, statusesFor, wrongTypeFor } from './shared-errors.js';

const check = (id: string) => errorChecks.find((c) => c.id === id)!;

/** A server that refuses as the profile says: 401 for a signature altered, 404 for an unknown payout, 400 for the rest. */
const refusing: Server = (options) => {
  if (options.signature !== undefined) return 401;
  const lookup =
    options.path === PAYOUT_STATUS_PATH &&
    typeof options.payload === 'object' &&
    options.payload !== null &&
    !Array.isArray(options.payload);
  return lookup ? 404 : 400;
};
/** The refusing server, answering `reply` instead where it gives one. */
const except =
  (reply: (options: SendOptions) => Reply | undefined): Server =>
  (options) =>
    reply(options) ?? refusing(options);
const labelled = (pattern: RegExp, reply: Reply) => except((options) => (pattern.test(options.label) ? reply : undefined));

describe('ERR-ENVELOPE: a 401, 400 and 404 answer the error envelope', () => {
  it('passes the envelope, and fails a refusal whose status says "false"', async () => {
    expect(await verdict(check('err-envelope'), refusing)).toBe('passed');
    const text = { status: 400, json: { status: 'false', code: 400, message: 'refused' } };
    expect(await verdict(check('err-envelope'), labelled(/invalid JSON/, text))).toBe('failed');
  });

  it('judges every answer from 300 up, none below', async () => {
    const bare = (status: number): Reply => ({ status, json: { data: {} } });
    expect(await verdict(check('err-envelope'), labelled(/unknown payout/, bare(300)))).toBe('failed');
    expect(await verdict(check('err-envelope'), labelled(/unknown payout/, bare(299)))).toBe('passed');
  });

  it('leaves a request that got no answer to other checks', async () => {
    expect(await verdict(check('err-envelope'), labelled(/unknown payout/, 'no answer'))).toBe('passed');
  });

  it('holds a Payout Status error to its own envelope, which has no data (a Create Order error may carry it)', async () => {
    const withData = (status: number): Reply => ({ status, json: { status: false, code: status, message: 'refused', data: {} } });
    expect(await verdict(check('err-envelope'), labelled(/unknown payout/, withData(404)))).toBe('failed');
    expect(await verdict(check('err-envelope'), labelled(/without return_url/, withData(400)))).toBe('passed');
  });
});

describe('ERR-CONTENT-TYPE: errors, and the success of the SUCCESS fixture, are application/json', () => {
  const typed = (pattern: RegExp, contentType: string, status = 400) =>
    labelled(pattern, { status, json: envelopeOf(status), contentType });

  it('passes application/json with a charset, and fails text/plain or none', async () => {
    expect(await verdict(check('err-content-type'), typed(/invalid JSON/, 'application/json; charset=utf-8'))).toBe('passed');
    expect(await verdict(check('err-content-type'), typed(/invalid JSON/, 'text/plain'))).toBe('failed');
    const none = await judge(check('err-content-type'), labelled(/invalid JSON/, { status: 400, text: '{}', contentType: '' }));
    expect(none.failure?.message).toBe('Payout Status with invalid JSON (a 400): answered Content-Type none');
  });

  it('reads the SUCCESS fixture only when one is configured', async () => {
    const success = typed(/SUCCESS fixture/, 'text/html', 200);
    expect(await verdict(check('err-content-type'), success)).toBe('failed');
    expect(await verdict(check('err-content-type'), success, (c) => void delete c.fixtures!.payouts!.SUCCESS)).toBe('passed');
    expect(await verdict(check('err-content-type'), success, (c) => void delete c.fixtures!.payouts)).toBe('passed');
  });

  it("asks for the SUCCESS fixture by its payout_order_id, from the merchant's wallet", async () => {
    const config = madeUpConfig();
    const fixture = config.fixtures!.payouts!.SUCCESS!;
    const ofTheFixture = (o: SendOptions) =>
      o.path === PAYOUT_STATUS_PATH &&
      (o.payload as Record<string, unknown> | undefined)?.payout_order_id === fixture &&
      (o.payload as Record<string, unknown>).svc_wallet_id === config.merchant.walletId;
    const html = except((o) => (ofTheFixture(o) ? { status: 200, json: envelopeOf(200), contentType: 'text/html' } : undefined));
    expect(await verdict(check('err-content-type'), html)).toBe('failed');
  });

  it('says "none" when an answer has no Content-Type header at all', async () => {
    const config = madeUpConfig();
    const send = (options: SendOptions) => {
      const exchange = exchangeOf(config, options, refusing(options));
      if (/invalid JSON/.test(options.label)) delete exchange.response!.headers['content-type'];
      return Promise.resolve(exchange);
    };
    const judged = await judge(check('err-content-type'), refusing, () => {}, { send });
    expect(judged.failure?.message).toBe('Payout Status with invalid JSON (a 400): answered Content-Type none');
  });

  it('leaves a request that got no answer to other checks', async () => {
    expect(await verdict(check('err-content-type'), labelled(/invalid JSON/, 'no answer'))).toBe('passed');
  });
});

describe('ERR-CODE-MATCHES-STATUS: the code of an error says its HTTP status', () => {
  const coded = (code: unknown, status = 404) => labelled(/unknown payout/, { status, json: { status: false, code, message: 'm' } });

  it.each([
    ['404 as a number', 404, 'passed'],
    ['"404" as text', '404', 'passed'],
    ['400 on a 404', 400, 'failed'],
    ['true', true, 'failed'],
    ['[404], an array', [404], 'failed'],
    ['null', null, 'failed'],
    ['no code (ERR-ENVELOPE judges that)', undefined, 'passed'],
  ] as const)('%s: %s', async (_, code, outcome) => {
    expect(await verdict(check('err-code-matches-status'), coded(code))).toBe(outcome);
  });

  it('judges no 2xx, and no body that is not an object', async () => {
    expect(await verdict(check('err-code-matches-status'), coded(500, 200))).toBe('passed');
    expect(await verdict(check('err-code-matches-status'), labelled(/unknown payout/, { status: 404, text: 'Not Found' }))).toBe('passed');
    expect(await verdict(check('err-code-matches-status'), labelled(/unknown payout/, { status: 404, json: null }))).toBe('passed');
  });

  it('shows the code that the status wanted', async () => {
    const judged = await judge(check('err-code-matches-status'), coded(400));
    expect(judged.failure?.message).toBe('Payout Status of an unknown payout (a 404): HTTP 404 with code 400');
    expect(judged.failure?.details.expected).toBe('code 404');
  });
});

describe('ERR-NO-5XX: no malformed request answers a 5xx or nothing', () => {
  it.each([
    [499, 'passed'],
    [500, 'failed'],
    [503, 'failed'],
    ['no answer', 'failed'],
  ] as const)('a Create Order without return_url answered %s: %s', async (reply, outcome) => {
    expect(await verdict(check('err-no-5xx-create-order'), labelled(/^Create Order without return_url$/, reply))).toBe(outcome);
  });

  it('judges the generated defects too, on both operations', async () => {
    expect(
      await verdict(
        check('err-no-5xx-create-order'),
        except((o) => (o.label.startsWith('Create Order:') ? 500 : undefined)),
      ),
    ).toBe('failed');
    expect(await verdict(check('err-no-5xx-payout-status'), refusing)).toBe('passed');
    expect(await verdict(check('err-no-5xx-payout-status'), () => 500)).toBe('failed');
  });
});

describe('the refusals: 400 (or 422 where P-ERR-4 allows it) for each malformed request', () => {
  it.each(['err-empty-body', 'err-non-object', 'err-missing-field', 'err-null-field', 'err-wrong-type', 'err-invalid-json'])(
    '%s passes 400 and fails a 2xx',
    async (id) => {
      expect(await verdict(check(id), refusing)).toBe('passed');
      expect(await verdict(check(id), () => 201)).toBe('failed');
    },
  );

  it('takes 422 for an amount or currency defect only', async () => {
    const unprocessable = (field: string) => except((o) => (o.label.includes(`Create Order: ${field} `) ? 422 : undefined));
    expect(await verdict(check('err-missing-field'), unprocessable('order_amount'))).toBe('passed');
    expect(await verdict(check('err-missing-field'), unprocessable('order_currency'))).toBe('passed');
    expect(await verdict(check('err-missing-field'), unprocessable('customer.name'))).toBe('failed');
    expect(await verdict(check('err-empty-body'), () => 422)).toBe('failed');
  });

  it.each(['err-bad-amount', 'err-unknown-currency'])('%s passes 400 and 422, and fails a 2xx', async (id) => {
    expect(await verdict(check(id), () => 400)).toBe('passed');
    expect(await verdict(check(id), () => 422)).toBe('passed');
    expect(await verdict(check(id), () => 201)).toBe('failed');
  });

  it.each([
    'err-missing-field-property',
    'err-null-field-property',
    'err-wrong-type-property',
    'err-bad-amount-property',
    'err-unknown-currency-property',
  ])('%s passes 400 and fails a 2xx', async (id) => {
    expect(await verdict(check(id), () => 400)).toBe('passed');
    expect(await verdict(check(id), () => 201)).toBe('failed');
  });
});

describe('the malformed requests', () => {
  const ctx = () => madeUpContext(madeUpConfig(), () => 400);

  it('allows 422 beside 400 for order_amount and order_currency alone', () => {
    expect(REQUIRED_ORDER_FIELDS.filter((f) => statusesFor(f).includes(422))).toEqual(['order_amount', 'order_currency']);
    expect(statusesFor('customer.name')).toEqual([400]);
  });

  it('gives each required field a value of another JSON type', () => {
    const order = { customer: { address: { city: 'Kochi' } } };
    expect(wrongTypeFor('order_id', 'A-1')).toBe(true);
    expect(wrongTypeFor('order_amount', 1)).toBe(true);
    expect(wrongTypeFor('order_currency', 'INR')).toBe(356);
    expect(wrongTypeFor('customer', order.customer)).toBe(JSON.stringify(order.customer));
    expect(wrongTypeFor('customer.address', order.customer.address)).toBe('{"city":"Kochi"}');
    expect(wrongTypeFor('customer.name', 'Meera')).toBe(12345);
  });

  it('describes each field case with the value it puts there, or none when it removes or nulls it', () => {
    const descriptions = (make: (path: string, current: unknown) => unknown) => fieldCases(ctx(), 'is odd', make).map((c) => c.description);
    expect(descriptions(() => undefined)[0]).toBe('order_id is odd');
    expect(descriptions(() => null)[1]).toBe('order_amount is odd');
    expect(descriptions(() => 7)[2]).toBe('order_currency is odd (7)');
    expect(fieldCases(ctx(), 'is odd', () => 7).map((c) => c.expected)).toEqual(REQUIRED_ORDER_FIELDS.map(statusesFor));
  });

  it('gives each malformed Create Order a fresh order_id, unless order_id is its defect', async () => {
    const sent: SendOptions[] = [];
    const context = { ...ctx(), send: (options: SendOptions) => (sent.push(options), ctx().send(options)) };
    const invalid = (field: string, value: unknown): InvalidRequest =>
      ({ description: 'd', field, body: { kind: 'json', value }, expectedStatuses: [400] }) as unknown as InvalidRequest;
    await sendInvalid(context, CREATE_ORDER_PATH, invalid('customer.name', { order_id: 'SAME' }));
    await sendInvalid(context, CREATE_ORDER_PATH, invalid('order_id', { order_id: 'SAME' }));
    await sendInvalid(context, CREATE_ORDER_PATH, invalid('customer.name', { note: 'no id' }));
    await sendInvalid(context, CREATE_ORDER_PATH, invalid('customer.name', ['SAME']));
    await sendInvalid(context, OPERATIONS.payoutStatus.path, invalid('svc_wallet_id', { order_id: 'SAME' }));
    await sendInvalid(context, CREATE_ORDER_PATH, { ...invalid('x', null), body: { kind: 'text', text: '{"a":' } });
    expect(sent.map((o) => (o.raw !== undefined ? `raw ${o.raw}` : JSON.stringify(o.payload)))).toEqual([
      expect.stringMatching(/^\{"order_id":"ERR-.+"\}$/),
      '{"order_id":"SAME"}',
      '{"note":"no id"}',
      '["SAME"]',
      '{"order_id":"SAME"}',
      'raw {"a":',
    ]);
    expect(sent.map((o) => o.label)).toEqual([
      'Create Order: d',
      'Create Order: d',
      'Create Order: d',
      'Create Order: d',
      'Payout Status: d',
      'Create Order: d',
    ]);
  });
});

describe('each malformed request is sent: a server lenient to that one alone fails its check', () => {
  const parsed = (text: string | undefined): Record<string, unknown> | undefined => {
    try {
      const value: unknown = JSON.parse(text ?? '');
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  /** Creates an order from the body as `read` reads it, when that is an order; refuses the rest as the profile says. */
  const lenient = (read: (options: SendOptions) => Record<string, unknown> | undefined) =>
    except((o) => (o.path === CREATE_ORDER_PATH && read(o)?.order_amount !== undefined ? 201 : undefined));
  const failure = async (id: string, server: Server) => (await judge(check(id), server)).failure?.message;

  it.each([
    ['a trailing comma', (o: SendOptions) => parsed(o.raw?.replace(/,}$/, '}'))],
    ['single quotes', (o: SendOptions) => (o.raw?.includes('"') === false ? parsed(o.raw.replaceAll("'", '"')) : undefined)],
    // Python's json reads a bare NaN as a number.
    [
      'a bare NaN amount',
      (o: SendOptions) => (/"order_amount":NaN[,}]/.test(o.raw ?? '') ? parsed(o.raw!.replace(':NaN', ':0')) : undefined),
    ],
  ])('ERR-INVALID-JSON: a parser that takes %s fails', async (how, read) => {
    expect(await failure('err-invalid-json', lenient(read))).toBe(
      `Create Order with invalid JSON (${how}): expected HTTP ${how.includes('NaN') ? '400 or 422' : '400'}, got 201`,
    );
  });

  it('ERR-EMPTY-BODY: a server that takes an empty body as an empty query fails', async () => {
    expect(
      await failure(
        'err-empty-body',
        except((o) => (o.raw === '' ? 200 : undefined)),
      ),
    ).toBe('Create Order with an empty body: expected HTTP 400, got 200');
  });

  const order = (value: unknown) => (Array.isArray(value) ? parsed(JSON.stringify(value[0])) : parsed(JSON.stringify(value)));
  it.each([
    ['an array holding the order', (o: SendOptions) => Array.isArray(o.payload) && order(o.payload) !== undefined],
    ['an empty array', (o: SendOptions) => Array.isArray(o.payload) && o.payload.length === 0],
    // A framework that decodes a JSON string body a second time.
    [
      'a string holding the encoded order',
      (o: SendOptions) => typeof o.payload === 'string' && parsed(o.payload)?.order_amount !== undefined,
    ],
    ['the number 1', (o: SendOptions) => o.payload === 1],
    ['true', (o: SendOptions) => o.payload === true],
    ['null', (o: SendOptions) => o.payload === null],
  ])('ERR-NON-OBJECT: a Create Order server that takes a body that is %s fails', async (what, takes) => {
    const server = except((o) => (o.path === CREATE_ORDER_PATH && o.raw === undefined && takes(o) ? 201 : undefined));
    expect(await failure('err-non-object', server)).toBe(`Create Order whose body is ${what}: expected HTTP 400, got 201`);
  });

  it('ERR-NON-OBJECT: a Payout Status server that reads the request out of an array fails', async () => {
    const firstOf = (o: SendOptions) => Array.isArray(o.payload) && order(o.payload)?.payout_order_id !== undefined;
    const server = except((o) => (o.path === PAYOUT_STATUS_PATH && firstOf(o) ? 404 : undefined));
    expect(await failure('err-non-object', server)).toBe(
      'Payout Status whose body is an array holding the request: expected HTTP 400, got 404',
    );
  });

  it.each([
    ['err-bad-amount', 'order_amount', ['abc', '', 'NaN', 'Infinity', 0, -1, -0.01]],
    ['err-unknown-currency', 'order_currency', ['inr', 'RUB', 'XYZ']],
  ] as const)('%s: a server that takes an %s of each value in turn fails', async (id, field, values) => {
    for (const value of values) {
      const server = lenient((o) => (parsed(JSON.stringify(o.payload))?.[field] === value ? parsed(JSON.stringify(o.payload)) : undefined));
      expect(await failure(id, server)).toBe(
        `a Create Order whose ${field} is ${JSON.stringify(value)}: expected HTTP 400 or 422, got 201`,
      );
    }
  });

  it('ERR-NULL-FIELD: a server that takes a null customer name (though not a missing one) fails', async () => {
    const server = lenient((o) => {
      const body = parsed(JSON.stringify(o.payload));
      return (body?.customer as Record<string, unknown> | undefined)?.name === null ? body : undefined;
    });
    expect(await failure('err-null-field', server)).toBe('a Create Order whose customer.name is null: expected HTTP 400, got 201');
  });

  it("ERR-NO-5XX: a Payout Status server that fails only on the merchant's own wallet fails", async () => {
    const walletId = madeUpConfig().merchant.walletId;
    const own = except((o) => ((o.payload as Record<string, unknown> | undefined)?.svc_wallet_id === walletId ? 500 : undefined));
    expect(await verdict(check('err-no-5xx-payout-status'), own)).toBe('failed');
  });

  it("ERR-NO-5XX: the generated Create Orders carry this run's string order_ids, in broken text too", async () => {
    const bodies: string[] = [];
    const server = except(
      (o) => void (o.label.startsWith('Create Order:') && !o.label.includes('order_id') && bodies.push(o.raw ?? JSON.stringify(o.payload))),
    );
    expect(await verdict(check('err-no-5xx-create-order'), server)).toBe('passed');
    const ids = bodies.flatMap((body) => [...body.matchAll(/"order_id":([^,}]*)/g)].map((m) => m[1]));
    expect(bodies.filter((body) => parsed(body) === undefined && body.includes('"order_id":'))).not.toEqual([]);
    expect(ids.filter((id) => !/^"ERR-/.test(id!))).toEqual([]);
  });
});
