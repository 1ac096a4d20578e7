// P-CFG v1.3, P-ENV-3: the sandbox's control requests (spare wallet, settle, checkout) go only to a
// target the config declares the reference sandbox; a real deployment gets none, and neither does a
// target that merely answers like the sandbox, nor a production one.
import { describe, expect, it } from 'vitest';
import { sandboxTarget } from './check-test-support.js';
import { moneyChecks } from './checks/money.js';
import { modelChecks } from './checks/model.js';
import { realFront } from './model/real-front-test-support.js';
import { isReferenceSandbox } from './reference-sandbox.js';

const spareWalletChecks = moneyChecks.filter((c) => c.id === 'money-no-overdraft' || c.id === 'money-exact-balance');

describe('the reference sandbox, declared by the config', () => {
  it('a real deployment gets no control request; the spare-wallet checks are skipped naming the key', async () => {
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
      expect(front.controlRequests).toEqual([]);
    } finally {
      await front.close();
    }
  }, 60_000);

  it('a target that answers as the sandbox does, but is not declared one, gets no control request', async () => {
    const seen: string[] = [];
    const target = await sandboxTarget({ record: (x) => void (/^\/(sandbox|checkout)\//.test(x.path) && seen.push(x.path)) }, (config) => {
      delete config.target;
      return config;
    });
    try {
      for (const check of [...modelChecks.filter((c) => c.id === 'model-order-lifecycle'), ...spareWalletChecks]) await target.run(check);
      expect(seen).toEqual([]);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('only the declaration counts, and never for production', () => {
    expect(isReferenceSandbox({ config: { target: 'reference-sandbox', environment: 'sandbox' } })).toBe(true);
    expect(isReferenceSandbox({ config: { environment: 'sandbox' } })).toBe(false);
    expect(isReferenceSandbox({ config: { target: 'reference-sandbox', environment: 'production' } })).toBe(false);
  });

  it("against the declared sandbox, spare wallets are opened and the model's control commands run", async () => {
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
