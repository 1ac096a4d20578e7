import { describe, expect, it } from 'vitest';
import { virtualClock } from '../core/clock-test-support.js';
import { exchangeOf, madeUpConfig, madeUpContext, type Reply } from './checks/made-up-server-test-support.js';
import {
  decimalEquals,
  decimalMinus,
  decimalOf,
  decimalText,
  expectData,
  expectOrderCreated,
  expectSuccess,
  isSuccess,
  payoutStatusBody,
  settledPayout,
  transferModeFor,
  withoutField,
} from './requests.js';

describe('exact decimals for amounts and balances', () => {
  it.each([
    ['1500.00', 150000n, 2],
    ['-3.5', -35n, 1],
    ['0', 0n, 0],
    [100.5, 1005n, 1],
    [1, 1n, 0],
  ] as const)('%j is %s at scale %s', (value, units, scale) => {
    expect(decimalOf(value)).toEqual({ units, scale });
  });

  it.each([['1e3'], ['12,5'], [''], ['.5'], ['+1'], [Number.NaN], [null]])('%j is not decimal text', (value) => {
    expect(decimalOf(value)).toBeUndefined();
  });

  it('subtracts and compares across scales, without binary rounding', () => {
    const difference = decimalMinus(decimalOf('1000000.00')!, decimalOf('999999.9')!);
    expect(decimalText(difference)).toBe('0.10');
    expect(decimalEquals(difference, decimalOf(0.1)!)).toBe(true);
    expect(decimalText(decimalMinus(decimalOf('0.05')!, decimalOf(1)!))).toBe('-0.95');
    expect(decimalText(decimalOf('-0.07')!)).toBe('-0.07');
  });
});

describe('withoutField', () => {
  it('removes a nested field from a copy and leaves the original alone', () => {
    const body = { a: 1, customer: { address: { city: 'Kochi', line1: 'x' } } };
    expect(withoutField(body, 'customer.address.city')).toEqual({ a: 1, customer: { address: { line1: 'x' } } });
    expect(body.customer.address.city).toBe('Kochi');
    expect(withoutField(body, 'nowhere.deep')).toEqual(body);
  });
});

// The shared helpers' conditions, each broken alone: which answers are a success, a created order, a
// record; what a payout body holds; how long Payout Status is asked until a payout settles.
const config = madeUpConfig();
const answer = (reply: Reply) => exchangeOf(config, { label: 'the answer', path: '/x', payload: {} }, reply);
const enveloped = (json: unknown): Reply => ({ status: 200, json });

describe('isSuccess and expectSuccess: a 2xx, and no answer is none', () => {
  it.each([
    [199, false],
    [200, true],
    [201, true],
    [299, true],
    [300, false],
    ['no answer', false],
  ] as const)('%s: %s', (reply, success) => {
    expect(isSuccess(answer(reply))).toBe(success);
    if (success) expect(() => expectSuccess(answer(reply), 'why')).not.toThrow();
    else
      expect(() => expectSuccess(answer(reply), 'why')).toThrow(
        new RegExp(`^why: expected a 2xx answer, got ${reply === 'no answer' ? 'no answer' : `HTTP ${reply}`}$`),
      );
  });
});

describe('expectOrderCreated and expectData: the record of a success, an object', () => {
  it.each([
    ['an object', { return_data: { a: 1 } }, true],
    ['null', { return_data: null }, false],
    ['an array', { return_data: [] }, false],
    ['text', { return_data: 'x' }, false],
    ['missing', {}, false],
  ])('return_data %s', (_, json, ok) => {
    const check = () => expectOrderCreated(answer(enveloped(json)), 'why');
    if (ok) expect(check()).toEqual({ a: 1 });
    else expect(check).toThrow('why: the answer has no return_data object');
  });

  it.each([
    ['an object', { data: { a: 1 } }, true],
    ['null', { data: null }, false],
    ['an array', { data: [{ a: 1 }] }, false],
    ['a number', { data: 1 }, false],
  ])('data %s', (_, json, ok) => {
    const check = () => expectData(answer(enveloped(json)), 'why');
    if (ok) expect(check()).toEqual({ a: 1 });
    else expect(check).toThrow('why: the answer has no data object');
  });

  it('takes the statuses given, 200 by default', () => {
    const created = answer({ status: 201, json: { data: { a: 1 } } });
    expect(() => expectData(created, 'why')).toThrow(/expected HTTP 200, got 201/);
    expect(expectData(created, 'why', [200, 201])).toEqual({ a: 1 });
  });
});

describe('payout bodies', () => {
  it('pays out in a transfer mode usual for the currency', () => {
    expect((['INR', 'EUR', 'USD', 'GBP', 'JPY'] as const).map(transferModeFor)).toEqual(['imps', 'sepa', 'ach', 'swift', 'swift']);
  });

  it('asks Payout Status of the merchant wallet unless told another', () => {
    const ctx = madeUpContext(config, () => 404);
    expect(payoutStatusBody(ctx, 'PO-1')).toEqual({
      svc_wallet_id: config.merchant.walletId,
      debit_account_type: 'svc_wallet',
      payout_order_id: 'PO-1',
    });
    expect(payoutStatusBody(ctx, 7, 'WAL-2')).toMatchObject({ svc_wallet_id: 'WAL-2', payout_order_id: 7 });
  });
});

describe('settledPayout: Payout Status until the payout leaves PROCESSING and PENDING, within the time given', () => {
  /** A payout in these states, one per read, then the last one forever; the reads made, by when. */
  function reads(states: readonly string[]) {
    const clock = virtualClock(0);
    const at: number[] = [];
    const ctx = {
      ...madeUpContext(config, () => {
        at.push(clock.now());
        return enveloped({ status: true, code: 200, message: 'ok', data: { status: states[Math.min(at.length - 1, states.length - 1)] } });
      }),
      clock,
    };
    return { ctx, at };
  }

  it('answers the first state that is neither', async () => {
    const { ctx, at } = reads(['PROCESSING', 'PENDING', 'SUCCESS']);
    expect(await settledPayout(ctx, 'PO-1', 'reading')).toEqual({ status: 'SUCCESS' });
    expect(at).toEqual([0, 250, 500]);
  });

  it('gives up, undefined, at the deadline: no read after it, the last one at it at most', async () => {
    const { ctx, at } = reads(['PROCESSING']);
    expect(await settledPayout(ctx, 'PO-1', 'reading', { intervalMs: 300, timeoutMs: 1_200 })).toBeUndefined();
    expect(at).toEqual([0, 300, 600, 900, 1_200]);
    // By default the config's profile.settleWithinSeconds, 15 when it says none.
    const slow = reads(['PENDING']);
    expect(await settledPayout(slow.ctx, 'PO-1', 'reading')).toBeUndefined();
    expect(slow.at.at(-1)).toBe(15_000);
    const bounded = reads(['PENDING']);
    bounded.ctx.config = { ...bounded.ctx.config, profile: { ...bounded.ctx.config.profile, settleWithinSeconds: 4 } };
    expect(await settledPayout(bounded.ctx, 'PO-1', 'reading')).toBeUndefined();
    expect(bounded.at.at(-1)).toBe(4_000);
  });

  it('reads the wallet given', async () => {
    const asked: unknown[] = [];
    const ctx = {
      ...madeUpContext(config, (o) => (asked.push(o.payload), enveloped({ data: { status: 'FAILED' } }))),
      clock: virtualClock(0),
    };
    await settledPayout(ctx, 'PO-1', 'reading', { walletId: 'WAL-2' });
    expect(asked).toEqual([{ svc_wallet_id: 'WAL-2', debit_account_type: 'svc_wallet', payout_order_id: 'PO-1' }]);
  });
});
