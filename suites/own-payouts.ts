// Every payout the run made, per wallet, with its last record seen: P-MONEY-1 explains a balance by
// them. Fed from every exchange (check-context.ts), so no check has to remember to tell it.
import { CONTROL_PATHS, OPERATIONS } from '../core/operations.js';
import { operationOf, type TargetConfig } from './config.js';
import type { Exchange, SendOptions } from './http.js';
import { awaitsSettlement, dataOf, isSuccess, type Json } from './requests.js';

/** A payout of the run's: its last record seen, or none yet (its initiation got no answer to read). */
interface OwnPayout {
  last?: Json;
}

/** Per run (its state): wallet id → payout_order_id → what was last seen of it. */
const ofRun = new WeakMap<object, Map<string, Map<string, OwnPayout>>>();

function walletOf(runKey: object, walletId: string): Map<string, OwnPayout> {
  let wallets = ofRun.get(runKey);
  if (wallets === undefined) ofRun.set(runKey, (wallets = new Map<string, Map<string, OwnPayout>>()));
  let payouts = wallets.get(walletId);
  if (payouts === undefined) wallets.set(walletId, (payouts = new Map<string, OwnPayout>()));
  return payouts;
}

/** An initiation taken (or unanswered: it may have been made), or a later record of a known payout. */
export function notePayouts(runKey: object, config: TargetConfig, options: SendOptions, exchange: Exchange): void {
  const payload = options.payload as Json | undefined;
  const id = payload?.payout_order_id;
  if (typeof id !== 'string' && typeof id !== 'number') return;
  if (options.as !== undefined && options.as.apiKey !== config.merchant.apiKey) return;
  const walletId = typeof payload?.svc_wallet_id === 'string' ? payload.svc_wallet_id : undefined;
  const record = isSuccess(exchange) ? dataOf(exchange) : undefined;
  if (options.path === operationOf(config, 'transactionInitiation')?.path && walletId !== undefined) {
    if (record !== undefined) walletOf(runKey, walletId).set(String(id), { last: record });
    else if (exchange.response === undefined) walletOf(runKey, walletId).set(String(id), {});
    return;
  }
  if (record !== undefined && (options.path === OPERATIONS.payoutStatus.path || options.path === CONTROL_PATHS.settlePayout)) {
    const known = findPayout(runKey, String(id), walletId);
    if (known !== undefined) known.last = record;
  }
}

function findPayout(runKey: object, id: string, walletId: string | undefined): OwnPayout | undefined {
  const wallets = ofRun.get(runKey);
  if (walletId !== undefined) return wallets?.get(walletId)?.get(id);
  return [...(wallets?.values() ?? [])].find((payouts) => payouts.has(id))?.get(id);
}

/** The run's own payouts on a wallet that may still move its balance by themselves (or never seen
 *  answered), by payout_order_id. */
export function unsettledOwnPayouts(runKey: object, walletId: string): string[] {
  const payouts = ofRun.get(runKey)?.get(walletId);
  if (payouts === undefined) return [];
  return [...payouts].filter(([, p]) => p.last === undefined || awaitsSettlement(p.last)).map(([id]) => id);
}
