// The sandbox's payout lifecycle: a new payout's outcome from its amount (like test card numbers),
// settlement by the clock, the control endpoint's transitions, and the payout record (P-PAYOUT-1..3).
import { minorUnitOf } from '../../schemas/amounts.js';
import type { PayoutState } from '../../schemas/types.js';
import { formatDate, minorToText } from '../envelope.js';
import type { FaultName } from '../faults.js';
import type { Payout, SandboxStore } from '../store.js';

const PAYOUT_MESSAGES = {
  insufficientBalance: 'Insufficient wallet balance',
  bankRejected: 'Beneficiary bank rejected the transfer',
  pending: 'Awaiting bank confirmation',
  processing: 'Payout under processing',
  success: 'Payout completed',
  failedBySettlement: 'Payout failed at the beneficiary bank',
  reversed: 'Amount returned to wallet',
} as const;

/** Minor-unit endings that select an outcome (e.g. 100.13 is rejected, 100.42 stays PENDING). */
export const REJECTED_ENDING = 13;
const PENDING_ENDING = 42;

export interface InitiationOutcome {
  status: PayoutState;
  message: string;
  /** Whether the wallet is debited at initiation. */
  debited: boolean;
  /** Why the payout failed at once, if it did: decides which faults apply. */
  failure?: 'insufficient-balance' | 'bank-rejected';
}

/** A payout over the balance; also forced, whatever the amount, by the `payout-failed` scenario. */
export function insufficientBalanceOutcome(): InitiationOutcome {
  return { status: 'FAILED', message: PAYOUT_MESSAGES.insufficientBalance, debited: false, failure: 'insufficient-balance' };
}

/** The sandbox's payout rules, in order: over the balance FAILED, ending in 13 FAILED, in 42 PENDING (until
 * settled by the control endpoint), else PROCESSING (SUCCESS after `settleSeconds`). */
export function initiationOutcome(amountMinor: number, balanceMinor: number): InitiationOutcome {
  if (amountMinor > balanceMinor) return insufficientBalanceOutcome();
  const ending = amountMinor % 100;
  if (ending === REJECTED_ENDING)
    return { status: 'FAILED', message: PAYOUT_MESSAGES.bankRejected, debited: false, failure: 'bank-rejected' };
  if (ending === PENDING_ENDING) return { status: 'PENDING', message: PAYOUT_MESSAGES.pending, debited: true };
  return { status: 'PROCESSING', message: PAYOUT_MESSAGES.processing, debited: true };
}

/** A PROCESSING payout past its settlement time becomes SUCCESS when read, or by the timer set at initiation
 * (`now` Infinity) so its webhook goes out on time (P-HOOK); fixtures have no settlement time, so never move. */
export function settleIfDue(payout: Payout, now: number, store: SandboxStore): void {
  if (payout.status === 'PROCESSING' && payout.settlesAt !== undefined && now >= payout.settlesAt) markSuccess(payout, store);
}

/** Payouts whose debit waits for SUCCESS (debitAt 'settlement'): the funds check counts them as reserved, or
 * concurrent payouts would overdraw the wallet (P-MONEY-3). */
const awaitingDebit = new WeakSet<Payout>();

export function debitAtSettlement(payout: Payout): void {
  awaitingDebit.add(payout);
}

/** The amounts of the wallet's payouts still in flight whose debit waits for their settlement, minor units. */
export function reservedMinor(store: SandboxStore, walletId: string): number {
  let reserved = 0;
  for (const p of store.payouts.values()) if (p.walletId === walletId && awaitingDebit.has(p)) reserved += p.amountMinor;
  return reserved;
}

function markSuccess(payout: Payout, store: SandboxStore): void {
  if (awaitingDebit.delete(payout)) {
    // debitAt 'settlement': the amount leaves the wallet now, and the record says so from now on.
    const wallet = store.wallets.get(payout.walletId);
    if (wallet !== undefined) wallet.balanceMinor -= payout.amountMinor;
    payout.amountDebited = true;
  }
  payout.status = 'SUCCESS';
  payout.utrNumber = store.nextUtr();
  payout.message = PAYOUT_MESSAGES.success;
  delete payout.settlesAt;
  store.changed({ payout });
}

export type SettlementTarget = 'SUCCESS' | 'FAILED' | 'REVERSED';
export const SETTLEMENT_TARGETS: readonly SettlementTarget[] = ['SUCCESS', 'FAILED', 'REVERSED'];

/** Which states the control endpoint may move a payout from, per target state. */
const ALLOWED_FROM: Readonly<Record<SettlementTarget, readonly PayoutState[]>> = {
  SUCCESS: ['PENDING', 'PROCESSING'],
  FAILED: ['PENDING', 'PROCESSING'],
  REVERSED: ['SUCCESS'],
};

/** The control endpoint's transition: FAILED refunds the debit (P-OPS-4), REVERSED credits it back; returns
 * the reason for a 422 when not allowed. */
export function settle(payout: Payout, target: SettlementTarget, store: SandboxStore, keepFailedDebit: boolean): string | undefined {
  if (!ALLOWED_FROM[target].includes(payout.status)) {
    return `a ${payout.status} payout cannot be moved to ${target}; allowed from: ${ALLOWED_FROM[target].join(', ')}`;
  }
  const wallet = store.wallets.get(payout.walletId);
  switch (target) {
    case 'SUCCESS':
      markSuccess(payout, store);
      break;
    case 'FAILED':
      // A payout whose debit waited for settlement took nothing: nothing to give back.
      awaitingDebit.delete(payout);
      if (payout.amountDebited && wallet !== undefined && !keepFailedDebit) wallet.balanceMinor += payout.amountMinor;
      payout.status = 'FAILED';
      payout.amountDebited = false;
      payout.utrNumber = 'NA';
      payout.message = PAYOUT_MESSAGES.failedBySettlement;
      delete payout.settlesAt;
      break;
    case 'REVERSED':
      // The debit did happen (amount_debited stays YES); the reversal is a separate credit.
      if (wallet !== undefined) wallet.balanceMinor += payout.amountMinor;
      payout.status = 'REVERSED';
      payout.message = PAYOUT_MESSAGES.reversed;
      break;
  }
  if (target !== 'SUCCESS') store.changed({ payout });
  return undefined;
}

/** The payout record, every field a string (P-PAYOUT-1..3); the record faults are applied here, in one place,
 * so each breaks exactly its rule. */
export function payoutRecord(payout: Payout, fault: (name: FaultName) => boolean): Record<string, unknown> {
  const failed = payout.status === 'FAILED';
  const date = formatDate(payout.createdAt);
  return {
    payout_id: payout.payoutId,
    payout_order_id: payout.payoutOrderId,
    // A wallet transaction reference, one per payout (interface: Payout record): PAY-00000007 → WTX-00000007.
    wallet_id: `WTX-${payout.payoutId.replace(/^PAY-/, '')}`,
    status: fault('payout-status-lowercase') ? payout.status.toLowerCase() : payout.status,
    amount: fault('payout-amount-number')
      ? payout.amountMinor / 10 ** minorUnitOf(payout.currency)
      : minorToText(payout.amountMinor, payout.currency),
    currency: payout.currency,
    utr_number: failed && fault('payout-failed-utr') ? '' : payout.utrNumber,
    message: payout.message,
    amount_debited: payout.amountDebited || (failed && fault('payout-failed-debited')) ? 'YES' : 'NO',
    created_at: fault('payout-created-at-slashes') ? date.replaceAll('-', '/') : date,
  };
}
