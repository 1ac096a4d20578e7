// The wallet the run may drain (P-MONEY-2/3: they empty a wallet, so never the merchant's own).
// Order of the sources, and why:
// 1. `fixtures.spareWallet` when the config names one: a real deployment's config says which wallet
//    the suite may empty, and then nothing sandbox-only is ever sent to it.
// 2. Otherwise, only when the config declares the reference sandbox (suites/reference-sandbox.ts),
//    its control request (POST /sandbox/wallets) opens a fresh wallet
//    for this check of this run, so two runs at once never drain one wallet. A real deployment
//    without the fixture gets no such request. It is sent on the
//    client directly, outside the check's exchanges: a target that is not the reference sandbox may
//    answer a path outside its interface with an HTML 404, and the run's observers (P-ERR) would
//    otherwise blame it for an answer to a request the interface does not have.
// 3. Neither: the check is skipped, naming the config key.
import { OPERATION_PATHS } from '../../sandbox/paths.js';
import { CheckSkipped, type CheckContext } from '../check.js';
import { isReferenceSandbox } from '../reference-sandbox.js';

/** The balance a wallet opened by the control request starts with: whole units, valid in every currency. */
export const SPARE_OPENING_BALANCE = '25';

export interface SpareWallet {
  walletId: string;
  /** Where it came from, for the report: the config's fixture or a wallet opened for this run. */
  source: 'fixtures.spareWallet' | 'opened for this run';
}

export async function spareWallet(ctx: CheckContext): Promise<SpareWallet> {
  const configured = ctx.config.fixtures?.spareWallet;
  if (configured !== undefined && configured !== '') return { walletId: configured, source: 'fixtures.spareWallet' };
  if (!isReferenceSandbox(ctx)) {
    throw new CheckSkipped(
      `needs fixtures.spareWallet in the config: a wallet of the merchant that the suite may drain (P-CFG); only a declared reference sandbox ("target": "reference-sandbox", which serve --config-out writes) opens one for the run`,
    );
  }
  const answer = await ctx.sendSetup({
    label: "open a spare wallet for this run (the reference sandbox's control request)",
    path: OPERATION_PATHS.spareWallet,
    payload: { balance: SPARE_OPENING_BALANCE },
  });
  const walletId = (answer.response?.json as { data?: { wallet_id?: unknown } } | undefined)?.data?.wallet_id;
  if (answer.response?.status === 201 && typeof walletId === 'string' && walletId !== '')
    return { walletId, source: 'opened for this run' };
  throw new CheckSkipped(
    `needs fixtures.spareWallet in the config: a wallet of the merchant that the suite may drain (P-CFG); the target did not open one through the reference sandbox's control request (POST ${OPERATION_PATHS.spareWallet})`,
  );
}
