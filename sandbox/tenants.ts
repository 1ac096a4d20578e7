import { randomBytes } from 'node:crypto';
import { OPERATION_NAMES, OPERATIONS, type ExtensionOperation } from '../core/operations.js';
import { DEFAULT_RETRY_WITHIN_SECONDS } from '../core/webhooks.js';
import type { Currency, PayoutState } from '../schemas/types.js';

/** A merchant the sandbox knows. Demo credentials: fixed, so README examples work as written. */
export interface Merchant {
  id: string;
  name: string;
  apiKey: string;
  secretKey: string;
  walletId: string;
  environment: 'sandbox' | 'production';
}

export interface Wallet {
  id: string;
  merchantId: string;
  environment: 'sandbox' | 'production';
  currency: Currency;
  /** In minor units (paise, cents): the opening balance in a seed. */
  balanceMinor: number;
}

export interface PayoutSeed {
  merchantId: string;
  payoutOrderId: string;
  status: PayoutState;
  amountMinor: number;
  message: string;
}

export const MERCHANT_A: Merchant = {
  id: 'merchant-a',
  name: 'Demo Merchant A',
  apiKey: 'pk_test_demo_merchant_a_7c41',
  secretKey: 'sk_test_demo_merchant_a_secret_3f9b2e',
  walletId: 'WAL-SBX-A-0001',
  environment: 'sandbox',
};

export const MERCHANT_B: Merchant = {
  id: 'merchant-b',
  name: 'Demo Merchant B',
  apiKey: 'pk_test_demo_merchant_b_92d0',
  secretKey: 'sk_test_demo_merchant_b_secret_a51c07',
  walletId: 'WAL-SBX-B-0001',
  environment: 'sandbox',
};

/** Merchant A's production credentials: the sandbox knows them only to refuse them (P-ENV-1/2). */
export const MERCHANT_A_LIVE: Merchant = {
  id: 'merchant-a',
  name: 'Demo Merchant A (production)',
  apiKey: 'pk_live_demo_merchant_a_51e8',
  secretKey: 'sk_live_demo_merchant_a_secret_0d7a44',
  walletId: 'WAL-LIVE-A-0001',
  environment: 'production',
};

export const MERCHANTS: readonly Merchant[] = [MERCHANT_A, MERCHANT_B, MERCHANT_A_LIVE];

/** Demo merchant A's opening balance, minor units (1,000,000.00 INR); a merchant of a run gets the same. */
const OPENING_BALANCE_MINOR = 100_000_000;

export const WALLETS: readonly Wallet[] = [
  { id: MERCHANT_A.walletId, merchantId: MERCHANT_A.id, environment: 'sandbox', currency: 'INR', balanceMinor: OPENING_BALANCE_MINOR },
  { id: MERCHANT_B.walletId, merchantId: MERCHANT_B.id, environment: 'sandbox', currency: 'INR', balanceMinor: 50_000_000 },
  { id: MERCHANT_A_LIVE.walletId, merchantId: MERCHANT_A.id, environment: 'production', currency: 'INR', balanceMinor: 0 },
];

/** Merchant A's fixture payout in `status`: PO-FIXTURE-{status}. */
function fixtureOfA(status: PayoutState, amountMinor: number, message: string): PayoutSeed {
  return { merchantId: MERCHANT_A.id, payoutOrderId: `PO-FIXTURE-${status}`, status, amountMinor, message };
}

/** Payouts that exist from the start, one per state, plus one of merchant B (P-CFG fixtures). */
export const PAYOUT_FIXTURES: readonly PayoutSeed[] = [
  fixtureOfA('SUCCESS', 150_000, 'Payout completed'),
  fixtureOfA('FAILED', 990_000_000, 'Insufficient wallet balance'),
  fixtureOfA('PENDING', 25_050, 'Awaiting bank confirmation'),
  fixtureOfA('PROCESSING', 75_000, 'Payout under processing'),
  fixtureOfA('REVERSED', 30_000, 'Amount returned to wallet'),
  { merchantId: MERCHANT_B.id, payoutOrderId: 'PO-FIXTURE-B-SUCCESS', status: 'SUCCESS', amountMinor: 99_900, message: 'Payout completed' },
];

/** A merchant made for one run (verify-client): random keys only the client under test holds, unlike the
 * README's demo keys. `random` is injected for tests. */
export function runMerchant(random: (size: number) => Uint8Array = randomBytes): Merchant {
  const hex = (size: number) => Buffer.from(random(size)).toString('hex');
  const id = hex(8);
  return {
    id: `run-${id}`,
    name: 'Merchant of this run',
    apiKey: `pk_test_run_${hex(16)}`,
    secretKey: `sk_test_run_${hex(32)}`,
    walletId: `WAL-SBX-RUN-${id.toUpperCase()}`,
    environment: 'sandbox',
  };
}

/** The demo merchants and wallets, then `extra` (each funded like merchant A's): no two share an id, API key or wallet. */
export function tenantsWith(extra: readonly Merchant[]): { merchants: readonly Merchant[]; wallets: readonly Wallet[] } {
  if (extra.length === 0) return { merchants: MERCHANTS, wallets: WALLETS };
  const merchants = [...MERCHANTS];
  const wallets = [...WALLETS];
  for (const m of extra) {
    const name = JSON.stringify(m.id);
    const refuse = (why: string) => new RangeError(`sandbox: merchants: ${why}`);
    if (m.environment !== 'sandbox' || !m.apiKey.startsWith('pk_test_') || !m.secretKey.startsWith('sk_test_')) {
      throw refuse(`${name} must be a sandbox merchant (environment "sandbox", pk_test_ and sk_test_ keys)`);
    }
    if (merchants.some((k) => k.id === m.id)) throw refuse(`the id ${name} is already one of this sandbox's merchants`);
    if (merchants.some((k) => k.apiKey === m.apiKey)) throw refuse(`the API key of ${name} is already another merchant's`);
    if (wallets.some((w) => w.id === m.walletId))
      throw refuse(`the wallet ${JSON.stringify(m.walletId)} of ${name} is already another merchant's`);
    merchants.push(m);
    wallets.push({ id: m.walletId, merchantId: m.id, environment: 'sandbox', currency: 'INR', balanceMinor: OPENING_BALANCE_MINOR });
  }
  return { merchants, wallets };
}

/** A P-CFG config for a sandbox at baseUrl, every optional key filled (serve --config-out). */
export function sandboxConfig(baseUrl: string, toleranceSeconds: number) {
  const payouts = Object.fromEntries(
    PAYOUT_FIXTURES.filter((p) => p.merchantId === MERCHANT_A.id).map((p) => [p.status, p.payoutOrderId]),
  ) as Record<PayoutState, string>;
  return {
    baseUrl,
    environment: 'sandbox' as const,
    merchant: { apiKey: MERCHANT_A.apiKey, secretKey: MERCHANT_A.secretKey, walletId: MERCHANT_A.walletId },
    otherMerchant: { apiKey: MERCHANT_B.apiKey, secretKey: MERCHANT_B.secretKey, walletId: MERCHANT_B.walletId },
    otherEnvironment: { apiKey: MERCHANT_A_LIVE.apiKey, secretKey: MERCHANT_A_LIVE.secretKey, walletId: MERCHANT_A_LIVE.walletId },
    // No spareWallet: a drained wallet is spent after one run, and two runs sharing one would disturb
    // each other; against this sandbox the suite opens a fresh spare wallet per run (POST /sandbox/wallets).
    fixtures: { payouts, otherMerchantPayoutOrderId: 'PO-FIXTURE-B-SUCCESS' },
    // No url: the kit registers its receiver with this sandbox itself, for the run (P-HOOK-5).
    webhooks: { listen: '127.0.0.1:0' },
    // Declared, never guessed from answers: the suite may send this sandbox's control requests.
    target: 'reference-sandbox' as const,
    profile: {
      timestampToleranceSeconds: toleranceSeconds,
      concurrency: 8,
      webhooks: { retryWithinSeconds: DEFAULT_RETRY_WITHIN_SECONDS },
      // Each extension operation where the sandbox serves it: the profile's default path (core/operations.ts).
      operations: Object.fromEntries(
        OPERATION_NAMES.filter((name) => OPERATIONS[name].extension).map((name) => [name, { method: 'POST', path: OPERATIONS[name].path }]),
      ) as Record<ExtensionOperation, { method: 'POST'; path: string }>,
    },
  };
}
