// TENANT checks, each condition broken alone: the reference sandbox (with its second merchant) with
// one answer rewritten. The tenant faults themselves: money-checks.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editedAnswer, sandboxTarget, withAnswers, type SandboxTarget } from '../check-test-support.js';
import { tenantChecks } from './tenants.js';

let target: SandboxTarget;
beforeAll(async () => {
  target = await sandboxTarget();
});
afterAll(() => target.close());

describe('TENANT-ORDER-CANCEL: 404, and the order stays UN_PAID for its owner', () => {
  const cancel = tenantChecks.find((c) => c.id === 'tenant-order-cancel')!;

  it('passes the sandbox, and fails an owner who reads the order CANCELLED after the refused cancel', async () => {
    expect((await target.run(cancel)).outcome).toBe('passed');
    const cancelled = withAnswers(cancel, (exchange, options) =>
      options.label === "the other merchant's Order Status of its order"
        ? editedAnswer(exchange, (json) => void ((json.data as Record<string, unknown>).order_status = 'CANCELLED'))
        : exchange,
    );
    const { outcome, meta } = await target.run(cancelled);
    expect(outcome).toBe('failed');
    expect(meta.failure?.message).toMatch(/after another merchant's refused cancel the order is "CANCELLED", not UN_PAID/);
  });
});
