// DUP-EXACT-IDS's conditions, each broken alone by a made-up server that keeps every order and payout
// whole but for one answer. The sandbox's id faults: edges.test.ts.
import { describe, expect, it } from 'vitest';
import type { SendOptions } from '../http.js';
import { CREATE_ORDER_PATH } from '../requests.js';
import { edgeChecks, longPayoutIdChecks } from './edges.js';
import { judge, type Reply, type Server } from './made-up-server-test-support.js';

type Json = Record<string, unknown>;
const exactIds = edgeChecks.find((c) => c.id === 'edges-exact-ids')!;
const longPayoutIds = longPayoutIdChecks[0]!;
const ok = (data: Json): Reply => ({ status: 200, json: { status: true, code: 200, message: 'ok', data } });

/** Keeps every order and payout whole; `reply` answers a request instead where it gives an answer. */
const keeping =
  (reply: (o: SendOptions, body: Json) => Reply | undefined = () => undefined): Server =>
  (o) => {
    const body = (o.payload ?? {}) as Json;
    const own = reply(o, body);
    if (own !== undefined) return own;
    if (o.path === CREATE_ORDER_PATH)
      return {
        status: 201,
        json: { status: 'success', code: '201', message: 'created', return_data: { order_id: body.order_id, svc_order_id: 'S' } },
      };
    if (/balance/i.test(o.label) || o.label === "the wallet's currency") return ok({ wallet_id: 'W', balance: '100.00', currency: 'INR' });
    return ok({ order_id: body.order_id, payout_order_id: body.payout_order_id, status: 'SUCCESS' });
  };
/** The create of an order_id that `which` picks answers `reply`. */
const creating = (which: (id: unknown) => boolean, reply: Reply) =>
  keeping((o, body) => (o.path === CREATE_ORDER_PATH && which(body.order_id) ? reply : undefined));
const startsWith = (prefix: string) => (id: unknown) => typeof id === 'string' && id.startsWith(prefix);
const bare = (json: unknown): Reply => ({ status: 201, json });
const text: Reply = { status: 201, text: 'created', contentType: 'text/plain' };

describe('DUP-EXACT-IDS', () => {
  it('passes a server that keeps every id whole, each named for its edge in upper case', async () => {
    const sent: unknown[] = [];
    const server = keeping();
    const judged = await judge(exactIds, (o) => (o.path === CREATE_ORDER_PATH && sent.push((o.payload as Json).order_id), server(o)));
    expect(judged.outcome).toBe('passed');
    expect(sent.filter((id) => typeof id === 'string' && !/^(AbC-CASE-|abc-case-|TRAILING-SPACE-|LONG-|000\d)/.test(id))).toEqual([]);
  });

  it('says what it expected of the second id of a pair taken for the first', async () => {
    const caseTaken = await judge(exactIds, creating(startsWith('abc-'), 409));
    expect(caseTaken.failure?.details.expected).toBe('a new order');
    const spaceTaken = await judge(
      exactIds,
      creating((id) => typeof id === 'string' && id.endsWith('-TS '), 409),
    );
    expect(spaceTaken.failure?.details.expected).toBe('a new order, or 400 for an id the server will not take');
  });

  it('fails a second id left unanswered, even where a 400 would do', async () => {
    const judged = await judge(
      exactIds,
      creating((id) => typeof id === 'string' && id.endsWith('-TS '), 'no answer'),
    );
    expect(judged.failure?.message).toMatch(/answered nothing: expected a new order/);
  });

  it.each([
    ['a record without return_data', bare({ status: 'success', code: '201', message: 'created' })],
    ['a body that is not JSON', text],
  ])('fails a second id created with %s: its order_id did not come back', async (_, reply) => {
    const judged = await judge(exactIds, creating(startsWith('abc-'), reply));
    expect(judged.failure?.message).toMatch(/came back as order_id undefined: not exactly the id sent/);
    expect(judged.failure?.details.expected).toMatch(/^order_id "abc-case-/);
  });

  it('fails "000123" refused 400 after 123: leading zeros make another id, which the server must take', async () => {
    const judged = await judge(exactIds, creating(startsWith('000'), 400));
    expect(judged.failure?.message).toMatch(/with leading zeros\) answered HTTP 400: expected a new order/);
  });

  it.each<[string, Reply, RegExp]>([
    ['no answer', 'no answer', /answered nothing: expected the order, or 400/],
    ['a record without return_data', bare({ status: 'success', code: '201', message: 'created' }), /came back as 9 characters/],
    ['a body that is not JSON', text, /came back as 9 characters/],
  ])('fails a long order_id answered %s', async (_, reply, message) => {
    expect((await judge(exactIds, creating(startsWith('LONG-'), reply))).failure?.message).toMatch(message);
  });
});

describe('DUP-EXACT-IDS on payout_order_ids', () => {
  it.each([
    ['a record without data', bare({ status: true, code: 201, message: 'ok' })],
    ['a body that is not JSON', text],
  ])('reads back a payout initiated with %s, which echoes nothing to judge', async (_, reply) => {
    const server = keeping((o) => (/^Transaction Initiation/.test(o.label) ? reply : undefined));
    expect((await judge(longPayoutIds, server)).outcome).toBe('passed');
  });
});
