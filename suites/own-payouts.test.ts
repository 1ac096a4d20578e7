// The run's own payouts, per wallet (own-payouts.ts): what every exchange says of them, so that a
// payout settling by itself is counted wherever the balance is judged.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/exchange.js';
import { sandboxConfig } from '../sandbox/tenants.js';
import type { TargetConfig } from './config.js';
import type { SendOptions } from './http.js';
import { notePayouts, unsettledOwnPayouts } from './own-payouts.js';

const config = sandboxConfig('http://127.0.0.1:9', 300) as TargetConfig;
const WALLET = config.merchant.walletId;
const INITIATE = '/api/v3/banking/payment/initiate';
const STATUS = '/api/v3/banking/payment/status';

function exchange(status: number | undefined, data?: Record<string, unknown>): Exchange {
  const request = { method: 'POST', url: 'http://t', headers: {}, body: '' };
  if (status === undefined) return { label: 'x', request, ms: 0, error: { code: 'reset', message: 'reset' } };
  const json = data === undefined ? { status: false, code: status, message: 'no' } : { status: true, code: status, data };
  return { label: 'x', request, ms: 0, response: { status, headers: {}, body: JSON.stringify(json), json } };
}
const payout = (id: string, walletId = WALLET): SendOptions => ({
  label: 'x',
  path: INITIATE,
  payload: { payout_order_id: id, svc_wallet_id: walletId, amount: 1 },
});
const status = (id: string): SendOptions => ({ label: 'x', path: STATUS, payload: { payout_order_id: id, svc_wallet_id: WALLET } });
const record = (s: string) => ({ status: s, amount: '1.00', amount_debited: 'NO' });

describe('the run’s own payouts still settling', () => {
  it('an initiation taken and still PROCESSING is one; once read SUCCESS it is not', () => {
    const run = {};
    notePayouts(run, config, payout('P1'), exchange(201, record('PROCESSING')));
    expect(unsettledOwnPayouts(run, WALLET)).toEqual(['P1']);
    notePayouts(run, config, status('P1'), exchange(200, record('SUCCESS')));
    expect(unsettledOwnPayouts(run, WALLET)).toEqual([]);
  });

  it('an initiation with no answer may have been made: it is one until read', () => {
    const run = {};
    notePayouts(run, config, payout('P2'), exchange(undefined));
    expect(unsettledOwnPayouts(run, WALLET)).toEqual(['P2']);
  });

  it.each<[string, SendOptions, Exchange]>([
    ['refused', payout('P3'), exchange(409)],
    ['FAILED at once', payout('P3'), exchange(201, record('FAILED'))],
    ['signed as the other merchant', { ...payout('P3'), as: config.otherMerchant! }, exchange(201, record('PROCESSING'))],
    ['a read of a payout the run never made', status('P3'), exchange(200, record('PROCESSING'))],
  ])('is none when %s', (_name, options, answer) => {
    const run = {};
    notePayouts(run, config, options, answer);
    expect(unsettledOwnPayouts(run, WALLET)).toEqual([]);
  });

  it('keeps wallets and runs apart', () => {
    const [a, b] = [{}, {}];
    notePayouts(a, config, payout('P4', 'WAL-SPARE'), exchange(201, record('PENDING')));
    expect(unsettledOwnPayouts(a, 'WAL-SPARE')).toEqual(['P4']);
    expect(unsettledOwnPayouts(a, WALLET)).toEqual([]);
    expect(unsettledOwnPayouts(b, 'WAL-SPARE')).toEqual([]);
  });
});
