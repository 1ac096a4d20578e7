// MONEY-EXACT-BALANCE's first condition: the payout one minor unit over the balance is FAILED and says
// amount_debited NO (P-MONEY-2). Each half broken alone by a sandbox fault: a FAILED record that says
// the amount left the wallet, and a payout accepted whose debit waits for settlement (so it says NO).
import { describe, expect, it } from 'vitest';
import type { FaultName, SandboxVariant } from '../../sandbox/index.js';
import { sandboxTarget } from '../check-test-support.js';
import { moneyChecks } from './money.js';

const exactBalance = moneyChecks.find((c) => c.requirement === 'MONEY-EXACT-BALANCE')!;

describe('MONEY-EXACT-BALANCE: one minor unit over the balance is FAILED with amount_debited NO', () => {
  it.each([
    ['payout-failed-debited', 'initiation', 'FAILED, amount_debited YES'],
    ['money-rounding-tolerance', 'settlement', 'PROCESSING, amount_debited NO until it settles'],
  ] as const)('fails %s, debiting at %s: %s', async (fault: FaultName, debitAt: SandboxVariant['debitAt'], answer: string) => {
    const target = await sandboxTarget({ faults: [fault], variant: { debitAt }, settleSeconds: 6 });
    try {
      const { outcome, meta } = await target.run(exactBalance);
      expect(outcome, `${answer}: ${meta.failure?.message ?? meta.skipped ?? meta.error?.message}`).toBe('failed');
      expect(meta.failure?.message).toMatch(/one minor unit more than the balance/);
    } finally {
      await target.close();
    }
  });

  it('passes the same sandbox without the fault, debiting at either time', async () => {
    for (const debitAt of ['initiation', 'settlement'] as const) {
      const target = await sandboxTarget({ variant: { debitAt }, settleSeconds: 6 });
      try {
        expect((await target.run(exactBalance)).outcome, debitAt).toBe('passed');
      } finally {
        await target.close();
      }
    }
  });
});
