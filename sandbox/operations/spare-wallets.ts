// POST /sandbox/wallets opens a spare wallet: P-MONEY-2/3 drain one, so a run gets a fresh one rather than
// emptying the merchant's own. At most MAX_SPARE_WALLETS a merchant, so a long-lived sandbox stays bounded.
import { CURRENCIES, type Currency } from '../../schemas/types.js';
import { OperationError, type OperationHandler } from '../context.js';
import { minorToText, successResponse } from '../envelope.js';
import { amountInMinorUnits } from './request-amount.js';

export const MAX_SPARE_WALLETS = 32;

const SPARE_PREFIX = 'WAL-SBX-SPARE-';

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

  // The merchant's spare wallets, oldest first (a Map keeps insertion order); its own wallet is never one.
  const spares = [...ctx.store.wallets.values()].filter(
    (w) => w.merchantId === ctx.merchant.id && w.id !== ctx.merchant.walletId && w.id.startsWith(SPARE_PREFIX),
  );
  if (spares.length >= MAX_SPARE_WALLETS) ctx.store.wallets.delete(spares[0]!.id);
  const id = `${SPARE_PREFIX}${ctx.store.nextId('W')}`;
  ctx.store.wallets.set(id, { id, merchantId: ctx.merchant.id, environment: 'sandbox', currency: currency as Currency, balanceMinor });
  const data = { wallet_id: id, balance: minorToText(balanceMinor, currency as Currency), currency };
  return successResponse(data, 'Spare wallet opened', 201);
};
