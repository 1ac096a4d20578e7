// P-MONEY-1 across sequences: a payout of the run's own made by an earlier sequence (of this check or
// of another model check on the same wallet) that settles while a later sequence runs moves the
// balance by exactly its record, so the later sequence must count it, not fail. Time is a clock that
// moves one second for every request the sandbox answers, so each payout settles a fixed number of
// requests after it was made, often inside the next sequence, the same way on every machine. Whole
// model-check runs against sandboxes: with the end-to-end tests (the model checks' own tests, each
// shown failing under its fault, sit beside them in suites/model/).
import { describe, expect, it } from 'vitest';
import type { FaultName, StartOptions } from '../sandbox/index.js';
import { requestClock, sandboxTarget } from '../suites/check-test-support.js';
import { modelChecks } from '../suites/checks/model.js';
import { decimalOf, decimalText } from '../suites/requests.js';
import { emptyModel, expectedBalance } from '../suites/model/model.js';

const RUNS = 5;
const payoutLifecycle = modelChecks.find((c) => c.id === 'model-payout-lifecycle')!;
const money = modelChecks.find((c) => c.id === 'model-money-conservation')!;

/** A sandbox that debits at settlement, settling each payout `settleSeconds` requests after it was made. */
async function settlingTarget(settleSeconds: number, faults: FaultName[] = []) {
  const clock = requestClock();
  const options: StartOptions = {
    variant: { debitAt: 'settlement' },
    settleSeconds,
    faults,
    clock: clock.sandbox,
    log: () => clock.tick(),
  };
  return sandboxTarget(options, undefined, RUNS, clock.run);
}

describe('the expected balance counts an earlier payout for what it did since the start', () => {
  const record = (status: string, debited: 'YES' | 'NO', amount = '9.25') => ({ status, amount_debited: debited, amount, currency: 'INR' });
  it.each([
    [
      'debited at settlement (PROCESSING NO, then SUCCESS YES): its amount out',
      record('PROCESSING', 'NO'),
      record('SUCCESS', 'YES'),
      '90.75',
    ],
    ['debited at initiation, then FAILED: its amount back', record('PROCESSING', 'YES'), record('FAILED', 'NO'), '109.25'],
    ['debited at initiation, then SUCCESS: nothing more', record('PROCESSING', 'YES'), record('SUCCESS', 'YES'), '100.00'],
    ['not moved yet: nothing', record('PROCESSING', 'NO'), record('PROCESSING', 'NO'), '100.00'],
  ])('%s', (_name, atStart, last, expected) => {
    const model = {
      ...emptyModel(undefined),
      startBalance: decimalOf('100.00')!,
      inherited: [{ payoutOrderId: 'MDLPO-earlier-P1', atStart, last }],
    };
    expect(decimalText(expectedBalance(model)!)).toBe(expected);
  });
});

describe('payouts of earlier sequences settling during a later one (debitAt settlement)', () => {
  // Settling inside the sequence that made the payout, just after it, or well into a later one (the
  // last four failed before earlier payouts were counted: the balance fell by a payout no sequence had made).
  it.each([3, 6, 8, 16, 20])(
    'the money check passes when payouts settle %i requests after they are made',
    async (settleSeconds) => {
      const target = await settlingTarget(settleSeconds);
      try {
        // The payout lifecycle check runs first in the wallet lane: its payouts are still PROCESSING as the money check starts.
        for (const check of [payoutLifecycle, money]) {
          const { outcome, meta } = await target.run(check);
          expect({ check: check.id, outcome, why: meta.failure?.message ?? meta.skipped ?? meta.error?.message }).toEqual({
            check: check.id,
            outcome: 'passed',
            why: undefined,
          });
          // Judged, not excused: no sequence was set aside as other activity on the wallet.
          expect(meta.notes ?? []).toEqual([]);
        }
      } finally {
        await target.close();
      }
    },
    60_000,
  );

  // A real fault still fails, with earlier payouts settling around it.
  it.each<FaultName>(['money-reversal-not-refunded', 'money-duplicate-debits'])(
    '%s still fails MONEY-CONSERVATION',
    async (fault) => {
      const target = await settlingTarget(5, [fault]);
      try {
        await target.run(payoutLifecycle);
        const { outcome, meta } = await target.run(money);
        expect({ outcome, error: meta.error?.message }).toEqual({ outcome: 'failed', error: undefined });
        expect(meta.failure?.message).toContain('MONEY-CONSERVATION');
      } finally {
        await target.close();
      }
    },
    60_000,
  );
});
