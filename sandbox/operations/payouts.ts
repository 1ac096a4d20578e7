// The banking operations: Payout Status, Balance Inquiry, Transaction Initiation (P-OPS), and the control
// endpoint that settles a payout. The lifecycle rules live in payout-lifecycle.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import { minorUnitOf } from '../../schemas/amounts.js';
import { describeErrors, isValid, validateSchema } from '../../schemas/index.js';
import type { TransactionInitiationRequest } from '../../schemas/types.js';
import { refuseLongId } from './identifiers.js';
import { OperationError, requireSchema, type OperationContext, type OperationHandler } from '../context.js';
import { errorResponse, jsonResponse, minorToText, successResponse, type SandboxResponse } from '../envelope.js';
import type { Payout } from '../store.js';
import type { Wallet } from '../tenants.js';
import { amountInMinorUnits, refuseAmountForm } from './request-amount.js';
import {
  SETTLEMENT_TARGETS,
  debitAtSettlement,
  initiationOutcome,
  insufficientBalanceOutcome,
  payoutRecord,
  reservedMinor,
  type InitiationOutcome,
  settle,
  settleIfDue,
  type SettlementTarget,
} from './payout-lifecycle.js';

const PAYOUT_NOT_FOUND = 'payout transaction not found';
/** The sandbox's per-payout limit (interface: payout limits per account are not shown). */
const PAYOUT_LIMIT_MINOR = 100_000_000_000_000;
/** The fee the `tenant-initiate-fee` fault charges on top of the amount, minor units. */
const REFUSAL_FEE_MINOR = 250;

type WalletRefusal = { refused: 'environment' | 'merchant'; message: string };

/** P-ENV-2, P-ERR-4: the merchant's sandbox wallet; unknown and foreign wallets get the same answer so ids
 * cannot be probed (`existenceOnly`, a fault, lets a foreign one pass). */
function lookupWallet(ctx: OperationContext, walletId: string, existenceOnly = false): Wallet | WalletRefusal {
  const wallet = ctx.store.wallets.get(walletId);
  if (wallet === undefined || (wallet.merchantId !== ctx.merchant.id && !existenceOnly))
    return { refused: 'merchant', message: 'wallet identifier is invalid for this merchant' };
  if (wallet.environment !== 'sandbox')
    return { refused: 'environment', message: 'wallet identifier is invalid for the selected environment' };
  return wallet;
}

/** P-PAYOUT-4: an unknown payout is a 404 with no data (or, under its fault, a 200 that says 404). */
function payoutNotFound(ctx: OperationContext): SandboxResponse {
  if (ctx.fault('payout-unknown-200')) return jsonResponse(200, { status: false, code: 404, message: PAYOUT_NOT_FOUND });
  return errorResponse(404, PAYOUT_NOT_FOUND, ctx.options.faults);
}

/** Interface: Payout Status; P-PAYOUT-1..5, P-ENV-2. */
export const payoutStatus: OperationHandler = (ctx) => {
  const { body } = ctx;
  // The fault: the id is never checked for presence, so the lookup of `undefined` finds nothing.
  const idMissingUnchecked = body.payout_order_id === undefined && ctx.fault('payout-missing-field-404');
  requireSchema('payout-status-request', idMissingUnchecked ? { ...body, payout_order_id: 'unchecked' } : body);

  const wallet = lookupWallet(ctx, body.svc_wallet_id as string, ctx.fault('payout-other-merchant-wallet'));
  if ('refused' in wallet) {
    if (wallet.refused === 'environment' && ctx.fault('env-wallet-404')) throw new OperationError(404, 'wallet not found');
    if (wallet.refused === 'environment' && ctx.fault('env-error-with-data')) {
      return jsonResponse(403, { status: false, code: 403, message: wallet.message, data: {} });
    }
    throw new OperationError(403, wallet.message);
  }
  if (idMissingUnchecked) return payoutNotFound(ctx);

  const id = body.payout_order_id as string | number;
  const payout =
    ctx.store.payout(ctx.merchant.id, id) ?? (ctx.fault('payout-cross-merchant') ? ctx.store.payoutOfAnyMerchant(id) : undefined);
  if (payout === undefined) return payoutNotFound(ctx);
  settleIfDue(payout, ctx.now(), ctx.store);
  if (ctx.fault('money-status-debits-again')) reconcileAgain(ctx, payout);
  const shown =
    payout.status === 'FAILED' && ctx.fault('state-payout-reopens')
      ? { ...payout, status: 'PROCESSING' as const, utrNumber: '', message: 'Payout re-queued for retry' }
      : payout;
  return successResponse(payoutRecord(shown, ctx.fault), 'Payout status fetched successfully');
};

/** Payouts whose amount the `money-status-debits-again` fault took a second time. */
const takenAgain = new WeakSet<Payout>();

/** The fault: a status read reconciles a payout over 10 s old with the bank by running its settlement
 *  again, which takes the amount once more; no record says so. */
function reconcileAgain(ctx: OperationContext, payout: Payout): void {
  const wallet = ctx.store.wallets.get(payout.walletId);
  if (!payout.amountDebited || ctx.now() - payout.createdAt <= 10_000 || wallet === undefined || takenAgain.has(payout)) return;
  takenAgain.add(payout);
  wallet.balanceMinor -= payout.amountMinor;
}

/** P-OPS: Balance Inquiry, `{ svc_wallet_id }` → `{ wallet_id, balance, currency }`. */
export const balanceInquiry: OperationHandler = (ctx) => {
  requireSchema('balance-inquiry-request', ctx.body);
  const wallet = lookupWallet(ctx, ctx.body.svc_wallet_id as string, ctx.fault('tenant-balance'));
  if ('refused' in wallet) throw new OperationError(403, wallet.message);
  return successResponse(
    { wallet_id: wallet.id, balance: minorToText(wallet.balanceMinor), currency: wallet.currency },
    'Balance fetched successfully',
  );
};

/** Schema check of Transaction Initiation; under its fault the transfer mode's table is not consulted. */
function requireInitiationSchema(ctx: OperationContext): TransactionInitiationRequest {
  const body = ctx.body;
  if (isValid('transaction-initiation-request', body)) return body;
  const errors = validateSchema('transaction-initiation-request', body).errors.filter(
    (e) => !(ctx.fault('ops-transfer-mode-unchecked') && e.instancePath === '/transfer_mode' && e.keyword === 'enum'),
  );
  if (errors.length > 0) {
    if (ctx.fault('money-debit-before-validation')) debitAsOfLedger(ctx);
    throw new OperationError(400, describeErrors(errors.slice(0, 1)));
  }
  // Only under that fault: the body is the schema's but for a transfer mode off the table.
  return body as unknown as TransactionInitiationRequest;
}

/** Under `money-debit-before-validation`: a ledger step ahead of validation takes the amount asked from the
 *  merchant's own wallet, and the 400 that follows leaves it taken. */
function debitAsOfLedger(ctx: OperationContext): void {
  const wallet = ctx.store.wallets.get(String(ctx.body.svc_wallet_id));
  if (wallet === undefined || wallet.merchantId !== ctx.merchant.id) return;
  try {
    wallet.balanceMinor -= amountInMinorUnits(ctx.body.amount, wallet.currency, 'amount');
  } catch {
    // No amount to read: nothing taken.
  }
}

/** Transaction Initiation (P-OPS-3, P-OPS-4): synchronous from duplicate check to insert, so concurrent
 * initiations cannot interleave (P-OPS-5, P-MONEY-3); each race fault puts an await in it. */
export const transactionInitiation: OperationHandler = async (ctx) => {
  refuseAmountForm(ctx, 'amount', { string: 'ops-amount-string-refused' });
  const request = requireInitiationSchema(ctx);
  refuseLongId(ctx, 'payout_order_id', request.payout_order_id);
  const amountMinor = amountInMinorUnits(request.amount, request.currency, 'amount');
  if (amountMinor > PAYOUT_LIMIT_MINOR) {
    throw new OperationError(
      422,
      `amount ${String(request.amount)} exceeds the sandbox's per-payout limit of ${minorToText(PAYOUT_LIMIT_MINOR)}`,
    );
  }
  const wallet = lookupWallet(ctx, request.svc_wallet_id, ctx.fault('tenant-initiate'));
  if ('refused' in wallet) {
    const foreign = ctx.store.wallets.get(request.svc_wallet_id);
    if (wallet.refused === 'merchant' && foreign !== undefined && ctx.fault('tenant-initiate-fee'))
      foreign.balanceMinor -= amountMinor + REFUSAL_FEE_MINOR;
    throw new OperationError(403, wallet.message);
  }
  const payoutOrderId = String(request.payout_order_id);
  // A forgotten payout's payout_order_id stays used too (P-DUP-5).
  const used =
    ctx.store.payout(ctx.merchant.id, payoutOrderId) !== undefined || ctx.store.forgotten('payout', ctx.merchant.id, payoutOrderId);
  if (used && !ctx.fault('ops-initiate-duplicate')) {
    if (ctx.fault('money-duplicate-debits') && amountMinor <= wallet.balanceMinor) wallet.balanceMinor -= amountMinor;
    throw new OperationError(409, `duplicate payout_order_id: ${payoutOrderId} was already used by this merchant`);
  }
  if (request.currency !== wallet.currency) {
    throw new OperationError(422, `currency not enabled for this wallet: ${request.currency} (this wallet pays out in ${wallet.currency})`);
  }
  if (ctx.fault('ops-initiate-race')) await sleep(ctx.options.raceWindowMs);

  const settlementDebit = ctx.options.variant.debitAt === 'settlement';
  // What the wallet can still pay: its balance less what payouts in flight will take when they settle.
  const available = wallet.balanceMinor - (settlementDebit ? reservedMinor(ctx.store, wallet.id) : 0);
  // The `payout-failed` scenario: this one payout fails as if the wallet were short, whatever its amount.
  const forcedFailure = ctx.options.scenarios.take('payout-failed', ctx.merchant.id);
  const outcome = forcedFailure ? insufficientBalanceOutcome() : initiationOutcome(amountMinor, fundsCheckedAgainst(ctx, available));
  if (outcome.failure === 'insufficient-balance' && ctx.fault('ops-failed-as-error')) throw new OperationError(422, outcome.message);
  // The fault: the funds check and the debit are apart (a slow ledger write), so concurrent payouts all
  // pass the check; 50 ms, wide enough for a burst of eight on a loaded machine.
  if (ctx.fault('money-overdraft-race')) await sleep(50);
  // Under `ops-failed-debits` the debit is taken before the funds check and never restored, so a
  // payout FAILED for either reason still lowers the balance, which may go negative.
  const debit = outcome.debited ? !ctx.fault('ops-balance-not-debited') : ctx.fault('ops-failed-debits');
  if (debit && !(outcome.debited && settlementDebit)) wallet.balanceMinor -= debitedMinor(ctx, amountMinor, wallet);

  const payout = newPayout(ctx, payoutOrderId, wallet, amountMinor, outcome);
  if (outcome.debited && settlementDebit && !ctx.fault('ops-balance-not-debited')) debitAtSettlement(payout);
  if (outcome.status === 'PROCESSING') ctx.later(ctx.options.settleSeconds * 1000, () => settleIfDue(payout, Infinity, ctx.store));
  ctx.store.putPayout(payout);
  ctx.store.changed({ payout });
  const answered = ctx.fault('state-payout-id-reallocated') ? { ...payout, payoutId: ctx.store.nextId('PAY') } : payout;
  const response = successResponse(payoutRecord(answered, ctx.fault), 'Payout initiated');
  return forcedFailure ? ctx.options.scenarios.mark(response, 'payout-failed') : response;
};

function newPayout(ctx: OperationContext, payoutOrderId: string, wallet: Wallet, amountMinor: number, outcome: InitiationOutcome): Payout {
  const now = ctx.now();
  return {
    merchantId: ctx.merchant.id,
    payoutId: ctx.store.nextId('PAY'),
    payoutOrderId,
    walletId: wallet.id,
    status: outcome.status,
    amountMinor,
    currency: wallet.currency,
    utrNumber: outcome.status === 'FAILED' ? 'NA' : '',
    message: outcome.message,
    // debitAt 'settlement': the record says NO until the payout settles SUCCESS (P-OPS-4).
    amountDebited: outcome.debited && ctx.options.variant.debitAt !== 'settlement',
    createdAt: now,
    ...(outcome.status === 'PROCESSING' ? { settlesAt: now + ctx.options.settleSeconds * 1000 } : {}),
  };
}

/** What the funds check compares a payout with: the payable amount, one minor unit less under
 * `money-exact-balance-refused`, one more under `money-rounding-tolerance`. */
function fundsCheckedAgainst(ctx: OperationContext, availableMinor: number): number {
  if (ctx.fault('money-exact-balance-refused')) return availableMinor - 1;
  return ctx.fault('money-rounding-tolerance') ? availableMinor + 1 : availableMinor;
}

/** What a payout takes from the wallet: its amount, or under `ops-debit-whole-units` the amount cut to whole units. */
function debitedMinor(ctx: OperationContext, amountMinor: number, wallet: Wallet): number {
  if (!ctx.fault('ops-debit-whole-units')) return amountMinor;
  const unit = 10 ** minorUnitOf(wallet.currency);
  return amountMinor - (amountMinor % unit);
}

/** POST /sandbox/payouts/settle, signed like the API: `{ payout_order_id, status }` moves PENDING/PROCESSING
 * to SUCCESS or FAILED, or SUCCESS to REVERSED. */
export const settlePayout: OperationHandler = (ctx) => {
  const { payout_order_id: id, status } = ctx.body;
  if (!((typeof id === 'string' && id !== '') || Number.isSafeInteger(id))) {
    throw new OperationError(400, 'payout_order_id must be an integer or a non-empty string');
  }
  if (!(SETTLEMENT_TARGETS as readonly unknown[]).includes(status)) {
    throw new OperationError(400, `status must be one of ${SETTLEMENT_TARGETS.join(', ')}`);
  }
  const payout = ctx.store.payout(ctx.merchant.id, id as string | number);
  if (payout === undefined) throw new OperationError(404, PAYOUT_NOT_FOUND);
  settleIfDue(payout, ctx.now(), ctx.store);
  const refusal = settle(payout, status as SettlementTarget, ctx.store, ctx.fault('ops-failed-debits'));
  if (refusal !== undefined) throw new OperationError(422, refusal);
  const wallet = ctx.store.wallets.get(payout.walletId);
  if (status === 'REVERSED' && wallet !== undefined && ctx.fault('money-reversal-not-refunded')) wallet.balanceMinor -= payout.amountMinor;
  return successResponse(payoutRecord(payout, ctx.fault), `Payout moved to ${payout.status}`);
};
