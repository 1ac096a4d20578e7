// The Edges checks (P-AMOUNT-4, P-DUP-5, P-ERR-3), each condition broken alone by a made-up server
// that keeps orders and payouts as the interface says but for one thing. The checks against the
// sandbox's variants and faults: edges.test.ts.
import { describe, expect, it } from 'vitest';
import { minorUnitOf } from '../../schemas/amounts.js';
import type { TargetConfig } from '../config.js';
import type { SendOptions } from '../http.js';
import { edgeChecks, longPayoutIdChecks } from './edges.js';
import { judge, madeUpConfig, type Reply } from './made-up-server-test-support.js';
import { CREATE_ORDER_PATH, PAYOUT_STATUS_PATH } from '../requests.js';

type Json = Record<string, unknown>;
const check = (id: string) => [...edgeChecks, ...longPayoutIdChecks].find((c) => c.id === id)!;
const ops = madeUpConfig().profile!.operations!;
const ok = (data: Json, status = 200): Reply => ({ status, json: { status: true, code: status, message: 'ok', data } });

/**
 * A server that keeps what it is sent: orders (created 201 with their record, read back by Order
 * Status with the amount as text), payouts (refused 400 when zero), its wallet in `currency`. `instead`
 * answers a request in its place when it gives something.
 */
function keeper(
  instead: (o: SendOptions, body: Json) => Reply | undefined = () => undefined,
  currency = 'INR',
  readBack: (record: Json) => void = () => {},
) {
  const orders = new Map<string, Json>();
  const payouts = new Map<string, Json>();
  const sent: SendOptions[] = [];
  const server = (o: SendOptions): Reply => {
    sent.push(o);
    const body = (o.payload ?? {}) as Json;
    const own = instead(o, body);
    if (own !== undefined) return own;
    if (o.path === CREATE_ORDER_PATH) {
      if (Number(body.order_amount) <= 0) return 400;
      orders.set(String(body.order_id), body);
      return {
        status: 201,
        json: { status: 'success', code: '201', message: 'ok', return_data: { order_id: body.order_id, svc_order_id: 'S' } },
      };
    }
    if (o.path === ops.orderStatus!.path) {
      const order = orders.get(String(body.order_id));
      if (order === undefined) return 404;
      const record = { order_id: order.order_id, order_amount: String(order.order_amount), order_currency: order.order_currency };
      readBack(record);
      return ok(record);
    }
    if (o.path === ops.balanceInquiry!.path) return ok({ balance: '5000.00', currency });
    if (o.path === ops.transactionInitiation!.path) {
      if (Number(body.amount) <= 0) return 400;
      payouts.set(String(body.payout_order_id), body);
      return ok({ payout_order_id: body.payout_order_id, status: 'PROCESSING' });
    }
    const payout = payouts.get(String(body.payout_order_id));
    return payout === undefined ? 404 : ok({ payout_order_id: payout.payout_order_id, status: 'SUCCESS' });
  };
  return { server, sent };
}

async function outcome(id: string, k = keeper(), edit?: (c: TargetConfig) => void) {
  const judged = await judge(check(id), k.server, edit);
  return judged.outcome === 'failed' ? `failed: ${judged.failure?.message}` : judged.outcome;
}
const without =
  (...keys: Array<'orderStatus' | 'transactionInitiation' | 'balanceInquiry'>) =>
  (c: TargetConfig) => {
    for (const key of keys) c.profile!.operations![key] = null;
  };
const isCreate = (o: SendOptions) => o.path === CREATE_ORDER_PATH;
const isInitiation = (o: SendOptions) => o.path === ops.transactionInitiation!.path;

describe('AMOUNT-ZERO-REFUSED: every zero refused on Create Order and Transaction Initiation', () => {
  it('passes a server that refuses them, and sends the payouts in the wallet currency, or INR without Balance Inquiry', async () => {
    const k = keeper(undefined, 'EUR');
    expect(await outcome('edges-amount-zero', k)).toBe('passed');
    expect(new Set(k.sent.filter(isInitiation).map((o) => (o.payload as Json).currency))).toEqual(new Set(['EUR']));
    const inr = keeper(undefined, 'EUR');
    expect(await outcome('edges-amount-zero', inr, without('balanceInquiry'))).toBe('passed');
    expect(new Set(inr.sent.filter(isInitiation).map((o) => (o.payload as Json).currency))).toEqual(new Set(['INR']));
  });

  it('fails a zero payout accepted, and sends none without Transaction Initiation', async () => {
    const lenient = keeper((o) => (isInitiation(o) ? ok({ status: 'PROCESSING' }) : undefined));
    expect(await outcome('edges-amount-zero', lenient)).toMatch(/^failed: a payout amount .* is zero and must be refused/);
    const none = keeper();
    expect(await outcome('edges-amount-zero', none, without('transactionInitiation'))).toBe('passed');
    expect(none.sent.filter(isInitiation)).toEqual([]);
  });

  it('takes 422 as well as 400', async () => {
    expect(
      await outcome(
        'edges-amount-zero',
        keeper((o, b) => (isCreate(o) && Number(b.order_amount) === 0 ? 422 : undefined)),
      ),
    ).toBe('passed');
  });
});

describe('AMOUNT-KEPT-EXACTLY: each exact amount read back equal, in its currency', () => {
  const readBack = (edit: (data: Json) => void) =>
    keeper((o, b) => {
      if (o.path !== ops.orderStatus!.path) return undefined;
      const data = { order_id: b.order_id, order_amount: '1', order_currency: 'INR' };
      edit(data);
      return ok(data);
    });

  it('passes amounts kept, and fails one read back as another', async () => {
    expect(await outcome('edges-amount-kept-exactly')).toBe('passed');
    expect(
      await outcome(
        'edges-amount-kept-exactly',
        readBack(() => {}),
      ),
    ).toMatch(/^failed: .*: Order Status answers "1" "INR", not the amount sent/);
  });

  it('does not judge a currency refused, and is skipped naming the minor units none of whose orders was judged', async () => {
    const refusing = (digits: number[]) =>
      keeper((o, b) => (isCreate(o) && digits.includes(minorUnitOf(b.order_currency as 'INR')) ? 422 : undefined));
    expect(await outcome('edges-amount-kept-exactly', refusing([3]))).toBe(
      'skipped: not judged for 3-decimal currencies: every order in them was refused (see ORDER-EVERY-CURRENCY)',
    );
    expect(await outcome('edges-amount-kept-exactly', refusing([0, 2, 3]))).toMatch(
      /^skipped: not judged for 0-decimal and 2-decimal and 3-decimal currencies/,
    );
    expect(
      await outcome(
        'edges-amount-kept-exactly',
        keeper((o) => (isCreate(o) ? 500 : undefined)),
      ),
    ).toMatch(/^skipped/);
  });

  it('fails an amount read back right in another currency', async () => {
    const swapped = keeper(undefined, 'INR', (record) => void (record.order_currency = record.order_currency === 'INR' ? 'USD' : 'INR'));
    expect(await outcome('edges-amount-kept-exactly', swapped)).toMatch(
      /^failed: .*: Order Status answers "\d+(\.\d+)?" "(USD|INR)", not the amount sent/,
    );
  });
});

describe('AMOUNT-LARGE: created and kept, or refused 400 or 422, never 5xx or nothing', () => {
  it('passes amounts kept or refused, fails a 5xx, and is inconclusive on no answer', async () => {
    expect(await outcome('edges-amount-large')).toBe('passed');
    expect(
      await outcome(
        'edges-amount-large',
        keeper((o) => (isCreate(o) ? 422 : undefined)),
      ),
    ).toBe('passed');
    expect(
      await outcome(
        'edges-amount-large',
        keeper((o) => (isCreate(o) ? 500 : undefined)),
      ),
    ).toMatch(/^failed: Create Order of .* must be created or refused with 400 or 422/);
    await expect(judge(check('edges-amount-large'), keeper((o) => (isCreate(o) ? 'no answer' : undefined)).server)).rejects.toThrow(
      /^not judged: Create Order of .* got no answer/,
    );
  });

  it('without Order Status: partly judged when one was accepted, judged when every one was refused', async () => {
    expect(await outcome('edges-amount-large', keeper(), without('orderStatus'))).toMatch(
      /^skipped: partly judged: no large amount was answered 5xx/,
    );
    expect(
      await outcome(
        'edges-amount-large',
        keeper((o) => (isCreate(o) ? 400 : undefined)),
        without('orderStatus'),
      ),
    ).toBe('passed');
  });
});

describe('DUP-EXACT-IDS: case, trailing-space and leading-zero variants distinct; long ids refused or kept whole', () => {
  const ids = (k: ReturnType<typeof keeper>) => k.sent.filter(isCreate).map((o) => (o.payload as Json).order_id);

  it('passes a server that keeps ids exactly, sending each pair and each long id', async () => {
    const k = keeper();
    expect(await outcome('edges-exact-ids', k)).toBe('passed');
    const sent = ids(k);
    expect(sent.filter((id) => typeof id === 'string' && id.length > 64).map((id) => (id as string).length)).toEqual([65, 256, 1025]);
    expect(sent.some((id) => typeof id === 'string' && id.endsWith(' '))).toBe(true);
    expect(sent.some((id) => typeof id === 'number')).toBe(true);
    expect(sent.some((id) => typeof id === 'string' && /^000\d+$/.test(id))).toBe(true);
  });

  it('takes 400 for the trailing-space variant alone', async () => {
    expect(
      await outcome(
        'edges-exact-ids',
        keeper((o, b) => (isCreate(o) && String(b.order_id).endsWith(' ') ? 400 : undefined)),
      ),
    ).toBe('passed');
    expect(
      await outcome(
        'edges-exact-ids',
        keeper((o, b) => (isCreate(o) && /^abc-/.test(String(b.order_id)) ? 400 : undefined)),
      ),
    ).toMatch(/^failed: .*answered HTTP 400: expected a new order/);
  });

  it('fails the second of a pair answered 409, or echoed as another id', async () => {
    const seen = new Set<string>();
    const caseless = keeper((o, b) => {
      if (!isCreate(o)) return undefined;
      const key = String(b.order_id).toLowerCase();
      if (seen.has(key)) return 409;
      seen.add(key);
      return undefined;
    });
    expect(await outcome('edges-exact-ids', caseless)).toMatch(/answered HTTP 409: the two ids were taken for one/);
    const trimmed = keeper((o, b) =>
      isCreate(o)
        ? { status: 201, json: { status: 'success', code: '201', return_data: { order_id: String(b.order_id).trim() } } }
        : undefined,
    );
    expect(await outcome('edges-exact-ids', trimmed)).toMatch(/came back as order_id .*: not exactly the id sent/);
  });

  it('takes a long id refused 400, fails one answered 500, cut in its echo, or cut when read back', async () => {
    const long = (b: Json) => String(b.order_id).length > 64;
    expect(
      await outcome(
        'edges-exact-ids',
        keeper((o, b) => (isCreate(o) && long(b) ? 400 : undefined)),
      ),
    ).toBe('passed');
    expect(
      await outcome(
        'edges-exact-ids',
        keeper((o, b) => (isCreate(o) && long(b) ? 500 : undefined)),
      ),
    ).toMatch(/an order_id of 65 characters answered HTTP 500: expected the order, or 400/);
    const echoCut = keeper((o, b) =>
      isCreate(o) && long(b)
        ? { status: 201, json: { status: 'success', code: '201', return_data: { order_id: String(b.order_id).slice(0, 64) } } }
        : undefined,
    );
    expect(await outcome('edges-exact-ids', echoCut)).toMatch(/an order_id of 65 characters came back as 64 characters/);
    const readCut = keeper((o, b) =>
      o.path === ops.orderStatus!.path && long(b) ? ok({ order_id: String(b.order_id).slice(0, 64) }) : undefined,
    );
    expect(await outcome('edges-exact-ids', readCut)).toMatch(/Order Status of the order_id of 65 characters answers order_id/);
    expect(await outcome('edges-exact-ids', readCut, without('orderStatus'))).toBe('passed');
  });

  it('judges the other parts when one cannot be (its first order refused)', async () => {
    const firstRefused = keeper((o, b) => (isCreate(o) && /^AbC-/.test(String(b.order_id)) ? 400 : undefined));
    expect(await outcome('edges-exact-ids', firstRefused)).toBe('passed');
    const all = keeper((o) => (isCreate(o) ? 503 : undefined));
    expect(await outcome('edges-exact-ids', all)).toMatch(/^failed: an order_id of 65 characters answered HTTP 503/);
  });
});

describe('DUP-EXACT-IDS, payout_order_ids of 65, 256 and 1025 characters: refused 400, or kept whole', () => {
  const long = (b: Json) => String(b.payout_order_id).length > 64;

  it('passes payouts kept whole or refused 400', async () => {
    expect(await outcome('edges-long-payout-ids')).toBe('passed');
    expect(
      await outcome(
        'edges-long-payout-ids',
        keeper((o) => (isInitiation(o) ? 400 : undefined)),
      ),
    ).toBe('passed');
  });

  it('fails 409 (taken for another of this run: cut), an echo cut, or a record read back cut', async () => {
    expect(
      await outcome(
        'edges-long-payout-ids',
        keeper((o) => (isInitiation(o) ? 409 : undefined)),
      ),
    ).toMatch(/answered 409: the id was taken for another of this run's/);
    const echo = keeper((o, b) =>
      isInitiation(o) && long(b) ? ok({ payout_order_id: String(b.payout_order_id).slice(0, 64) }) : undefined,
    );
    expect(await outcome('edges-long-payout-ids', echo)).toMatch(/echoed payout_order_id of 64 characters/);
    const noEcho = keeper((o, b) =>
      isInitiation(o)
        ? ok({ status: 'PROCESSING' })
        : o.path === PAYOUT_STATUS_PATH
          ? ok({ payout_order_id: b.payout_order_id })
          : undefined,
    );
    expect(await outcome('edges-long-payout-ids', noEcho)).toBe('passed');
    const read = keeper((o, b) =>
      !isInitiation(o) && o.path === PAYOUT_STATUS_PATH && long(b)
        ? ok({ payout_order_id: String(b.payout_order_id).slice(0, 255) })
        : undefined,
    );
    expect(await outcome('edges-long-payout-ids', read)).toMatch(/answers payout_order_id of 255 characters, not the id whole/);
  });

  it('does not judge an id refused for something else, and is skipped when no id could be judged', async () => {
    const once = { n: 0 };
    const firstRefused = keeper((o) => (isInitiation(o) && once.n++ === 0 ? 422 : undefined));
    expect(await outcome('edges-long-payout-ids', firstRefused)).toBe('passed');
    expect(
      await outcome(
        'edges-long-payout-ids',
        keeper((o) => (isInitiation(o) ? 422 : undefined)),
      ),
    ).toMatch(
      /^skipped: not judged: Transaction Initiation with a payout_order_id of 65 characters was refused \(HTTP 422\) for something other than its id; .*1025 characters was refused/,
    );
    expect(
      await outcome(
        'edges-long-payout-ids',
        keeper((o) => (isInitiation(o) ? 'no answer' : undefined)),
      ),
    ).toMatch(/was refused \(no answer\)/);
  });
});

describe('ERR-NO-5XX over the text edges: any answer but a 5xx', () => {
  it('passes 4xx refusals, fails a 500, and does not judge no answer', async () => {
    expect(
      await outcome(
        'edges-texts-no-5xx',
        keeper((o) => (isCreate(o) ? 499 : undefined)),
      ),
    ).toBe('passed');
    expect(
      await outcome(
        'edges-texts-no-5xx',
        keeper((o, b) => (isCreate(o) && (b.order_note as string).includes('\u2028') ? 500 : undefined)),
      ),
    ).toMatch(/^failed: Create Order with order_note = U\+2028 .* answered HTTP 500/);
    await expect(judge(check('edges-texts-no-5xx'), keeper((o) => (isCreate(o) ? 'no answer' : undefined)).server)).rejects.toThrow(
      /^not judged: Create Order with customer\.name = .* got no answer/,
    );
  });

  it('puts each text in the name, the note and the first address line', async () => {
    const k = keeper();
    await judge(check('edges-texts-no-5xx'), k.server);
    const bodies = k.sent
      .filter(isCreate)
      .map((o) => o.payload as { order_note: string; customer: { name: string; address: { line1: string } } });
    const bidi = (text: string) => text.includes('\u202E');
    expect([
      bodies.filter((b) => bidi(b.customer.name)).length,
      bodies.filter((b) => bidi(b.order_note)).length,
      bodies.filter((b) => bidi(b.customer.address.line1)).length,
    ]).toEqual([1, 1, 1]);
  });
});
