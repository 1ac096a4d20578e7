// AUTH-FAILURE-NO-EFFECT on the profile's operations, each condition broken alone: the reference
// sandbox with one answer rewritten. The sandbox faults of P-AUTH-5: money-checks.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editedAnswer, sandboxTarget, withAnswers, type SandboxTarget } from '../check-test-support.js';
import { authEffectChecks } from './auth-effects.js';

let target: SandboxTarget;
beforeAll(async () => {
  target = await sandboxTarget();
});
afterAll(() => target.close());

describe('AUTH-FAILURE-NO-EFFECT: a refused Transaction Initiation pays nothing', () => {
  const payout = authEffectChecks.find((c) => c.id === 'auth-failure-no-payout')!;

  it('passes the sandbox, and fails a refused payout that Payout Status then finds', async () => {
    expect((await target.run(payout)).outcome).toBe('passed');
    const found = withAnswers(payout, (exchange, options) =>
      options.label.startsWith("Payout Status of the refused payout's payout_order_id") ? editedAnswer(exchange, () => {}, 200) : exchange,
    );
    const { outcome, meta } = await target.run(found);
    expect(outcome).toBe('failed');
    expect(meta.failure?.message).toMatch(/its payout_order_id must be unknown: no payout was made/);
  });
});
