// The wallet (P-MONEY-2..4, an extension). Boundary and overdraft drain a wallet, so they use the
// spare one (spare-wallet.ts); MONEY-REFUSED-NO-EFFECT measures the merchant's as wallet.ts does.
import { memo } from '../../common/memo.js';
import { minorUnitOf } from '../../schemas/amounts.js';
import { CheckFailure, CheckSkipped, answered, expectThat, type Check, type CheckContext } from '../check.js';
import { concurrencyOf } from '../settings.js';
import type { Exchange } from '../http.js';
import {
  afterSettleWait,
  awaitsSettlement,
  type Decimal,
  decimalEquals,
  decimalMinus,
  decimalPlus,
  decimalText,
  expectData,
  initiatePayout,
  payoutRequest,
  payoutStatus,
  settledPayout,
  settleWithinMs,
  type Json,
} from '../requests.js';
import { BALANCE, INITIATION, paying } from './operations.js';
import { racing, warmConnections } from './races.js';
import { driversOf } from '../drivers.js';
import { spareWallet } from './spare-wallet.js';
import {
  amountNumber,
  balanceChange,
  otherActivityAfterMiss,
  ownAmount,
  readBalance,
  walletCurrency,
  ZERO,
  type Balance,
} from '../wallet.js';
import { shown } from './shown.js';

/** A spare wallet's balance (readBalance, naming the wallet), written to its currency's minor unit so one more minor unit is exact. */
async function spareBalance(ctx: CheckContext, walletId: string, label: string): Promise<Balance> {
  const read = await readBalance(ctx, label, { walletId });
  const minor = minorUnitOf(read.currency);
  const { units, scale } = read.balance;
  return { ...read, balance: { units: units * 10n ** BigInt(Math.max(0, minor - scale)), scale: Math.max(scale, minor) } };
}

/** What drivers.fundWallet is asked to add (AMOUNT): whole units, valid in every currency. */
const FUNDING = '25';

/** The spare wallet's balance to drain, refilled first by drivers.fundWallet when `short` says it holds
 *  too little for the check (P-CFG), and said in the report's notes; still too little, not judged. */
async function balanceToDrain(
  ctx: CheckContext,
  { walletId, source }: { walletId: string; source: string },
  short: (balance: Decimal) => string | undefined,
): Promise<Balance> {
  const read = await spareBalance(ctx, walletId, `the spare wallet's balance (${source})`);
  const why = short(read.balance);
  const fund = driversOf(ctx);
  if (why === undefined) return read;
  if (fund?.has('fundWallet') !== true) throw new CheckSkipped(tooLittle(read.balance, source, why));
  const driven = await fund.drive(ctx, 'fundWallet', { WALLET_ID: walletId, AMOUNT: FUNDING }, 'drivers.fundWallet');
  if (!driven.done) throw new CheckSkipped(`${tooLittle(read.balance, source, why)}; drivers.fundWallet: ${driven.said}`);
  ctx.notice(
    `drivers.fundWallet was asked to add ${FUNDING} ${read.currency} to the spare wallet ${walletId}, which held ${decimalText(read.balance)}`,
  );
  const funded = await spareBalance(ctx, walletId, `the spare wallet's balance after drivers.fundWallet (${source})`);
  const still = short(funded.balance);
  if (still !== undefined)
    throw new CheckSkipped(
      `not judged: drivers.fundWallet exited 0, but the spare wallet still holds too little (${decimalText(funded.balance)}; ${still})`,
    );
  return funded;
}

/** A spare wallet that drivers.fundWallet refills may also be raised by another run at once: a miss is
 *  then not judged when a quiet look sees the wallet move (P-MONEY-1), as for the merchant's wallet. */
async function unlessRaised(ctx: CheckContext, walletId: string, said: string): Promise<void> {
  if (driversOf(ctx)?.has('fundWallet') !== true) return;
  const seen = await otherActivityAfterMiss(ctx, `after ${said}`, { walletId });
  if (seen !== undefined) throw new CheckSkipped(`not judged: other activity on the spare wallet: ${seen}; ${said}`);
}

/** The balance must be above zero for a wallet check to say anything. */
const empty = (balance: Decimal) => (balance.units <= 0n ? 'nothing left to pay out' : undefined);

/** Said on the console as a not-judged reason, so the remedy comes first. */
function tooLittle(balance: Decimal, label: string, why: string): string {
  return `not judged: the spare wallet holds too little (${decimalText(balance)}; ${why}): refill it to a few units (drivers.fundWallet does it for the run), or name another in fixtures.spareWallet (${label})`;
}

/** The payout record of a 2xx initiation, or a failure naming the answer. */
const recordOf = (exchange: Exchange, why: string): Json => expectData(exchange, why, [200, 201]);

/** Whether a record says its amount has not left the wallet yet (P-OPS-4: the debit may wait for settlement). */
const undebited = (record: Json): boolean => record.amount_debited !== 'YES';

/** This run's payouts per spare wallet still in flight, debit to come: a server that debits at settlement
 *  holds them back though Balance Inquiry shows them, so a whole-balance payout may rightly FAIL. */
const inFlight = new WeakMap<object, Map<string, Set<string>>>();

function inFlightOn(ctx: CheckContext, walletId: string): Set<string> {
  const ofRun = memo(inFlight, ctx.runKey, () => new Map<string, Set<string>>());
  return memo(ofRun, walletId, () => new Set<string>());
}

/** Waits (profile.settleWithinSeconds in all, shared by the batch) for payouts on the wallet to settle; returns the payout_order_ids still in flight after that. */
async function unsettled(ctx: CheckContext, walletId: string, ids: readonly string[], label: string): Promise<string[]> {
  const deadline = ctx.clock.now() + settleWithinMs(ctx);
  const left: string[] = [];
  for (const id of ids) {
    const record = await settledPayout(ctx, id, label, { walletId, timeoutMs: Math.max(0, deadline - ctx.clock.now()) });
    if (record === undefined) left.push(id);
  }
  return left;
}

/** MONEY-EXACT-BALANCE (P-MONEY-2). A whole-balance payout that FAILED while the balance moved, or while a
 *  payout of this run was in flight, is "not judged": another run can only drain it (or refill: unlessRaised). */
async function exactBalance(ctx: CheckContext): Promise<void> {
  const spare = await spareWallet(ctx);
  const { walletId, source } = spare;
  const before = await balanceToDrain(ctx, spare, empty);
  const over = decimalPlus(before.balance, { units: 1n, scale: before.balance.scale });
  const overBody = payoutRequest(ctx, amountNumber(over), before.currency, { svc_wallet_id: walletId });
  const overAnswer = await initiatePayout(
    ctx,
    overBody,
    `initiate ${decimalText(over)} ${before.currency}: one minor unit more than the balance`,
  );
  const overRecord = recordOf(overAnswer, 'a payout one minor unit beyond the balance must answer a payout record (P-OPS-3)');
  if (overRecord.status !== 'FAILED')
    await unlessRaised(ctx, walletId, `a payout one minor unit beyond the balance was ${String(overRecord.status)}`);
  expectThat(
    overRecord.status === 'FAILED' && overRecord.amount_debited === 'NO',
    `a payout of ${decimalText(over)}, one minor unit more than the balance ${decimalText(before.balance)}, was ${JSON.stringify(overRecord.status)}, not FAILED for insufficient balance (P-MONEY-2)`,
    shown(overAnswer, 'status FAILED, amount_debited NO'),
  );

  // Judged before the whole balance is read: a payout that settles after the read changes what is available.
  const inFlightHere = inFlightOn(ctx, walletId);
  const label = "Payout Status until this run's earlier payout on the spare wallet settles";
  const pending = await unsettled(ctx, walletId, [...inFlightHere], label);
  for (const id of inFlightHere) if (!pending.includes(id)) inFlightHere.delete(id);
  if (pending.length > 0) {
    throw new CheckSkipped(
      `not judged: the whole balance, since ${pending.length} payout(s) of this run on the spare wallet (${pending.join(', ')}) were still in flight with their debit to come ${afterSettleWait(ctx)}; a server that debits at settlement holds their amounts back from the balance Balance Inquiry shows (P-OPS-4), so a refusal of that balance could be right`,
    );
  }
  const whole = await spareBalance(ctx, walletId, "the spare wallet's balance just before paying all of it");
  if (empty(whole.balance) !== undefined) throw new CheckSkipped(tooLittle(whole.balance, source, empty(whole.balance)!));
  const body = payoutRequest(ctx, amountNumber(whole.balance), whole.currency, { svc_wallet_id: walletId });
  const exchange = await initiatePayout(ctx, body, `initiate ${decimalText(whole.balance)} ${whole.currency}: exactly the whole balance`);
  const record = recordOf(exchange, 'a payout of the whole balance must answer a payout record (P-OPS-3)');
  if (record.status !== 'FAILED') {
    if (awaitsSettlement(record) && undebited(record)) inFlightOn(ctx, walletId).add(String(body.payout_order_id));
    return;
  }
  const after = await spareBalance(ctx, walletId, "the spare wallet's balance after the refused whole-balance payout");
  if (!decimalEquals(after.balance, whole.balance)) {
    // Another run draining a shared spare wallet would explain both, but only once a quiet look saw it (P-MONEY-1).
    const moved = `the whole-balance payout FAILED while the spare wallet moved from ${decimalText(whole.balance)} to ${decimalText(after.balance)}`;
    const seen = await otherActivityAfterMiss(ctx, 'after the whole-balance payout', { walletId });
    if (seen !== undefined) throw new CheckSkipped(`not judged: other activity on the spare wallet: ${seen}; ${moved} (P-MONEY-1)`);
    throw new CheckFailure(`${moved}, and no quiet look at the wallet saw anything else move it (P-MONEY-1, P-MONEY-2)`, {
      expected: `the payout accepted, or FAILED with the balance left at ${decimalText(whole.balance)}`,
      actual: answered(after.exchange),
      exchange,
    });
  }
  throw new CheckFailure(
    `a payout of exactly the whole balance ${decimalText(whole.balance)} ${whole.currency} was FAILED (${JSON.stringify(record.message)}); the balance stayed ${decimalText(after.balance)} (P-MONEY-2)`,
    shown(exchange, 'the payout accepted (PROCESSING, PENDING or SUCCESS)'),
  );
}

/** MONEY-NO-OVERDRAFT (P-MONEY-3): N payouts at once, each 2/(N-1) of the balance; the accepted sum to at
 *  most the balance read just before (another run can only lower it, but see unlessRaised), which never goes negative. */
async function noOverdraft(ctx: CheckContext): Promise<void> {
  const spare = await spareWallet(ctx);
  const { walletId } = spare;
  const n = Math.max(3, concurrencyOf(ctx.config));
  const share = (balance: Decimal) => (balance.units * 2n) / BigInt(n - 1);
  const before = await balanceToDrain(ctx, spare, (b) => empty(b) ?? (share(b) <= 0n ? `too small to split into ${n} payouts` : undefined));
  const each: Decimal = { units: share(before.balance), scale: before.balance.scale };
  const bodies = Array.from({ length: n }, () => payoutRequest(ctx, amountNumber(each), before.currency, { svc_wallet_id: walletId }));
  await warmConnections(ctx, n, walletId);
  const exchanges = await Promise.all(
    bodies.map((body, i) => initiatePayout(ctx, body, `concurrent payout ${i + 1} of ${n}: ${decimalText(each)} ${before.currency}`)),
  );
  const records = exchanges.map((x, i) => recordOf(x, `concurrent payout ${i + 1} of ${n} must answer a payout record (P-OPS-3)`));
  const accepted = records.filter((r) => r.status !== 'FAILED');
  const acceptedSum: Decimal = { units: each.units * BigInt(accepted.length), scale: each.scale };
  const statuses = records.map((r) => String(r.status)).join(', ');
  if (decimalMinus(before.balance, acceptedSum).units < 0n)
    await unlessRaised(ctx, walletId, `${accepted.length} concurrent payouts were accepted, ${decimalText(acceptedSum)} in all`);
  expectThat(
    decimalMinus(before.balance, acceptedSum).units >= 0n,
    `of ${n} concurrent payouts of ${decimalText(each)} each, ${accepted.length} were accepted: ${decimalText(acceptedSum)}, more than the balance ${decimalText(before.balance)} (P-MONEY-3)`,
    {
      expected: `at most ${decimalText(before.balance)} accepted in all`,
      actual: `statuses ${statuses}`,
      exchange: exchanges[records.indexOf(accepted[accepted.length - 1]!)]!,
    },
  );
  const debitedFailure = exchanges.find((_, i) => records[i]!.status === 'FAILED' && records[i]!.amount_debited !== 'NO');
  if (debitedFailure !== undefined) {
    throw new CheckFailure(
      'a payout FAILED for insufficient balance says amount_debited YES (P-MONEY-3, P-PAYOUT-3)',
      shown(debitedFailure, 'amount_debited NO'),
    );
  }
  // A payout whose record says amount_debited YES has taken its debit: the balance shows it now. One
  // that says NO takes it when it settles, so only those are waited for (bounded).
  const ids = accepted.filter(undebited).map((record) => String(record.payout_order_id));
  const inFlightStill = await unsettled(ctx, walletId, ids, 'Payout Status until the accepted payout settles');
  const after = await spareBalance(
    ctx,
    walletId,
    inFlightStill.length === 0
      ? "the spare wallet's balance once the debits were taken"
      : "the spare wallet's balance, payouts still in flight",
  );
  expectThat(
    after.balance.units >= 0n,
    `after ${n} concurrent payouts the spare wallet's balance is ${decimalText(after.balance)}: overdrawn (P-MONEY-3)`,
    shown(after.exchange, 'a balance of zero or more'),
  );
  if (inFlightStill.length > 0) {
    // Remembered, so MONEY-EXACT-BALANCE on this wallet knows their amounts may still be held back.
    for (const id of inFlightStill) inFlightOn(ctx, walletId).add(id);
    throw new CheckSkipped(
      `not judged: whether the balance stays at zero or more once the debits are taken, since ${inFlightStill.length} accepted payout(s) (${inFlightStill.join(', ')}) said amount_debited NO and were still in flight ${afterSettleWait(ctx)} (P-MONEY-3, P-OPS-4); the accepted amounts were at most the balance`,
    );
  }
}

const PAYOUT_FIELDS = ['payout_id', 'payout_order_id', 'status', 'amount', 'currency', 'amount_debited'] as const;
/** The fields a payout still in flight keeps when it settles (P-STATE-2); its status and amount_debited may move on. */
const FIXED_FIELDS = ['payout_id', 'payout_order_id', 'amount', 'currency'] as const;

/** MONEY-REFUSED-NO-EFFECT (P-MONEY-4): refused initiations (400, 409, 403s where configured), each of
 *  the try's own amount, leave the balance (judged as wallet.ts judges a change) and the first payout. */
async function refusedMovesNothing(ctx: CheckContext): Promise<void> {
  const currency = await walletCurrency(ctx);
  const first = payoutRequest(ctx, amountNumber(ownAmount(ctx, currency)), currency);
  const firstAnswer = await initiatePayout(ctx, first, 'the first payout, whose payout_order_id the duplicates reuse');
  const initiated = recordOf(firstAnswer, 'the first payout must be accepted');
  // A debit still to come (amount_debited NO) would land while the balance is measured: wait for the
  // payout to settle first. One already taken (YES) is in the balance now, so no wait is needed.
  const firstRecord =
    undebited(initiated) && awaitsSettlement(initiated)
      ? await settledPayout(ctx, first.payout_order_id as string, 'Payout Status until the first payout settles')
      : initiated;
  if (firstRecord === undefined)
    throw new CheckSkipped(
      `not judged: the first payout was still PROCESSING or PENDING with amount_debited NO ${afterSettleWait(ctx)}, so the balance could not be measured without its own debit`,
    );
  const firstFinal = !awaitsSettlement(firstRecord);

  await balanceChange(ctx, 'P-MONEY-4', async (before, suffix) => {
    const amount = ownAmount(ctx, before.currency);
    const value = amountNumber(amount);
    const refusal = (body: Json, how: string) => ({ body, label: `initiate ${decimalText(amount)} ${how}${suffix}` });
    const from = (walletId: string) => payoutRequest(ctx, value, before.currency, { svc_wallet_id: walletId });
    const { otherEnvironment, otherMerchant } = ctx.config;
    const refusals = [
      refusal(payoutRequest(ctx, value, before.currency, { transfer_mode: 'paypal' }), 'with transfer_mode "paypal" (a 400)'),
      refusal({ ...first, amount: value }, "again with the first payout's payout_order_id (a 409)"),
      ...(otherEnvironment?.walletId ? [refusal(from(otherEnvironment.walletId), "from the other environment's wallet (a 403)")] : []),
      ...(otherMerchant?.walletId ? [refusal(from(otherMerchant.walletId), "from another merchant's wallet (a 403)")] : []),
    ];
    for (const { body, label } of refusals) {
      const exchange = await initiatePayout(ctx, body, label);
      const status = exchange.response?.status ?? 0;
      // Accepted: not a refusal, so nothing here to judge (OPS-INITIATE-*, TENANT-INITIATE judge the acceptance).
      if (status < 400 || status > 499)
        return { unusable: `${label} answered ${exchange.error ? 'no answer' : `HTTP ${status}`}, not a refusal` };
    }
    return { amount, expected: ZERO };
  });

  const later = expectData(
    await payoutStatus(ctx, first.payout_order_id as string, 'Payout Status of the first payout after the refused requests'),
    'Payout Status of the first payout must answer its record',
  );
  // A first payout still in flight may settle meanwhile, a move the profile allows: then only what never changes is compared.
  const changed = (firstFinal ? PAYOUT_FIELDS : FIXED_FIELDS).filter((field) => later[field] !== firstRecord[field]);
  expectThat(
    changed.length === 0,
    `after refused requests the first payout changed: ${changed.map((f) => `${f} ${JSON.stringify(later[f])} (was ${JSON.stringify(firstRecord[f])})`).join(', ')} (P-MONEY-4)`,
    {
      expected: 'the first payout as it was',
      actual: JSON.stringify(later),
    },
  );
}

/** The spare wallet's lane: with a configured fixture both checks drain one wallet, so one after the other (the overdraft check, alone, first). */
const SPARE = 'spare-wallet';

export const moneyChecks: Check[] = [
  {
    ...racing(
      'money-no-overdraft',
      'MONEY-NO-OVERDRAFT',
      "concurrent payouts beyond the spare wallet's balance never overdraw it",
      [BALANCE, INITIATION],
      noOverdraft,
    ),
    lane: SPARE,
  },
  {
    ...paying(
      'money-exact-balance',
      'MONEY-EXACT-BALANCE',
      'one minor unit over the balance is FAILED; exactly the whole balance is accepted',
      [BALANCE, INITIATION],
      exactBalance,
    ),
    lane: SPARE,
  },
  paying(
    'money-refused-no-effect',
    'MONEY-REFUSED-NO-EFFECT',
    'refused initiations (400, 409, 403) move no money and leave the first payout as it was',
    [BALANCE, INITIATION],
    refusedMovesNothing,
  ),
];
