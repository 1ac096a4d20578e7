// The wallet (P-MONEY-2..4, extension: they rest on P-OPS's Balance Inquiry and Transaction
// Initiation). The boundary and overdraft checks drain a wallet, so they run on the run's spare
// wallet (spare-wallet.ts), never the merchant's own; the refused-request check measures the
// merchant's own wallet as wallet.ts does, in the wallet lane, so another run's traffic is never
// blamed on the target.
import { minorUnitOf } from '../../schemas/amounts.js';
import { CURRENCIES, type Currency } from '../../schemas/types.js';
import { CheckFailure, CheckSkipped, answered, expectThat, type Check, type CheckContext } from '../check.js';
import { concurrencyOf } from '../config.js';
import type { Exchange } from '../http.js';
import { decimalMinus, decimalOf, decimalText, expectData, initiatePayout, payoutRequest, payoutStatus, type Decimal } from './requests.js';
import { WALLET } from './operations.js';
import { spareWallet } from './spare-wallet.js';
import { amountNumber, balanceChange, decimalPlus, ownAmount, walletCurrency } from './wallet.js';

type Json = Record<string, unknown>;

const ZERO: Decimal = { units: 0n, scale: 0 };
const SETTLING: readonly unknown[] = ['PROCESSING', 'PENDING'];

/** A wallet's balance read with Balance Inquiry (any wallet of the merchant). */
async function walletBalance(ctx: CheckContext, walletId: string, label: string): Promise<{ balance: Decimal; currency: Currency; exchange: Exchange }> {
  const { method, path } = ctx.operation('balanceInquiry');
  const exchange = await ctx.send({ label, method, path, payload: { svc_wallet_id: walletId } });
  const data = expectData(exchange, `${label}: Balance Inquiry of the spare wallet must answer its balance`);
  const balance = decimalOf(data.balance);
  if (balance === undefined || !(CURRENCIES as readonly unknown[]).includes(data.currency)) {
    throw new CheckFailure(`${label}: Balance Inquiry answered balance ${JSON.stringify(data.balance)} ${JSON.stringify(data.currency)}, not decimal text and a currency of the table`, { actual: answered(exchange), exchange });
  }
  return { balance: { units: balance.units * 10n ** BigInt(Math.max(0, minorUnitOf(data.currency as Currency) - balance.scale)), scale: Math.max(balance.scale, minorUnitOf(data.currency as Currency)) }, currency: data.currency as Currency, exchange };
}

/** The balance must be above zero for a wallet check to say anything. */
function requireFunds(balance: Decimal, label: string): void {
  if (balance.units <= 0n) throw new CheckSkipped(`not judged: the spare wallet (${label}) holds ${decimalText(balance)}: nothing left to pay out; give fixtures.spareWallet a wallet with a small balance`);
}

/** One minor unit of a balance's scale. */
const minorUnit = (d: Decimal): Decimal => ({ units: 1n, scale: d.scale });

/** The payout record of a 2xx initiation, or a failure naming the answer. */
function recordOf(exchange: Exchange, why: string): Json {
  return expectData(exchange, why, [200, 201]);
}

/** Polls Payout Status (naming the payout's wallet) until the payout leaves PROCESSING/PENDING; undefined at the deadline. */
async function settled(ctx: CheckContext, payoutOrderId: string, walletId: string, label: string): Promise<Json | undefined> {
  const deadline = ctx.clock.now() + 12_000;
  for (;;) {
    const record = expectData(await payoutStatus(ctx, payoutOrderId, label, { walletId }), `${label}: Payout Status of the payout`);
    if (!SETTLING.includes(record.status)) return record;
    if (ctx.clock.now() + 250 > deadline) return undefined;
    await ctx.clock.sleep(250);
  }
}

/**
 * MONEY-EXACT-BALANCE (P-MONEY-2): one minor unit more than the balance is a FAILED record; then the
 * whole balance, read again just before, is accepted. Another run sharing a configured spare wallet
 * can only drain it, which makes the first payout more over the balance still; a whole-balance payout
 * that FAILED while the balance moved is "not judged", never failed.
 */
async function exactBalance(ctx: CheckContext): Promise<void> {
  const { walletId, source } = await spareWallet(ctx);
  const before = await walletBalance(ctx, walletId, `the spare wallet's balance (${source})`);
  requireFunds(before.balance, source);
  const over = decimalPlus(before.balance, minorUnit(before.balance));
  const overBody = payoutRequest(ctx, amountNumber(over), before.currency, { svc_wallet_id: walletId });
  const overAnswer = await initiatePayout(ctx, overBody, `initiate ${decimalText(over)} ${before.currency}: one minor unit more than the balance`);
  const overRecord = recordOf(overAnswer, 'a payout one minor unit beyond the balance must answer a payout record (P-OPS-3)');
  expectThat(overRecord.status === 'FAILED' && overRecord.amount_debited === 'NO', `a payout of ${decimalText(over)}, one minor unit more than the balance ${decimalText(before.balance)}, was ${JSON.stringify(overRecord.status)}, not FAILED for insufficient balance (P-MONEY-2)`, {
    expected: 'status FAILED, amount_debited NO', actual: answered(overAnswer), exchange: overAnswer,
  });

  const whole = await walletBalance(ctx, walletId, 'the spare wallet\'s balance just before paying all of it');
  requireFunds(whole.balance, source);
  const body = payoutRequest(ctx, amountNumber(whole.balance), whole.currency, { svc_wallet_id: walletId });
  const exchange = await initiatePayout(ctx, body, `initiate ${decimalText(whole.balance)} ${whole.currency}: exactly the whole balance`);
  const record = recordOf(exchange, 'a payout of the whole balance must answer a payout record (P-OPS-3)');
  if (record.status !== 'FAILED') return;
  const after = await walletBalance(ctx, walletId, 'the spare wallet\'s balance after the refused whole-balance payout');
  if (after.balance.units !== whole.balance.units || after.balance.scale !== whole.balance.scale) {
    throw new CheckSkipped(`not judged: the whole-balance payout FAILED while the spare wallet moved from ${decimalText(whole.balance)} to ${decimalText(after.balance)} by activity this run did not make (P-MONEY-1)`);
  }
  throw new CheckFailure(`a payout of exactly the whole balance ${decimalText(whole.balance)} ${whole.currency} was FAILED (${JSON.stringify(record.message)}); the balance stayed ${decimalText(after.balance)} (P-MONEY-2)`, {
    expected: 'the payout accepted (PROCESSING, PENDING or SUCCESS)', actual: answered(exchange), exchange,
  });
}

/**
 * MONEY-NO-OVERDRAFT (P-MONEY-3): N payouts at once, distinct ids, each 2/(N-1) of the balance, so
 * together well beyond it. The accepted ones sum to at most the balance read just before (another
 * run can only lower it), the rest are FAILED, and once they have settled the balance is not negative.
 */
async function noOverdraft(ctx: CheckContext): Promise<void> {
  const { walletId, source } = await spareWallet(ctx);
  const n = Math.max(3, concurrencyOf(ctx.config));
  const before = await walletBalance(ctx, walletId, `the spare wallet's balance (${source})`);
  requireFunds(before.balance, source);
  const each: Decimal = { units: (before.balance.units * 2n) / BigInt(n - 1), scale: before.balance.scale };
  if (each.units <= 0n) throw new CheckSkipped(`not judged: the spare wallet's balance ${decimalText(before.balance)} is too small to split into ${n} payouts`);
  const bodies = Array.from({ length: n }, () => payoutRequest(ctx, amountNumber(each), before.currency, { svc_wallet_id: walletId }));
  // Open the connections first, so the payouts leave together (see DUP-CONCURRENT in duplicates.ts).
  await Promise.all(bodies.map((_, i) => payoutStatus(ctx, ctx.ids.payoutOrderId('WARM'), `connection ${i + 1} of ${n} opened before the race`, { walletId })));
  const exchanges = await Promise.all(bodies.map((body, i) => initiatePayout(ctx, body, `concurrent payout ${i + 1} of ${n}: ${decimalText(each)} ${before.currency}`)));
  const records = exchanges.map((x, i) => recordOf(x, `concurrent payout ${i + 1} of ${n} must answer a payout record (P-OPS-3)`));
  const accepted = records.filter((r) => r.status !== 'FAILED');
  const acceptedSum: Decimal = { units: each.units * BigInt(accepted.length), scale: each.scale };
  const statuses = records.map((r) => String(r.status)).join(', ');
  expectThat(decimalMinus(before.balance, acceptedSum).units >= 0n, `of ${n} concurrent payouts of ${decimalText(each)} each, ${accepted.length} were accepted: ${decimalText(acceptedSum)}, more than the balance ${decimalText(before.balance)} (P-MONEY-3)`, {
    expected: `at most ${decimalText(before.balance)} accepted in all`, actual: `statuses ${statuses}`, exchange: exchanges[records.indexOf(accepted[accepted.length - 1]!)]!,
  });
  const debitedFailure = exchanges.find((_, i) => records[i]!.status === 'FAILED' && records[i]!.amount_debited !== 'NO');
  if (debitedFailure !== undefined) {
    throw new CheckFailure('a payout FAILED for insufficient balance says amount_debited YES (P-MONEY-3, P-PAYOUT-3)', { expected: 'amount_debited NO', actual: answered(debitedFailure), exchange: debitedFailure });
  }
  // A server that debits at settlement overdraws only when the payouts settle: wait for them.
  for (const record of accepted) await settled(ctx, String(record.payout_order_id), walletId, 'Payout Status until the accepted payout settles');
  const after = await walletBalance(ctx, walletId, 'the spare wallet\'s balance once the payouts settled');
  expectThat(after.balance.units >= 0n, `after ${n} concurrent payouts the spare wallet's balance is ${decimalText(after.balance)}: overdrawn (P-MONEY-3)`, {
    expected: 'a balance of zero or more', actual: answered(after.exchange), exchange: after.exchange,
  });
}

const PAYOUT_FIELDS = ['payout_id', 'payout_order_id', 'status', 'amount', 'currency', 'amount_debited'] as const;

/**
 * MONEY-REFUSED-NO-EFFECT (P-MONEY-4): refused initiations (400 validation, 409 duplicate of a settled
 * payout, 403 other environment's wallet and another merchant's wallet where configured), each of the
 * try's own amount, leave the merchant's balance as it was (judged as wallet.ts judges a change) and
 * the first payout as it was.
 */
async function refusedMovesNothing(ctx: CheckContext): Promise<void> {
  const currency = await walletCurrency(ctx);
  const first = payoutRequest(ctx, amountNumber(ownAmount(ctx, currency)), currency);
  const firstAnswer = await initiatePayout(ctx, first, 'the first payout, whose payout_order_id the duplicates reuse');
  recordOf(firstAnswer, 'the first payout must be accepted');
  // Settled first, so no debit of its own lands while the balance is measured.
  const firstRecord = await settled(ctx, first.payout_order_id as string, ctx.config.merchant.walletId, 'Payout Status until the first payout settles');
  if (firstRecord === undefined) throw new CheckSkipped('not judged: the first payout was still PROCESSING or PENDING after 12 s, so the balance could not be measured without its own debit');

  await balanceChange(ctx, 'P-MONEY-4', async (before, n) => {
    const amount = ownAmount(ctx, before.currency);
    const value = amountNumber(amount);
    const suffix = n > 1 ? ` (try ${n})` : '';
    const refusals: Array<{ body: Json; label: string }> = [
      { body: payoutRequest(ctx, value, before.currency, { transfer_mode: 'paypal' }), label: `initiate ${decimalText(amount)} with transfer_mode "paypal" (a 400)${suffix}` },
      { body: { ...first, amount: value }, label: `initiate ${decimalText(amount)} again with the first payout's payout_order_id (a 409)${suffix}` },
    ];
    if (ctx.config.otherEnvironment?.walletId) refusals.push({ body: payoutRequest(ctx, value, before.currency, { svc_wallet_id: ctx.config.otherEnvironment.walletId }), label: `initiate ${decimalText(amount)} from the other environment's wallet (a 403)${suffix}` });
    if (ctx.config.otherMerchant?.walletId) refusals.push({ body: payoutRequest(ctx, value, before.currency, { svc_wallet_id: ctx.config.otherMerchant.walletId }), label: `initiate ${decimalText(amount)} from another merchant's wallet (a 403)${suffix}` });
    for (const { body, label } of refusals) {
      const exchange = await initiatePayout(ctx, body, label);
      const status = exchange.response?.status ?? 0;
      // Accepted: not a refusal, so nothing here to judge (OPS-INITIATE-*, TENANT-INITIATE judge the acceptance).
      if (status < 400 || status > 499) return { unusable: `${label} answered ${exchange.error ? 'no answer' : `HTTP ${status}`}, not a refusal` };
    }
    return { amount, expected: ZERO };
  });

  const later = expectData(await payoutStatus(ctx, first.payout_order_id as string, 'Payout Status of the first payout after the refused requests'), 'Payout Status of the first payout must answer its record');
  const changed = PAYOUT_FIELDS.filter((field) => later[field] !== firstRecord[field]);
  expectThat(changed.length === 0, `after refused requests the first payout changed: ${changed.map((f) => `${f} ${JSON.stringify(later[f])} (was ${JSON.stringify(firstRecord[f])})`).join(', ')} (P-MONEY-4)`, {
    expected: 'the first payout as it was', actual: JSON.stringify(later),
  });
}

const BALANCE = 'profile.operations.balanceInquiry' as const;
const INITIATION = 'profile.operations.transactionInitiation' as const;
/** The spare wallet's lane: with a configured fixture both checks drain one wallet, so one after the other (the overdraft check, alone, first). */
const SPARE = 'spare-wallet';

export const moneyChecks: Check[] = [
  {
    id: 'money-no-overdraft', requirement: 'MONEY-NO-OVERDRAFT', title: 'concurrent payouts beyond the spare wallet\'s balance never overdraw it',
    needs: [BALANCE, INITIATION], creates: true, alone: true, keepAllEvidence: true, lane: SPARE, run: noOverdraft,
  },
  { id: 'money-exact-balance', requirement: 'MONEY-EXACT-BALANCE', title: 'one minor unit over the balance is FAILED; exactly the whole balance is accepted', needs: [BALANCE, INITIATION], creates: true, lane: SPARE, run: exactBalance },
  { id: 'money-refused-no-effect', requirement: 'MONEY-REFUSED-NO-EFFECT', title: 'refused initiations (400, 409, 403) move no money and leave the first payout as it was', needs: [BALANCE, INITIATION], creates: true, lane: WALLET, run: refusedMovesNothing },
];
