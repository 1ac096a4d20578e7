// The sandbox's memory is bounded (documented in docs/sandbox.md): at most maxRecords orders and as many
// payouts; past that the oldest is forgotten, and lookups stay constant-time.
import { describe, expect, it } from 'vitest';
import { createdOrder, orderBody, orderSandbox } from './operations/order-test-support.js';
import { BoundedMap, key } from './store.js';
import { MERCHANT_A, PAYOUT_FIXTURES } from './tenants.js';

describe('BoundedMap', () => {
  it('forgets the oldest unpinned entry past its limit and tells an index so', () => {
    const forgotten: string[] = [];
    const map = new BoundedMap<string, string>(3, { onForget: (v) => forgotten.push(v) });
    map.pin('fixture', 'F');
    map.set('a', 'A').set('b', 'B');
    map.set('a', 'A2'); // an update is not an addition
    expect(forgotten).toEqual(['A']);
    map.set('c', 'C');
    expect([...map.keys()]).toEqual(['fixture', 'b', 'c']);
    expect(forgotten).toEqual(['A', 'A2']);
    map.set('d', 'D');
    expect([...map.keys()]).toEqual(['fixture', 'c', 'd']);
    expect(map.size).toBe(3);
  });
});

describe('a sandbox past its record bound', () => {
  it('keeps the newest orders, forgets the oldest, and finds every kept checkout page by id', async () => {
    const s = orderSandbox({ maxRecords: 3 });
    const ids: string[] = [];
    for (let n = 1; n <= 5; n++) ids.push(await createdOrder(s, orderBody(`BOUND-${n}`)));
    expect(s.app.store.orders.size).toBe(3);
    expect((await s.status('BOUND-1')).status).toBe(404);
    expect((await s.status('BOUND-2')).status).toBe(404);
    expect((await s.status('BOUND-5')).status).toBe(200);
    expect((await s.page(ids[0]!)).status).toBe(404);
    expect((await s.page(ids[4]!)).status).toBe(200);
    // A forgotten order's id stays used (P-DUP-5: identifiers are permanent, however many records came after).
    expect((await s.create(orderBody('BOUND-1'))).status).toBe(409);
  });

  it('never forgets the seeded payout fixtures', () => {
    const s = orderSandbox({ maxRecords: 1 });
    const payouts = s.app.store.payouts;
    for (let n = 0; n < 5; n++)
      payouts.set(`extra-${n}`, { ...s.app.store.payout(MERCHANT_A.id, PAYOUT_FIXTURES[0]!.payoutOrderId)!, payoutOrderId: `X-${n}` });
    for (const fixture of PAYOUT_FIXTURES) expect(s.app.store.payout(fixture.merchantId, fixture.payoutOrderId)).toBeDefined();
  });

  it('holds 10,000 orders by default, whatever is created', async () => {
    const s = orderSandbox();
    // The first and the last 50 are created through the API; the 9,999 between are put in the store
    // as copies of the first (10,050 requests took 8 s of a test run and proved no more).
    await s.create(orderBody('MANY-0'));
    const first = s.app.store.order(MERCHANT_A.id, 'MANY-0')!;
    for (let n = 1; n < 10_000; n++)
      s.app.store.orders.set(key(MERCHANT_A.id, `MANY-${n}`), { ...first, orderId: `MANY-${n}`, svcOrderId: s.app.store.nextId('SVC') });
    for (let n = 10_000; n < 10_050; n++) expect((await s.create(orderBody(`MANY-${n}`))).status).toBeLessThan(300);
    expect(s.app.store.orders.size).toBe(10_000);
    expect((await s.status('MANY-49')).status).toBe(404);
    expect((await s.status('MANY-50')).status).toBe(200);
  }, 60_000);
});
