import { describe, expect, it } from 'vitest';
import { manualClock } from '../core/clock.js';
import { payoutBody } from './requests.js';
import { operationOf } from './config.js';
import { EMBEDDED_CLOCK_FACTOR, openSession } from './session.js';

describe('a run session on the embedded sandbox', () => {
  it('keeps --max-time in real seconds on its faster clock: the deadline lies factor times further ahead on it', async () => {
    const session = await openSession({ target: { embedded: {} }, deadlineAt: Date.now() + 10_000 });
    try {
      const clock = session.settings.clock!;
      expect(clock.factor).toBe(EMBEDDED_CLOCK_FACTOR);
      const ahead = session.settings.deadlineAt! - clock.now();
      // 10 real seconds are 80 s of a clock 8 times faster (less what passed while the sandbox started).
      expect(ahead).toBeGreaterThan(10_000 * EMBEDDED_CLOCK_FACTOR - 5_000);
      expect(ahead).toBeLessThanOrEqual(10_000 * EMBEDDED_CLOCK_FACTOR);
    } finally {
      await session.close();
    }
  });

  it("ends the sandbox's sleeps when it closes: a payout still to settle holds no timer after the run", async () => {
    const clock = manualClock();
    const session = await openSession({ target: { embedded: {} }, clock });
    const { config } = session;
    const initiation = operationOf(config, 'transactionInitiation')!;
    const payout = payoutBody(config.merchant.walletId, 'SESSION-SLEEP-1', 10, 'INR');
    const answer = await session.state.client.send({ label: 'a payout', path: initiation.path, payload: payout });
    expect(answer.response?.status).toBe(200);
    // Its settlement waits on the clock (the sandbox settles a payout seconds later).
    expect(clock.sleeping).toBeGreaterThan(0);
    await session.close();
    expect(clock.sleeping).toBe(0);
  });

  it('lets dozens of sleeps wait at once without node warning of a listener leak', async () => {
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.name);
    process.on('warning', warned);
    const clock = manualClock();
    const session = await openSession({ target: { embedded: {} }, clock });
    try {
      const initiation = operationOf(session.config, 'transactionInitiation')!;
      for (let n = 0; n < 12; n++) {
        const payout = payoutBody(session.config.merchant.walletId, `SESSION-MANY-${n}`, 10, 'INR');
        expect((await session.state.client.send({ label: 'a payout', path: initiation.path, payload: payout })).response?.status).toBe(200);
      }
      expect(clock.sleeping).toBeGreaterThanOrEqual(12);
      // node emits its warnings on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', warned);
      await session.close();
    }
  });
});
