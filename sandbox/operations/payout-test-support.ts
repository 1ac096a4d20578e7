// Test support for the banking operations' tests: a sandbox on a hand-moved clock and one small
// function per operation, so each test reads as the exchange it makes.
import type { TransactionInitiationRequest } from '../../schemas/types.js';
import { OPERATION_PATHS } from '../index.js';
import type { SandboxOptions } from '../options.js';
import { MERCHANT_A, type Merchant } from '../tenants.js';
import { call, sandboxAt, type Answer } from '../test-support.js';

export type Who = Pick<Merchant, 'apiKey' | 'secretKey' | 'walletId'>;

/** A valid IMPS payout of merchant A: tests override what they are about. */
export function initiationBody(
  payoutOrderId: string | number,
  overrides: Partial<TransactionInitiationRequest> = {},
): Record<string, unknown> {
  return {
    svc_wallet_id: MERCHANT_A.walletId,
    debit_account_type: 'svc_wallet',
    payout_order_id: payoutOrderId,
    amount: 100,
    currency: 'INR',
    transfer_mode: 'imps',
    beneficiary: { name: 'Asha Rao', account_number: '123456789012', ifsc: 'HDFC0001234' },
    ...overrides,
  };
}

/** Minor units of a decimal text such as "1500.00". */
export function minorOf(text: string): number {
  return Math.round(Number(text) * 100);
}

/**
 * A sandbox with the banking operations at hand. Replays are allowed: the clock stands still between
 * calls, and a test that reads the same payout twice in one second is not testing P-AUTH-4.
 */
export function bankingSandbox(options: SandboxOptions = {}) {
  const { app, advance } = sandboxAt({ ...options, variant: { replay: 'allow', ...options.variant } });
  return {
    app,
    advance,
    payoutStatus(payoutOrderId: unknown, who: Who = MERCHANT_A, walletId = who.walletId): Promise<Answer> {
      const payload = { svc_wallet_id: walletId, debit_account_type: 'svc_wallet', payout_order_id: payoutOrderId };
      return call(app, { path: OPERATION_PATHS.payoutStatus, payload, merchant: who });
    },
    statusPayload(payload: unknown, who: Who = MERCHANT_A): Promise<Answer> {
      return call(app, { path: OPERATION_PATHS.payoutStatus, payload, merchant: who });
    },
    statusRaw(raw: string, who: Who = MERCHANT_A): Promise<Answer> {
      return call(app, { path: OPERATION_PATHS.payoutStatus, raw, merchant: who });
    },
    balancePayload(payload: unknown, who: Who = MERCHANT_A): Promise<Answer> {
      return call(app, { path: OPERATION_PATHS.balanceInquiry, payload, merchant: who });
    },
    balanceAnswer(walletId: string = MERCHANT_A.walletId, who: Who = MERCHANT_A): Promise<Answer> {
      return call(app, { path: OPERATION_PATHS.balanceInquiry, payload: { svc_wallet_id: walletId }, merchant: who });
    },
    /** The wallet's balance in minor units, read through Balance Inquiry. */
    async balance(who: Who = MERCHANT_A): Promise<number> {
      const answer = await call(app, { path: OPERATION_PATHS.balanceInquiry, payload: { svc_wallet_id: who.walletId }, merchant: who });
      if (answer.status !== 200) throw new Error(`Balance Inquiry answered ${answer.status}: ${answer.text}`);
      return minorOf(answer.json.data.balance);
    },
    initiate(payload: unknown, who: Who = MERCHANT_A): Promise<Answer> {
      return call(app, { path: OPERATION_PATHS.transactionInitiation, payload, merchant: who });
    },
    initiateRaw(raw: string, who: Who = MERCHANT_A): Promise<Answer> {
      return call(app, { path: OPERATION_PATHS.transactionInitiation, raw, merchant: who });
    },
    settle(payoutOrderId: unknown, status: unknown, who: Who = MERCHANT_A): Promise<Answer> {
      return call(app, { path: OPERATION_PATHS.settlePayout, payload: { payout_order_id: payoutOrderId, status }, merchant: who });
    },
  };
}

export type BankingSandbox = ReturnType<typeof bankingSandbox>;
