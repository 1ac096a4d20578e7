// POST /sandbox/wallets opens a spare wallet: P-MONEY-2/3 drain one, so a run gets a fresh one rather than
// emptying the merchant's own. At most MAX_SPARE_WALLETS a merchant, so a long-lived sandbox stays bounded.
import { minorUnitOf } from '../../schemas/amounts.js';
import { CURRENCIES, type Currency } from '../../schemas/types.js';
import { OperationError, type OperationHandler } from '../context.js';
import { minorToText, successResponse } from '../envelope.js';
import type { SandboxStore } from '../store.js';
import { amountInMinorUnits } from './request-amount.js';

export const MAX_SPARE_WALLETS = 32;

/** Each store's spare wallets by merchant, oldest first (kept here: the store knows wallets, not which are spare). */
const spares = new WeakMap<SandboxStore, Map<string, string[]>>();

function sparesOf(store: SandboxStore, merchantId: string): string[] {
  let byMerchant = spares.get(store);
  if (byMerchant === undefined) spares.set(store, (byMerchant = new Map<string, string[]>()));
  let list = byMerchant.get(merchantId);
  if (list === undefined) byMerchant.set(merchantId, (list = []));
  return list;
}

export const openSpareWallet: OperationHandler = (ctx) => {
  const extra = Object.keys(ctx.body).filter((key) => key !== 'balance' && key !== 'currency');
  if (extra.length > 0)
    throw new OperationError(400, `unknown field ${extra[0]}; the body is { "balance": "12.34", "currency": "INR" } (currency optional)`);
  const main = ctx.store.wallets.get(ctx.merchant.walletId);
  const currency = ctx.body.currency ?? main?.currency ?? 'INR';
  if (!(CURRENCIES as readonly unknown[]).includes(currency))
    throw new OperationError(400, `/currency: must be a currency of the interface's table`);
  // A positive decimal (text or number) with at most the currency's decimals, as a payout amount is read.
  const balanceMinor = amountInMinorUnits(ctx.body.balance, currency as Currency, 'balance');

  const list = sparesOf(ctx.store, ctx.merchant.id);
  if (list.length >= MAX_SPARE_WALLETS) ctx.store.wallets.delete(list.shift()!);
  const id = `WAL-SBX-SPARE-${ctx.store.nextId('W')}`;
  ctx.store.wallets.set(id, { id, merchantId: ctx.merchant.id, environment: 'sandbox', currency: currency as Currency, balanceMinor });
  list.push(id);
  const data = { wallet_id: id, balance: minorToText(balanceMinor, minorUnitOf(currency as Currency)), currency };
  return successResponse(data, 'Spare wallet opened', 201);
};
