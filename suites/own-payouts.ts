// Every payout the run made, per wallet, with its last record seen: P-MONEY-1 explains a balance by
// them. Fed from every exchange (check-context.ts), so no check has to remember to tell it.
import { memo } from '../common/memo.js';
import { CONTROL_PATHS, OPERATIONS } from '../core/operations.js';
import { operationOf, type TargetConfig } from './config.js';
import type { Exchange, SendOptions } from './http.js';
import { awaitsSettlement, dataOf, isFinalPayout, isSuccess, type Json } from './requests.js';

/** Per run (its state): wallet id → payout_order_id → its last record seen, or undefined while none
 *  was (its initiation got no answer to read). */
const ofRun = new WeakMap<object, Map<string, Map<string, Json | undefined>>>();

function walletOf(runKey: object, walletId: string): Map<string, Json | undefined> {
  const wallets = memo(ofRun, runKey, () => new Map<string, Map<string, Json | undefined>>());
  return memo(wallets, walletId, () => new Map<string, Json | undefined>());
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
    if (record !== undefined || exchange.response === undefined) walletOf(runKey, walletId).set(String(id), record);
    return;
  }
  if (record === undefined || (options.path !== OPERATIONS.payoutStatus.path && options.path !== CONTROL_PATHS.settlePayout)) return;
  const wallets = ofRun.get(runKey) ?? new Map<string, Map<string, Json | undefined>>();
  const holding = walletId !== undefined ? [wallets.get(walletId)] : [...wallets.values()];
  holding.find((payouts) => payouts?.has(String(id)))?.set(String(id), record);
}

/** The run's own payouts on a wallet that may still move its balance by themselves (or never seen answered), by payout_order_id. */
export function unsettledOwnPayouts(runKey: object, walletId: string, mayMove: (last: Json) => boolean = awaitsSettlement): string[] {
  const payouts = ofRun.get(runKey)?.get(walletId);
  if (payouts === undefined) return [];
  return [...payouts].filter(([, last]) => last === undefined || mayMove(last)).map(([id]) => id);
}

/** Those, and those SUCCESS, which a reversal may still move: every one not FAILED or REVERSED. */
export const notFinalOwnPayouts = (runKey: object, walletId: string): string[] =>
  unsettledOwnPayouts(runKey, walletId, (last) => !isFinalPayout(last.status));
