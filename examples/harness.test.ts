import { installClientHarness } from 'svc-conformance';
import { expect, it } from 'vitest';
import { runGoodClient } from './good-client.mjs';

it('our payment client follows the P-CLIENT rules, recovering from a 503', async () => {
  const harness = installClientHarness({ scenarios: ['create-order-503-once'] });
  try {
    expect(await runGoodClient(harness.env)).toBe(0);
    harness.assertConformant({ strict: true });
  } finally {
    await harness.restore();
  }
});
