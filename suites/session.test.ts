import { describe, expect, it } from 'vitest';
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
});
