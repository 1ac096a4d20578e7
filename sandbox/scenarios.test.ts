import { describe, expect, it } from 'vitest';
import { OPERATION_PATHS, startSandbox } from './index.js';
import { orderBody } from './operations/order-test-support.js';
import { initiationBody, minorOf } from './operations/payout-test-support.js';
import type { RecordedExchange, SandboxOptions } from './options.js';
import { SCENARIOS, SCENARIO_NAMES, parseScenarios, type ScenarioName } from './scenarios.js';
import { MERCHANT_A } from './tenants.js';
import { call, sandboxAt, signedRequest, type Answer } from './test-support.js';

/**
 * A sandbox on a still clock with the scenarios armed and one function per operation. Replays are
 * allowed: a retry of the same body in the same second is what these tests are about, not P-AUTH-4.
 */
function scenarioSandbox(scenarios: ScenarioName[], options: SandboxOptions = {}) {
  const { app } = sandboxAt({ ...options, scenarios, variant: { replay: 'allow' } });
  const balance = async () =>
    minorOf((await call(app, { path: OPERATION_PATHS.balanceInquiry, payload: { svc_wallet_id: MERCHANT_A.walletId } })).json.data.balance);
  return {
    app,
    create: (orderId: string): Promise<Answer> => call(app, { path: OPERATION_PATHS.createOrder, payload: orderBody(orderId) }),
    orderStatus: (orderId: string): Promise<Answer> => call(app, { path: OPERATION_PATHS.orderStatus, payload: { order_id: orderId } }),
    initiate: (payoutOrderId: string, amount = 100): Promise<Answer> =>
      call(app, { path: OPERATION_PATHS.transactionInitiation, payload: initiationBody(payoutOrderId, { amount }) }),
    payoutStatus: (payoutOrderId: string): Promise<Answer> =>
      call(app, {
        path: OPERATION_PATHS.payoutStatus,
        payload: { svc_wallet_id: MERCHANT_A.walletId, debit_account_type: 'svc_wallet', payout_order_id: payoutOrderId },
      }),
    balance,
  };
}

describe('the scenario catalog', () => {
  it('names, for every scenario, the P-CLIENT rules a client is judged by and what it should do', () => {
    for (const name of SCENARIO_NAMES) {
      expect(SCENARIOS[name].rules[0], name).toMatch(/^P-CLIENT-\d+$/);
      expect(SCENARIOS[name].recovery, name).not.toBe('');
    }
  });

  it('refuses an unknown scenario name, pointing at the list', () => {
    expect(() => parseScenarios(['create-order-503-once', 'nope'])).toThrow(RangeError);
    expect(() => parseScenarios(['nope'])).toThrow(/unknown scenario "nope"; run `svc-conformance serve --list-scenarios`/);
    expect(() => sandboxAt({ scenarios: ['nope' as ScenarioName] })).toThrow(/--list-scenarios/);
    expect(() => sandboxAt({ hangSeconds: 0 })).toThrow(/hangSeconds/);
    expect(() => sandboxAt({ hangSeconds: 3_000_000 })).toThrow(/hangSeconds must be a number of seconds above 0 and at most 86400/);
  });
});

describe('P-CLIENT-6, P-CLIENT-7: Create Order refused once', () => {
  it('create-order-503-once answers the first Create Order 503 without creating it, then behaves normally', async () => {
    const s = scenarioSandbox(['create-order-503-once']);
    const first = await s.create('ord-1');
    expect(first.status).toBe(503);
    expect(first.json).toEqual({ status: false, code: 503, message: expect.stringContaining('create-order-503-once') });
    expect((await s.orderStatus('ord-1')).status).toBe(404);
    expect((await s.create('ord-1')).status).toBe(201);
    expect((await s.create('ord-2')).status).toBe(201);
    expect((await s.orderStatus('ord-1')).status).toBe(200);
  });

  it('create-order-429-once answers 429 with Retry-After: 1 without creating, then behaves normally', async () => {
    const s = scenarioSandbox(['create-order-429-once']);
    const response = await s.app.handle(signedRequest(s.app, { path: OPERATION_PATHS.createOrder, payload: orderBody('ord-1') }));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toEqual({ status: false, code: 429, message: expect.any(String) });
    expect((await s.orderStatus('ord-1')).status).toBe(404);
    expect((await s.create('ord-1')).status).toBe(201);
    expect((await s.create('ord-2')).status).toBe(201);
  });

  it('a request refused by authentication, or to another operation, leaves the scenario armed', async () => {
    const s = scenarioSandbox(['create-order-503-once']);
    expect((await call(s.app, { path: OPERATION_PATHS.createOrder, payload: orderBody('ord-1'), signature: '0'.repeat(64) })).status).toBe(
      401,
    );
    expect((await s.orderStatus('ord-1')).status).toBe(404);
    expect((await s.create('ord-1')).status).toBe(503);
    expect((await s.create('ord-1')).status).toBe(201);
  });

  it('is once per sandbox instance: a second sandbox has its own', async () => {
    const one = scenarioSandbox(['create-order-503-once']);
    const two = scenarioSandbox(['create-order-503-once']);
    expect((await one.create('ord-1')).status).toBe(503);
    expect((await one.create('ord-1')).status).toBe(201);
    expect((await two.create('ord-1')).status).toBe(503);
  });
});

describe('P-CLIENT-6: Transaction Initiation refused once, and a payout that fails', () => {
  it('payout-initiate-502-once answers the first initiation 502 without creating or debiting, then behaves normally', async () => {
    const s = scenarioSandbox(['payout-initiate-502-once']);
    const before = await s.balance();
    const first = await s.initiate('po-1');
    expect(first.status).toBe(502);
    expect(first.json).toEqual({ status: false, code: 502, message: expect.stringContaining('payout-initiate-502-once') });
    expect((await s.payoutStatus('po-1')).status).toBe(404);
    expect(await s.balance()).toBe(before);
    expect((await s.initiate('po-1')).json.data.status).toBe('PROCESSING');
    expect((await s.initiate('po-2')).status).toBe(200);
    expect(await s.balance()).toBe(before - 2 * 10_000);
  });

  it('payout-failed makes the next initiated payout FAILED for insufficient balance, whatever the amount, once', async () => {
    const s = scenarioSandbox(['payout-failed']);
    const before = await s.balance();
    // A request refused for its content initiates nothing, so it does not consume the scenario.
    expect(
      (await call(s.app, { path: OPERATION_PATHS.transactionInitiation, payload: initiationBody('po-0', { amount: -1 }) })).status,
    ).toBe(400);
    const failed = await s.initiate('po-1', 1);
    expect(failed.status).toBe(200);
    expect(failed.json.data).toMatchObject({
      status: 'FAILED',
      amount_debited: 'NO',
      utr_number: 'NA',
      message: 'Insufficient wallet balance',
      amount: '1.00',
    });
    expect((await s.payoutStatus('po-1')).json.data).toMatchObject({ status: 'FAILED', amount_debited: 'NO', utr_number: 'NA' });
    expect(await s.balance()).toBe(before);
    expect((await s.initiate('po-2', 1)).json.data.status).toBe('PROCESSING');
  });
});

describe('scenarios combined', () => {
  it('create-order-503-once and payout-failed each fire once, on their own operation', async () => {
    const s = scenarioSandbox(['create-order-503-once', 'payout-failed']);
    expect((await s.initiate('po-1')).json.data.status).toBe('FAILED');
    expect((await s.create('ord-1')).status).toBe(503);
    expect((await s.create('ord-1')).status).toBe(201);
    expect((await s.initiate('po-2')).json.data.status).toBe('PROCESSING');
  });

  it('scenarios of one operation fire on successive requests, in catalog order', async () => {
    const s = scenarioSandbox(['create-order-429-once', 'create-order-503-once']);
    expect((await s.create('ord-1')).status).toBe(503);
    expect((await s.create('ord-1')).status).toBe(429);
    expect((await s.create('ord-1')).status).toBe(201);
  });

  it('payout-initiate-502-once then payout-failed: the retry after the 502 is the payout that fails', async () => {
    const s = scenarioSandbox(['payout-failed', 'payout-initiate-502-once']);
    expect((await s.initiate('po-1')).status).toBe(502);
    expect((await s.initiate('po-1')).json.data.status).toBe('FAILED');
    expect((await s.initiate('po-2')).json.data.status).toBe('PROCESSING');
  });

  it("tags each recorded exchange a scenario shaped with the scenario's name", async () => {
    const recorded: RecordedExchange[] = [];
    const s = scenarioSandbox(['create-order-503-once', 'payout-failed'], { record: (x) => recorded.push(x) });
    await s.create('ord-1');
    await s.create('ord-1');
    await s.initiate('po-1');
    await s.initiate('po-2');
    expect(recorded.map((x) => [x.status, x.scenario])).toEqual([
      [503, 'create-order-503-once'],
      [201, undefined],
      [200, 'payout-failed'],
      [200, undefined],
    ]);
  });
});

describe('P-CLIENT-6: create-order-hang-once', () => {
  it('creates the order at once, holds only its answer, and lets other requests through meanwhile', async () => {
    const s = scenarioSandbox(['create-order-hang-once'], { hangSeconds: 0.3 });
    const started = Date.now();
    let answeredAt = 0;
    const held = s.create('ord-1').then((answer) => ((answeredAt = Date.now()), answer));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await s.orderStatus('ord-1')).status).toBe(200);
    expect((await s.create('ord-2')).status).toBe(201);
    expect(answeredAt).toBe(0);
    expect((await held).status).toBe(201);
    expect(answeredAt - started).toBeGreaterThanOrEqual(290);
  });

  it('holds only an answer that created an order', async () => {
    const s = scenarioSandbox(['create-order-hang-once'], { hangSeconds: 30 });
    expect((await call(s.app, { path: OPERATION_PATHS.createOrder, payload: orderBody('ord-1', { order_amount: 0 }) })).status).toBe(400);
    const held = s.create('ord-1');
    expect((await s.orderStatus('ord-1')).status).toBe(200);
    await s.app.close();
    expect((await held).status).toBe(201);
  });

  it('close() resolves once the answer it released has been sent and recorded', async () => {
    const recorded: RecordedExchange[] = [];
    const s = scenarioSandbox(['create-order-hang-once'], { hangSeconds: 30, record: (x) => recorded.push(x) });
    const held = s.create('ord-1');
    expect((await s.orderStatus('ord-1')).status).toBe(200);
    await s.app.close();
    expect(recorded.map((x) => [x.path, x.status, x.scenario])).toEqual([
      [OPERATION_PATHS.orderStatus, 200, undefined],
      [OPERATION_PATHS.createOrder, 201, 'create-order-hang-once'],
    ]);
    expect((await held).status).toBe(201);
  });

  it('over a socket: a client that times out finds the order with Order Status; the recording shows the hang', async () => {
    const recorded: RecordedExchange[] = [];
    const sandbox = await startSandbox({ port: 0, scenarios: ['create-order-hang-once'], hangSeconds: 1, record: (x) => recorded.push(x) });
    const send = async (path: string, payload: unknown, signal: AbortSignal | null = null) => {
      const request = signedRequest(sandbox.app, { path, payload });
      return fetch(sandbox.baseUrl + path, { method: 'POST', headers: request.headers, body: await request.text(), signal });
    };
    try {
      // The client gives up once the order exists and its answer is held: never on a real-time timeout.
      const giveUp = new AbortController();
      const timedOut = send(OPERATION_PATHS.createOrder, orderBody('ord-1'), giveUp.signal);
      await until(() => sandbox.app.store.order('merchant-a', 'ord-1') !== undefined);
      giveUp.abort();
      await expect(timedOut).rejects.toThrow(/aborted/i);
      expect((await send(OPERATION_PATHS.orderStatus, { order_id: 'ord-1' })).status).toBe(200);
      expect((await send(OPERATION_PATHS.createOrder, orderBody('ord-2'))).status).toBe(201);

      await until(() => recorded.some((x) => x.scenario === 'create-order-hang-once'));
      const hung = recorded.find((x) => x.scenario === 'create-order-hang-once')!;
      expect(hung.status).toBe(201);
      expect(hung.respondedAt - hung.receivedAt).toBeGreaterThanOrEqual(1000);
      // How a judge sees that the client got no answer: its next request came before the answer.
      const next = recorded.filter((x) => x.receivedAt > hung.receivedAt).sort((a, b) => a.receivedAt - b.receivedAt)[0]!;
      expect(next.path).toBe(OPERATION_PATHS.orderStatus);
      expect(next.receivedAt).toBeLessThan(hung.respondedAt);
    } finally {
      await sandbox.close();
    }
  });

  it('close() does not wait out a hang, and still records the held exchange', async () => {
    const recorded: RecordedExchange[] = [];
    const sandbox = await startSandbox({
      port: 0,
      scenarios: ['create-order-hang-once'],
      hangSeconds: 30,
      record: (x) => recorded.push(x),
    });
    const request = signedRequest(sandbox.app, { path: OPERATION_PATHS.createOrder, payload: orderBody('ord-1') });
    const body = await request.text();
    const giveUp = new AbortController();
    const held = fetch(sandbox.baseUrl + OPERATION_PATHS.createOrder, {
      method: 'POST',
      headers: request.headers,
      body,
      signal: giveUp.signal,
    });
    await until(() => sandbox.app.store.order('merchant-a', 'ord-1') !== undefined);
    giveUp.abort();
    await expect(held).rejects.toThrow();
    const closing = Date.now();
    await sandbox.close();
    expect(Date.now() - closing).toBeLessThan(2_000);
    expect(recorded.map((x) => [x.status, x.scenario])).toEqual([[201, 'create-order-hang-once']]);
  });
});

/** Waits for a condition; the bound only ends a test that has already failed, however loaded the machine. */
async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
