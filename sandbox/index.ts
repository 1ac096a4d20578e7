import { createApp } from './app.js';
import type { Routes, SandboxApp } from './context.js';
import { checkoutRoutes } from './checkout.js';
import { listen, type ListenOptions } from './http.js';
import { createOrder, orderCancel, orderStatus } from './operations/orders.js';
import { balanceInquiry, payoutStatus, settlePayout, transactionInitiation } from './operations/payouts.js';
import { openSpareWallet } from './operations/spare-wallets.js';
import { registerWebhook } from './operations/webhook-registration.js';
import type { SandboxOptions } from './options.js';
import { OPERATION_PATHS } from './paths.js';
import { MERCHANT_A, MERCHANT_A_LIVE, MERCHANT_B, PAYOUT_FIXTURES, sandboxConfig } from './tenants.js';

export { OPERATION_PATHS } from './paths.js';

const routes: Routes = {
  operations: {
    [OPERATION_PATHS.createOrder]: createOrder,
    [OPERATION_PATHS.orderStatus]: orderStatus,
    [OPERATION_PATHS.orderCancel]: orderCancel,
    [OPERATION_PATHS.payoutStatus]: payoutStatus,
    [OPERATION_PATHS.balanceInquiry]: balanceInquiry,
    [OPERATION_PATHS.transactionInitiation]: transactionInitiation,
    [OPERATION_PATHS.settlePayout]: settlePayout,
    [OPERATION_PATHS.registerWebhook]: registerWebhook,
    [OPERATION_PATHS.spareWallet]: openSpareWallet,
  },
  pages: checkoutRoutes,
};

/** An in-process sandbox: `app.handle(new Request(…))` with no socket. */
export function createSandbox(options: SandboxOptions = {}): SandboxApp {
  return createApp(routes, options);
}

export interface StartOptions extends SandboxOptions, ListenOptions {}

export interface RunningSandbox {
  baseUrl: string;
  app: SandboxApp;
  /** A P-CFG config for this sandbox, every optional key filled. */
  config: ReturnType<typeof sandboxConfig>;
  fixtures: typeof SANDBOX_FIXTURES;
  close(): Promise<void>;
}

/** Demo tenants and fixtures, for people and for code. */
export const SANDBOX_FIXTURES = {
  merchant: MERCHANT_A,
  otherMerchant: MERCHANT_B,
  productionCredentials: MERCHANT_A_LIVE,
  payouts: PAYOUT_FIXTURES,
};

/** Starts the reference sandbox on loopback (port 0: a free port). */
export async function startSandbox(options: StartOptions = {}): Promise<RunningSandbox> {
  const app = createSandbox(options);
  const listening = await listen(app, options);
  let closed: Promise<void> | undefined;
  return {
    baseUrl: listening.baseUrl,
    app,
    config: sandboxConfig(listening.baseUrl, app.options.variant.toleranceSeconds),
    fixtures: SANDBOX_FIXTURES,
    // Held answers go out (and are recorded) at close: closing never waits out a scenario's hang.
    // Closing twice is closing once: an interrupt's cleanup and the command's own may meet.
    close: () => (closed ??= Promise.all([listening.close(), app.close()]).then(() => {})),
  };
}

export { FAULTS, FAULT_NAMES, parseFaults, type FaultName } from './faults.js';
export {
  SCENARIOS,
  SCENARIO_NAMES,
  DEFAULT_HANG_SECONDS,
  MAX_HANG_SECONDS,
  parseScenarios,
  type ScenarioName,
  type ScenarioSpec,
} from './scenarios.js';
export { DEFAULT_VARIANT, allVariants, type SandboxVariant, type SandboxOptions } from './options.js';
export type { SandboxApp } from './context.js';
