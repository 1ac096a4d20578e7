// What the run wrote as the merchant, when, and the last record seen of each, for the revisit
// (checks/revisit.ts). Fed from every exchange (check-context.ts), so no check has to tell it.
import { memo } from '../common/memo.js';
import { OPERATIONS } from '../core/operations.js';
import { operationOf, type TargetConfig } from './config.js';
import type { Exchange, SendOptions } from './http.js';
import { dataOf, isSuccess, type Json } from './requests.js';

export interface Written {
  kind: 'order' | 'payout';
  /** The order_id or payout_order_id as sent. */
  id: string | number;
  /** When the write was answered, ms on the run's clock. */
  at: number;
  /** What the request asked for: a Create Order or Transaction Initiation body. */
  body: Json;
  /** The last record an answer showed of it. */
  last: Json;
}

const ofRun = new WeakMap<object, Map<string, Written>>();

/** A write taken, or a later record of one: the merchant's own requests only (not another merchant's). */
export function noteWritten(runKey: object, config: TargetConfig, options: SendOptions, exchange: Exchange, now: number): void {
  const body = options.payload as Json | undefined;
  if (body === undefined || !isSuccess(exchange)) return;
  if (options.as !== undefined && options.as.apiKey !== config.merchant.apiKey) return;
  const path = options.path;
  const written = memo(ofRun, runKey, () => new Map<string, Written>());
  const take = (kind: Written['kind'], id: unknown, record: Json | undefined, creates: boolean) => {
    if ((typeof id !== 'string' && typeof id !== 'number') || record === undefined) return;
    const key = `${kind}:${String(id)}`;
    const known = written.get(key);
    if (known !== undefined) known.last = record;
    else if (creates) written.set(key, { kind, id, at: now, body, last: record });
  };
  if (path === OPERATIONS.createOrder.path) take('order', body.order_id, dataOf(exchange, 'return_data'), true);
  else if (path === operationOf(config, 'orderStatus')?.path || path === operationOf(config, 'orderCancel')?.path)
    take('order', body.order_id, dataOf(exchange), false);
  else if (path === operationOf(config, 'transactionInitiation')?.path && body.svc_wallet_id === config.merchant.walletId)
    take('payout', body.payout_order_id, dataOf(exchange), true);
  else if (path === OPERATIONS.payoutStatus.path) take('payout', body.payout_order_id, dataOf(exchange), false);
}

/** The run's writes so far, oldest first. */
export function writtenBy(runKey: object): Written[] {
  return [...(ofRun.get(runKey)?.values() ?? [])].sort((a, b) => a.at - b.at);
}
