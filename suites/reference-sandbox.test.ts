// P-CFG, P-ENV-3: the sandbox's control requests (spare wallet, settle, checkout) go only to a target
// that the run's one probe found to be the reference sandbox; a real deployment gets the probe alone,
// and a production target not even that.
import { describe, expect, it } from 'vitest';
import { sandboxTarget } from './check-test-support.js';
import { moneyChecks } from './checks/money.js';
import { modelChecks } from './checks/model.js';
import { realFront } from './model/real-front-test-support.js';
import { isReferenceSandbox } from './reference-sandbox.js';

const spareWalletChecks = moneyChecks.filter((c) => c.id === 'money-no-overdraft' || c.id === 'money-exact-balance');

describe('the reference sandbox, decided once per run', () => {
  it('a real deployment gets one probe and no other control request; the spare-wallet checks are skipped naming the key', async () => {
    const front = await realFront();
    try {
      const target = front.target(42, 1);
      for (const check of [...modelChecks, ...spareWalletChecks]) {
        const { outcome, meta } = await target.run(check);
        expect({ check: check.id, error: meta.error?.message }).toEqual({ check: check.id, error: undefined });
        if (spareWalletChecks.includes(check))
          expect({ outcome, skipped: meta.skipped }).toEqual({
            outcome: 'skipped',
            skipped: expect.stringMatching(/^needs fixtures\.spareWallet/),
          });
      }
      expect(front.controlRequests).toEqual(['/sandbox/payouts/settle']);
    } finally {
      await front.close();
    }
  }, 60_000);

  it('a production target is never probed', async () => {
    const front = await realFront();
    try {
      const target = front.target(42, 1, (config) => ({ ...config, environment: 'production' }));
      const client = target.state.client;
      const ctx = {
        runKey: client,
        sendSetup: (options: Parameters<typeof client.send>[0]) => client.send(options),
        config: target.state.settings.config,
      };
      expect(await isReferenceSandbox(ctx)).toBe(false);
      expect(front.controlRequests).toEqual([]);
    } finally {
      await front.close();
    }
  });

  it("against the sandbox, spare wallets are opened and the model's control commands run", async () => {
    const target = await sandboxTarget(
      {},
      (config) => {
        if (config.fixtures !== undefined) delete config.fixtures.spareWallet;
        return config;
      },
      1,
    );
    try {
      for (const check of spareWalletChecks) {
        const { outcome, meta } = await target.run(check);
        expect({ check: check.id, outcome, why: meta.failure?.message ?? meta.skipped ?? meta.error?.message }).toEqual({
          check: check.id,
          outcome: 'passed',
          why: undefined,
        });
      }
      const lifecycle = modelChecks.find((c) => c.id === 'model-order-lifecycle')!;
      const { outcome, meta } = await target.run(lifecycle);
      expect(outcome).toBe('passed');
      // The checkout page (a control path of the sandbox's) was used: a PAID order was reached.
      expect(meta.notes ?? []).toEqual([]);
    } finally {
      await target.close();
    }
  }, 60_000);
});
