// Whether the target is the kit's reference sandbox, decided once per run. Only then may the kit
// send the sandbox's control requests (open a spare wallet, settle a payout, submit the hosted
// checkout): a real deployment has none of them, and a request to a path outside its interface is
// at best noise in its logs and at worst something it acts on. One place decides it, so the checks
// that use control requests cannot disagree about the target.
import { OPERATION_PATHS } from '../sandbox/paths.js';
import type { CheckContext } from './check.js';

/** The id the probe asks about: no payout has it, and it is the same whichever check asks first. */
export const SANDBOX_PROBE_PAYOUT_ORDER_ID = 'SVC-CONFORMANCE-SANDBOX-PROBE';

/** Per run (its client): the answer, once learnt. */
const decided = new WeakMap<object, Promise<boolean>>();

/**
 * True only when the target answers the one probe exactly as the reference sandbox does: its settle
 * control request, about a payout that was never made, answers 404 "payout transaction not found".
 * The probe cannot change anything (there is no such payout), is sent at most once per run, and never
 * to a production target (P-ENV-3: a production deployment is never the sandbox, so nothing is asked).
 * It goes through the client directly: it is no operation of the interface, so the run's observers
 * must not judge another server's answer to it. A probe that failed in transit is not kept, so the
 * next check asks again.
 */
export function isReferenceSandbox(ctx: Pick<CheckContext, 'runKey' | 'sendSetup' | 'config'>): Promise<boolean> {
  if (ctx.config.environment === 'production') return Promise.resolve(false);
  let answer = decided.get(ctx.runKey);
  if (answer === undefined) {
    decided.set(ctx.runKey, (answer = probe(ctx)));
    answer.catch(() => decided.delete(ctx.runKey));
  }
  return answer;
}

async function probe(ctx: Pick<CheckContext, 'sendSetup'>): Promise<boolean> {
  const exchange = await ctx.sendSetup({
    label: 'is the target a reference sandbox? (its settle control request, for a payout never made)',
    path: OPERATION_PATHS.settlePayout,
    payload: { payout_order_id: SANDBOX_PROBE_PAYOUT_ORDER_ID, status: 'SUCCESS' },
  });
  const body = exchange.response?.json as { status?: unknown; code?: unknown; message?: unknown } | undefined;
  return (
    exchange.response?.status === 404 && body?.status === false && body.code === 404 && body.message === 'payout transaction not found'
  );
}
