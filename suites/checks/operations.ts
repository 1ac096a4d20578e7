// The profile's wallet operations (P-OPS, an extension): Balance Inquiry and Transaction Initiation.
// One "wallet" lane, balance checks first, so no payout of this run is settling while a balance is compared.
import { decimalPlus, minorUnitOf } from '../../schemas/amounts.js';
import { requiredPaths } from '../../schemas/field-order.js';
import type { Currency } from '../../schemas/types.js';
import { expectSchema, expectStatus, expectThat, type Check, type CheckContext, type Need } from '../check.js';
import { orderOperationChecks } from './order-operations.js';
import type { Exchange } from '../http.js';
import {
  afterSettleWait,
  balanceInquiry,
  dataOf,
  type Decimal,
  decimalEquals,
  decimalOf,
  decimalText,
  expectData,
  expectRecord,
  initiatePayout,
  isSuccess,
  payoutRequest,
  payoutStatus,
  settledPayout,
  type Json,
} from '../requests.js';
import { amountNumber, balanceChange, debitTaken, ownAmount, readBalance, unlessOtherActivity, walletCurrency, ZERO } from '../wallet.js';
import { shown } from './shown.js';

/** Initiates a payout that must be accepted (a 2xx with a payout record); returns the record. */
async function initiated(ctx: CheckContext, body: Json, label: string): Promise<{ record: Json; exchange: Exchange }> {
  const exchange = await initiatePayout(ctx, body, label);
  const record = expectData(exchange, `${label}: Transaction Initiation must answer a payout record (P-OPS-3)`, [200, 201]);
  expectRecord(exchange, record, 'payout-record', `${label}: the initiated payout (P-OPS-3, P-PAYOUT-1)`);
  return { record, exchange };
}

async function balance(ctx: CheckContext): Promise<void> {
  const exchange = await balanceInquiry(ctx, 'Balance Inquiry of the merchant wallet');
  expectStatus(exchange, [200], "Balance Inquiry of the merchant's wallet must answer 200 (P-OPS)");
  const record = expectSchema(exchange, 'success-envelope', 'Balance Inquiry (P-OPS)').data;
  expectRecord(exchange, record, 'balance-record', 'Balance Inquiry (P-OPS)');
}

async function balanceDebited(ctx: CheckContext): Promise<void> {
  await balanceChange(ctx, 'P-OPS-4', async (before, suffix) => {
    const amount = ownAmount(ctx, before.currency);
    const body = payoutRequest(ctx, amountNumber(amount), before.currency);
    const { record } = await initiated(ctx, body, `initiate a payout of ${decimalText(amount)} ${before.currency}${suffix}`);
    return debitOf(ctx, record, body.payout_order_id as string, amount, 'payout');
  });
}

/** A try of an accepted payout (wallet.ts): its debit, once taken (a record that says amount_debited NO
 *  is waited for until it settles), else why the debit of a successful payout could not be observed. */
export async function debitOf(ctx: CheckContext, record: Json | undefined, payoutOrderId: string, amount: Decimal, what: string) {
  if (debitTaken(record)) return { amount, expected: amount };
  const settled = await settledPayout(ctx, payoutOrderId, `Payout Status until the ${what} settles`);
  if (settled === undefined)
    return {
      unusable: `the ${what} was still PROCESSING or PENDING with amount_debited NO ${afterSettleWait(ctx)}: its debit could not be observed`,
    };
  if (settled.status !== 'SUCCESS')
    return { unusable: `the ${what} ended ${String(settled.status)}, not SUCCESS: its debit could not be observed` };
  return { amount, expected: amount };
}

/** Every field of the payout record (interface: Payout record), as its schema lists them. */
const PAYOUT_FIELDS = requiredPaths('payout-record');

async function initiateInsufficient(ctx: CheckContext): Promise<void> {
  const before = await readBalance(ctx, 'balance before the payout');
  const whole = before.balance.units < 0n ? 0n : before.balance.units / 10n ** BigInt(before.balance.scale);
  const body = payoutRequest(ctx, Number(whole + 1n), before.currency);
  const exchange = await initiatePayout(ctx, body, `initiate ${String(body.amount)} ${before.currency}, more than the balance`);
  const record = expectData(exchange, 'insufficient balance must answer a payout record, not an error envelope (P-OPS-3)', [200, 201]);
  expectRecord(exchange, record, 'payout-record', 'the payout initiated without funds (P-OPS-3)');
  const details = shown(exchange, 'status FAILED, amount_debited NO, utr_number NA, a reason in message');
  // Taken: the balance may have risen since it was read, by another run's doing (P-CLI).
  if (record.status !== 'FAILED') await unlessOtherActivity(ctx, `the payout beyond the balance as read is ${String(record.status)}`);
  // The schema (read above) holds a FAILED record to amount_debited NO, utr_number NA and a message.
  expectThat(
    record.status === 'FAILED',
    `a payout beyond the balance must be FAILED with amount_debited NO and utr_number NA (P-OPS-3)`,
    details,
  );
  expectThat(
    record.payout_order_id === body.payout_order_id,
    `payout_order_id came back as ${JSON.stringify(record.payout_order_id)} (P-PAYOUT-2)`,
    details,
  );
  const status = await payoutStatus(ctx, body.payout_order_id, 'Payout Status of the FAILED payout');
  const later = expectData(status, 'Payout Status of the FAILED payout must answer its record (P-OPS-3)');
  const differs = PAYOUT_FIELDS.filter((field) => later[field] !== record[field]);
  expectThat(
    differs.length === 0,
    `Payout Status returned a different record: ${differs.map((f) => `${f} ${JSON.stringify(later[f])} (was ${JSON.stringify(record[f])})`).join(', ')} (P-OPS-3)`,
    shown(status, 'the record Transaction Initiation answered'),
  );
}

async function balanceUnchangedOnFailure(ctx: CheckContext): Promise<void> {
  await balanceChange(ctx, 'P-OPS-4', async (before) => {
    // Beyond the balance by an amount of this run's own, so each try's payout differs (see wallet.ts).
    const amount = decimalPlus(before.balance.units < 0n ? ZERO : before.balance, ownAmount(ctx, before.currency));
    const body = payoutRequest(ctx, amountNumber(amount), before.currency);
    const exchange = await initiatePayout(ctx, body, `initiate ${String(body.amount)} ${before.currency}, more than the balance`);
    let record = isSuccess(exchange) ? dataOf(exchange) : undefined;
    if (record?.status === 'PROCESSING' || record?.status === 'PENDING')
      record = await settledPayout(ctx, body.payout_order_id as string, 'Payout Status until the payout settles');
    if (record?.status !== 'FAILED') {
      return {
        unusable: `a payout beyond the balance did not end FAILED (${record ? `it is ${String(record.status)}` : `answered HTTP ${exchange.response?.status ?? 0}`}; see OPS-INITIATE-INSUFFICIENT), so there is no failed payout to check`,
      };
    }
    return { amount, expected: ZERO };
  });
}

/** An amount of this run's own, never a constant: another run's payouts of one fixed amount would move
 *  the balance alike in each try of a wallet rule, which wallet.ts could not tell from a fault. */
async function ownPayout(ctx: CheckContext): Promise<{ currency: Currency; amount: Decimal }> {
  const currency = await walletCurrency(ctx);
  return { currency, amount: ownAmount(ctx, currency) };
}

async function initiate(ctx: CheckContext): Promise<void> {
  const { currency, amount } = await ownPayout(ctx);
  const body = payoutRequest(ctx, amountNumber(amount), currency);
  const { record, exchange } = await initiated(ctx, body, `initiate a payout of ${decimalText(amount)} ${currency}`);
  expectThat(
    record.payout_order_id === body.payout_order_id,
    `payout_order_id came back as ${JSON.stringify(record.payout_order_id)} (P-PAYOUT-2)`,
    shown(exchange),
  );
  const status = await payoutStatus(ctx, body.payout_order_id as string, 'Payout Status of the new payout');
  expectStatus(status, [200], 'Payout Status of an initiated payout must answer 200 (P-OPS-3, P-PAYOUT-1)');
  const later = expectSchema(status, 'payout-status-envelope', 'Payout Status of the new payout (P-PAYOUT-1)').data;
  expectThat(
    later.payout_order_id === body.payout_order_id,
    `Payout Status answered payout_order_id ${JSON.stringify(later.payout_order_id)}, not the new payout's (P-PAYOUT-2)`,
    shown(status),
  );
}

/** P-AMOUNT-1/3: an amount of the run's own as a decimal string with the wallet currency's decimals
 *  ("1.37" for INR, "7" for JPY), accepted and answered as the same amount, compared by value. */
async function initiateAmountForms(ctx: CheckContext): Promise<void> {
  const { currency, amount: own } = await ownPayout(ctx);
  const amount = decimalText(own, minorUnitOf(currency));
  const body = payoutRequest(ctx, amount, currency);
  const { record, exchange } = await initiated(ctx, body, `initiate a payout of ${JSON.stringify(amount)} ${currency} (a decimal string)`);
  const answeredAmount = decimalOf(record.amount);
  expectThat(
    answeredAmount !== undefined && decimalEquals(answeredAmount, own),
    `the payout of ${JSON.stringify(amount)} answers amount ${JSON.stringify(record.amount)}, not the same amount (P-AMOUNT-3)`,
    shown(exchange, `amount equal to ${amount} by value`),
  );
}

async function initiateDuplicate(ctx: CheckContext): Promise<void> {
  const { currency, amount } = await ownPayout(ctx);
  const body = payoutRequest(ctx, amountNumber(amount), currency);
  await initiated(ctx, body, `initiate a payout of ${decimalText(amount)}`);
  const again = await initiatePayout(ctx, { ...body, amount: 2 }, 'initiate again with the same payout_order_id');
  expectStatus(again, [409], 'a repeated payout_order_id must answer 409 (P-OPS-3)');
}

async function transferMode(ctx: CheckContext): Promise<void> {
  const body = payoutRequest(ctx, 1, await walletCurrency(ctx), { transfer_mode: 'paypal' });
  const exchange = await initiatePayout(ctx, body, 'initiate with transfer_mode "paypal"');
  expectStatus(exchange, [400], "a transfer_mode outside the interface's table must answer 400 (P-OPS-3)");
}

async function initiateOtherEnvironment(ctx: CheckContext): Promise<void> {
  const body = payoutRequest(ctx, 1, await walletCurrency(ctx), { svc_wallet_id: ctx.config.otherEnvironment!.walletId });
  const exchange = await initiatePayout(ctx, body, "initiate from the other environment's wallet");
  expectStatus(exchange, [403], 'a wallet of the other environment must answer 403 (P-OPS-3, P-ENV-2)');
}

export const BALANCE = 'profile.operations.balanceInquiry' as const;
export const INITIATION = 'profile.operations.transactionInitiation' as const;
/** The lane of the checks that read or move the wallet's balance (webhooks.ts's payouts take it too). */
export const WALLET = 'wallet';

/** A check that makes payouts: in the wallet lane, and refused against production without --allow-production (P-ENV-3). */
export function paying(id: string, requirement: string, title: string, needs: readonly Need[], run: Check['run']): Check {
  return { id, requirement, title, needs, creates: true, lane: WALLET, run };
}

/** One that makes payouts and compares no balance: beside the others like it (Check.addsOnly). */
export const adding = (...args: Parameters<typeof paying>): Check => ({ ...paying(...args), addsOnly: true });

export const operationChecks: Check[] = [
  {
    id: 'ops-balance',
    requirement: 'OPS-BALANCE',
    title: 'Balance Inquiry answers wallet_id, decimal balance text and currency',
    needs: [BALANCE],
    lane: WALLET,
    run: balance,
  },
  paying(
    'ops-balance-debited',
    'OPS-BALANCE-DEBITED',
    'after a successful payout the balance is lower by exactly its amount',
    [BALANCE, INITIATION],
    balanceDebited,
  ),
  paying(
    'ops-balance-unchanged-on-failure',
    'OPS-BALANCE-UNCHANGED-ON-FAILURE',
    'a payout FAILED for insufficient balance leaves the balance unchanged',
    [BALANCE, INITIATION],
    balanceUnchangedOnFailure,
  ),
  paying(
    'ops-initiate-insufficient',
    'OPS-INITIATE-INSUFFICIENT',
    'a payout beyond the balance is a FAILED record, returned again by Payout Status',
    [BALANCE, INITIATION],
    initiateInsufficient,
  ),
  adding(
    'ops-initiate',
    'OPS-INITIATE',
    'Transaction Initiation answers a payout record and Payout Status finds it',
    [INITIATION],
    initiate,
  ),
  adding(
    'ops-initiate-amount-forms',
    'OPS-INITIATE-AMOUNT-FORMS',
    'a payout amount sent as a decimal string is accepted and answered by value',
    [BALANCE, INITIATION],
    initiateAmountForms,
  ),
  adding('ops-initiate-duplicate', 'OPS-INITIATE-DUPLICATE', 'a repeated payout_order_id answers 409', [INITIATION], initiateDuplicate),
  adding('ops-initiate-transfer-mode', 'OPS-INITIATE-TRANSFER-MODE', 'transfer_mode "paypal" answers 400', [INITIATION], transferMode),
  adding(
    'ops-initiate-other-environment',
    'OPS-INITIATE-OTHER-ENVIRONMENT',
    "a payout from the other environment's wallet answers 403",
    [INITIATION, 'otherEnvironment.walletId'],
    initiateOtherEnvironment,
  ),
  ...orderOperationChecks,
];
