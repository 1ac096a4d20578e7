import { describe, expect, it } from 'vitest';
import { validateSchema } from '../../schemas/index.js';
import { MERCHANT_B } from '../tenants.js';
import { bankingSandbox, initiationBody, minorOf } from './payout-test-support.js';

const OPENING_BALANCE = 100_000_000;

describe('Transaction Initiation: the documented sandbox rules (P-OPS, P-OPS-3, P-OPS-4)', () => {
  it('an ordinary amount is PROCESSING, debited, and SUCCESS with a UTR settleSeconds later', async () => {
    const sandbox = bankingSandbox({ settleSeconds: 5 });
    const answer = await sandbox.initiate(initiationBody('PO-1', { amount: 1499.5 }));
    expect(answer.status).toBe(200);
    expect(validateSchema('payout-status-envelope', answer.json).valid).toBe(true);
    expect(answer.json.message).toBe('Payout initiated');
    expect(answer.json.data).toMatchObject({
      payout_order_id: 'PO-1',
      status: 'PROCESSING',
      amount: '1499.50',
      amount_debited: 'YES',
      utr_number: '',
      created_at: '21-11-2026',
    });
    expect(await sandbox.balance()).toBe(OPENING_BALANCE - 149_950);

    sandbox.advance(4);
    expect((await sandbox.payoutStatus('PO-1')).json.data.status).toBe('PROCESSING');
    sandbox.advance(1);
    const settled = (await sandbox.payoutStatus('PO-1')).json.data;
    expect(settled).toMatchObject({
      status: 'SUCCESS',
      amount_debited: 'YES',
      message: 'Payout completed',
      payout_id: answer.json.data.payout_id,
    });
    expect(settled.utr_number).toMatch(/^SBXUTR\d{10}$/);
    // P-OPS-4: after a successful payout of X the balance is lower by X, once.
    expect(await sandbox.balance()).toBe(OPENING_BALANCE - 149_950);
    expect((await sandbox.payoutStatus('PO-1')).json.data.utr_number).toBe(settled.utr_number);
  });

  it('more than the balance is FAILED at once, not debited, and not an error envelope', async () => {
    const sandbox = bankingSandbox();
    const answer = await sandbox.initiate(initiationBody('PO-BIG', { amount: 1_000_000.01 }));
    expect(answer.status).toBe(200);
    expect(answer.json.data).toMatchObject({
      status: 'FAILED',
      message: 'Insufficient wallet balance',
      amount_debited: 'NO',
      utr_number: 'NA',
    });
    expect(await sandbox.balance()).toBe(OPENING_BALANCE);
    // A later Payout Status of that payout_order_id returns the same record.
    expect((await sandbox.payoutStatus('PO-BIG')).json.data).toEqual(answer.json.data);
  });

  it.each([['100.00'], ['100'], [100]] as const)('P-AMOUNT: amount %j is accepted and debits 100.00', async (amount) => {
    const sandbox = bankingSandbox();
    const answer = await sandbox.initiate(initiationBody('PO-AMT', { amount }));
    expect(answer.status).toBe(200);
    expect(answer.json.data.amount).toBe('100.00');
    expect(await sandbox.balance()).toBe(OPENING_BALANCE - 10_000);
  });

  it('exactly the balance is paid', async () => {
    const sandbox = bankingSandbox();
    expect((await sandbox.initiate(initiationBody('PO-ALL', { amount: 1_000_000 }))).json.data.status).toBe('PROCESSING');
    expect(await sandbox.balance()).toBe(0);
  });

  it('an amount ending in .13 is FAILED by the beneficiary bank, balance unchanged', async () => {
    const sandbox = bankingSandbox();
    const answer = await sandbox.initiate(initiationBody('PO-13', { amount: 100.13 }));
    expect(answer.json.data).toMatchObject({
      status: 'FAILED',
      message: 'Beneficiary bank rejected the transfer',
      amount_debited: 'NO',
      utr_number: 'NA',
    });
    expect(await sandbox.balance()).toBe(OPENING_BALANCE);
  });

  it('an amount ending in .42 stays PENDING until the control endpoint settles it', async () => {
    const sandbox = bankingSandbox();
    expect((await sandbox.initiate(initiationBody('PO-42', { amount: 250.42 }))).json.data).toMatchObject({
      status: 'PENDING',
      amount_debited: 'YES',
    });
    sandbox.advance(86_400);
    expect((await sandbox.payoutStatus('PO-42')).json.data.status).toBe('PENDING');
    expect(await sandbox.balance()).toBe(OPENING_BALANCE - 25_042);
    const settled = await sandbox.settle('PO-42', 'SUCCESS');
    expect(settled.status).toBe(200);
    expect(settled.json.data).toMatchObject({ status: 'SUCCESS', utr_number: expect.stringMatching(/^SBXUTR/) });
    expect((await sandbox.payoutStatus('PO-42')).json.data).toEqual(settled.json.data);
  });

  it('settling a payout to FAILED refunds it: NO, NA, balance as before (P-PAYOUT-3, P-OPS-4)', async () => {
    const sandbox = bankingSandbox();
    await sandbox.initiate(initiationBody('PO-F', { amount: 700 }));
    expect(await sandbox.balance()).toBe(OPENING_BALANCE - 70_000);
    const failed = await sandbox.settle('PO-F', 'FAILED');
    expect(failed.json.data).toMatchObject({ status: 'FAILED', amount_debited: 'NO', utr_number: 'NA' });
    expect(failed.json.data.message).not.toBe('');
    expect(await sandbox.balance()).toBe(OPENING_BALANCE);
  });

  it('reversing a SUCCESS payout returns the amount to the wallet', async () => {
    const sandbox = bankingSandbox();
    await sandbox.initiate(initiationBody('PO-R', { amount: 300 }));
    sandbox.advance(2);
    const reversed = await sandbox.settle('PO-R', 'REVERSED');
    expect(reversed.json.data).toMatchObject({ status: 'REVERSED', message: 'Amount returned to wallet', amount_debited: 'YES' });
    expect(await sandbox.balance()).toBe(OPENING_BALANCE);
  });

  it('a payout_order_id sent as a number is the same payout as its text (P-DUP-4)', async () => {
    const sandbox = bankingSandbox();
    expect((await sandbox.initiate(initiationBody(770001))).json.data.payout_order_id).toBe('770001');
    expect((await sandbox.payoutStatus('770001')).status).toBe(200);
    expect((await sandbox.initiate(initiationBody('770001'))).status).toBe(409);
  });

  it('a repeated payout_order_id answers 409 and changes nothing; another merchant may use it', async () => {
    const sandbox = bankingSandbox();
    const first = await sandbox.initiate(initiationBody('PO-DUP', { amount: 10 }));
    const again = await sandbox.initiate(
      initiationBody('PO-DUP', { amount: 20, transfer_mode: 'upi', beneficiary: { name: 'A', vpa: 'a@okaxis' } }),
    );
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ status: false, code: 409 });
    expect((await sandbox.payoutStatus('PO-DUP')).json.data).toEqual(first.json.data);
    expect(await sandbox.balance()).toBe(OPENING_BALANCE - 1_000);
    expect((await sandbox.initiate(initiationBody('PO-DUP', { svc_wallet_id: MERCHANT_B.walletId }), MERCHANT_B)).status).toBe(200);
  });

  it.each([
    ["(sandbox rule) a currency other than the wallet's", { currency: 'USD' }, 422, 'currency not enabled for this wallet'],
    ['(sandbox rule) more than two decimals', { amount: 10.005 }, 400, 'decimal places'],
    ['(sandbox rule) an amount above the per-payout limit', { amount: 2e12 }, 422, 'limit'],
    ['(sandbox rule) an amount too large to count exactly', { amount: '1000000000000000000000' }, 400, 'too large'],
    ['(P-AMOUNT-1) an amount in exponent text', { amount: '1e3' }, 400, '/amount'],
    ['a transfer mode outside the table', { transfer_mode: 'paypal' }, 400, 'transfer_mode'],
    ['a production wallet', { svc_wallet_id: 'WAL-LIVE-A-0001' }, 403, 'selected environment'],
    ["another merchant's wallet", { svc_wallet_id: MERCHANT_B.walletId }, 403, 'this merchant'],
  ] as const)('%s is refused and creates nothing', async (_, overrides, status, words) => {
    const sandbox = bankingSandbox();
    const answer = await sandbox.initiate(initiationBody('PO-REFUSED', overrides as never));
    expect(answer.status).toBe(status);
    expect(answer.json).toMatchObject({ status: false, code: status, message: expect.stringContaining(words) });
    expect((await sandbox.payoutStatus('PO-REFUSED')).status).toBe(404);
    expect(await sandbox.balance()).toBe(OPENING_BALANCE);
  });
});

describe('the control endpoint POST /sandbox/payouts/settle', () => {
  it.each([
    ['SUCCESS', 'SUCCESS'],
    ['SUCCESS', 'FAILED'],
    ['FAILED', 'SUCCESS'],
    ['FAILED', 'REVERSED'],
    ['PENDING', 'REVERSED'],
    ['REVERSED', 'REVERSED'],
  ] as const)('refuses %s → %s with 422', async (from, to) => {
    const answer = await bankingSandbox().settle(`PO-FIXTURE-${from}`, to);
    expect(answer.status).toBe(422);
    expect(answer.json.message).toContain(`${from} payout cannot be moved to ${to}`);
  });

  it('moves fixtures too, and settles by the clock first (a due PROCESSING payout is already SUCCESS)', async () => {
    const sandbox = bankingSandbox();
    expect((await sandbox.settle('PO-FIXTURE-PROCESSING', 'SUCCESS')).json.data.status).toBe('SUCCESS');
    await sandbox.initiate(initiationBody('PO-DUE'));
    sandbox.advance(2);
    expect((await sandbox.settle('PO-DUE', 'FAILED')).status).toBe(422);
  });

  it("answers 404 for an unknown or another merchant's payout, 400 for a bad body", async () => {
    const sandbox = bankingSandbox();
    expect((await sandbox.settle('PO-NEVER-MADE', 'SUCCESS')).status).toBe(404);
    expect((await sandbox.settle('PO-FIXTURE-B-SUCCESS', 'REVERSED')).status).toBe(404);
    expect((await sandbox.settle('PO-FIXTURE-PENDING', 'PAID')).status).toBe(400);
    expect((await sandbox.settle(null, 'SUCCESS')).status).toBe(400);
    expect((await sandbox.settle('PO-FIXTURE-B-SUCCESS', 'REVERSED', MERCHANT_B)).status).toBe(200);
    expect(minorOf((await sandbox.balanceAnswer(MERCHANT_B.walletId, MERCHANT_B)).json.data.balance)).toBe(50_000_000 + 99_900);
  });
});
