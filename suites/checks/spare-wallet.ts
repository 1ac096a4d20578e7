// The wallet P-MONEY-2/3 may drain: `fixtures.spareWallet`, else a fresh one from a declared reference
// sandbox's control request (so two runs never drain one wallet), else the check is skipped.
import { CONTROL_PATHS } from '../../core/operations.js';
import { CheckSkipped, type CheckContext } from '../check.js';
import { isReferenceSandbox } from '../reference-sandbox.js';

/** The balance a wallet opened by the control request starts with: whole units, valid in every currency. */
const SPARE_OPENING_BALANCE = '25';

/** The wallet, and where it came from for the report: the config's fixture or a wallet opened for this run. */
export async function spareWallet(
  ctx: CheckContext,
): Promise<{ walletId: string; source: 'fixtures.spareWallet' | 'opened for this run' }> {
  const configured = ctx.config.fixtures?.spareWallet;
  if (configured !== undefined && configured !== '') return { walletId: configured, source: 'fixtures.spareWallet' };
  const needs = 'needs fixtures.spareWallet in the config: a wallet of the merchant that the suite may drain (P-CFG)';
  if (!isReferenceSandbox(ctx)) {
    throw new CheckSkipped(
      `${needs}; only a declared reference sandbox ("target": "reference-sandbox", which serve --config-out writes) opens one for the run`,
    );
  }
  // Outside the check's exchanges: the run's observers (P-ERR) must not judge an answer to a request the interface does not have.
  const answer = await ctx.sendSetup({
    label: "open a spare wallet for this run (the reference sandbox's control request)",
    path: CONTROL_PATHS.spareWallet,
    payload: { balance: SPARE_OPENING_BALANCE },
  });
  const walletId = (answer.response?.json as { data?: { wallet_id?: unknown } } | undefined)?.data?.wallet_id;
  if (answer.response?.status === 201 && typeof walletId === 'string' && walletId !== '')
    return { walletId, source: 'opened for this run' };
  throw new CheckSkipped(
    `${needs}; the target did not open one through the reference sandbox's control request (POST ${CONTROL_PATHS.spareWallet})`,
  );
}
