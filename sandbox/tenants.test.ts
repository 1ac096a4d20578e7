import { describe, expect, it } from 'vitest';
import { OPERATION_PATHS } from './index.js';
import { orderBody } from './operations/order-test-support.js';
import { initiationBody } from './operations/payout-test-support.js';
import { MERCHANT_A, MERCHANT_A_LIVE, MERCHANT_B, runMerchant, type Merchant } from './tenants.js';
import { call, sandboxAt } from './test-support.js';

describe('runMerchant: a merchant made for one run (verify-client)', () => {
  it('has fresh sandbox keys and a wallet of its own, every time', () => {
    const one = runMerchant();
    const two = runMerchant();
    expect(one).toMatchObject({
      environment: 'sandbox',
      apiKey: expect.stringMatching(/^pk_test_run_[0-9a-f]{32}$/),
      secretKey: expect.stringMatching(/^sk_test_run_[0-9a-f]{64}$/),
      walletId: expect.stringMatching(/^WAL-SBX-RUN-[0-9A-F]{16}$/),
    });
    for (const key of ['id', 'apiKey', 'secretKey', 'walletId'] as const) {
      expect(one[key], key).not.toBe(two[key]);
      expect([MERCHANT_A[key], MERCHANT_B[key]], key).not.toContain(one[key]);
    }
  });

  it('takes its randomness as an argument', () => {
    const zeros = (n: number) => Buffer.alloc(n);
    expect(runMerchant(zeros)).toEqual(runMerchant(zeros));
  });
});

describe('createSandbox({ merchants }): merchants besides the demo ones', () => {
  const run: Merchant = runMerchant();
  const balanceOf = async (app: ReturnType<typeof sandboxAt>['app'], who: Merchant, walletId = who.walletId) =>
    call(app, { path: OPERATION_PATHS.balanceInquiry, payload: { svc_wallet_id: walletId }, merchant: who });

  it("serves the extra merchant with a wallet holding what demo merchant A's holds, and the demo merchants as before", async () => {
    const { app } = sandboxAt({ merchants: [run], variant: { replay: 'allow' } });
    const own = await balanceOf(app, run);
    expect(own.status).toBe(200);
    expect(own.json.data).toEqual({ ...(await balanceOf(app, MERCHANT_A)).json.data, wallet_id: run.walletId });
    expect((await call(app, { path: OPERATION_PATHS.createOrder, payload: orderBody('RUN-1'), merchant: run })).status).toBe(201);
    expect(
      (
        await call(app, {
          path: OPERATION_PATHS.transactionInitiation,
          payload: initiationBody('RUN-PO-1', { svc_wallet_id: run.walletId }),
          merchant: run,
        })
      ).status,
    ).toBe(200);
    // Isolated like any two merchants (P-TENANT): neither uses the other's wallet or sees its order.
    expect((await balanceOf(app, run, MERCHANT_A.walletId)).status).toBe(403);
    expect((await balanceOf(app, MERCHANT_A, run.walletId)).status).toBe(403);
    expect((await call(app, { path: OPERATION_PATHS.orderStatus, payload: { order_id: 'RUN-1' } })).status).toBe(404);
  });

  it("verifies under the merchant's secret as it is now, should the caller change it", async () => {
    const rotating: Merchant = runMerchant();
    // Replays allowed: the old secret's request is the first one again, which replay refusal would refuse too.
    const { app } = sandboxAt({ merchants: [rotating], variant: { replay: 'allow' } });
    const before = { ...rotating };
    expect((await balanceOf(app, rotating)).status).toBe(200);
    rotating.secretKey = runMerchant().secretKey;
    expect((await balanceOf(app, rotating)).status).toBe(200);
    const old = await balanceOf(app, before);
    expect([old.status, old.json.message]).toEqual([401, 'signature does not match']);
  });

  it('is unknown to a sandbox not given it', async () => {
    expect((await balanceOf(sandboxAt().app, run)).status).toBe(401);
  });

  it('registers --webhook-url for the extra merchant too', () => {
    const { app } = sandboxAt({ merchants: [run], webhookUrl: 'http://127.0.0.1:4020/hooks' });
    expect(app.webhooks.urlOf(run.id)).toBe('http://127.0.0.1:4020/hooks');
    expect(app.webhooks.urlOf(MERCHANT_A.id)).toBe('http://127.0.0.1:4020/hooks');
  });

  it.each<[string, Merchant, RegExp]>([
    ["a demo merchant's API key", { ...runMerchant(), apiKey: MERCHANT_A.apiKey }, /^sandbox: merchants: .* API key .* already/],
    ['a demo wallet', { ...runMerchant(), walletId: MERCHANT_B.walletId }, /^sandbox: merchants: .* wallet .* already/],
    ['a production key', { ...runMerchant(), apiKey: 'pk_live_x', environment: 'production' }, /^sandbox: merchants: .* sandbox merchant/],
    ['the live demo merchant', MERCHANT_A_LIVE, /^sandbox: merchants: /],
  ])('refuses %s', (_name, merchant, message) => {
    expect(() => sandboxAt({ merchants: [merchant] })).toThrow(message);
  });
});

describe("createSandbox({ scenarioMerchant }): scenarios only for one merchant's requests", () => {
  const run = runMerchant();

  it("leaves a scenario armed through another merchant's requests, and applies it to that merchant's first", async () => {
    const { app } = sandboxAt({ merchants: [run], scenarios: ['create-order-503-once', 'payout-failed'], scenarioMerchant: run.id });
    expect((await call(app, { path: OPERATION_PATHS.createOrder, payload: orderBody('A-1') })).status).toBe(201);
    expect((await call(app, { path: OPERATION_PATHS.transactionInitiation, payload: initiationBody('A-PO-1') })).json.data.status).not.toBe(
      'FAILED',
    );
    expect((await call(app, { path: OPERATION_PATHS.createOrder, payload: orderBody('RUN-1'), merchant: run })).status).toBe(503);
    expect(
      (
        await call(app, {
          path: OPERATION_PATHS.transactionInitiation,
          payload: initiationBody('RUN-PO-1', { svc_wallet_id: run.walletId }),
          merchant: run,
        })
      ).json.data.status,
    ).toBe('FAILED');
  });

  it('refuses a merchant the sandbox does not know', () => {
    expect(() => sandboxAt({ scenarios: ['create-order-503-once'], scenarioMerchant: 'nobody' })).toThrow(
      /^sandbox: scenarioMerchant "nobody" is not a merchant of this sandbox/,
    );
  });
});
