// The embedded sandbox's clock is the run's own (embedded.ts): the revisit jumps it on instead of
// waiting, and the sandbox must see the same time, or its timestamp window would refuse the run.
import { describe, expect, it } from 'vitest';
import { openTarget } from './embedded.js';
import { TargetClient } from './http.js';

describe('the embedded target', () => {
  it('has a clock that jumps, for the run and its sandbox alike', async () => {
    const opened = await openTarget({ embedded: {} }, undefined, undefined);
    const clock = opened.clock!;
    const client = new TargetClient(opened.config, { clock });
    try {
      const before = clock.now();
      clock.jump!(3_600_000);
      expect(clock.now() - before).toBeGreaterThanOrEqual(3_600_000);
      // Signed an hour on: refused 401 unless the sandbox's clock moved too (its window is 300 s).
      const payload = { svc_wallet_id: opened.config.merchant.walletId };
      const answer = await client.send({ label: 'balance', path: '/api/v3/banking/balance', payload });
      expect(answer.response?.status).toBe(200);
    } finally {
      await client.close();
      await opened.close();
    }
  });

  it('has none on a clock the caller gave: another run may share it', async () => {
    const shared = { now: () => Date.now(), sleep: () => Promise.resolve() };
    const opened = await openTarget({ embedded: {} }, shared, undefined);
    try {
      expect(opened.clock?.jump).toBeUndefined();
    } finally {
      await opened.close();
    }
  });
});
