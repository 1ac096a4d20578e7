// What one run holds for all its checks (its client, its request slots, its lanes, its webhook
// session), made when the run opens and ended when its checks have run.
import { memo } from '../common/memo.js';
import type { CheckMeta } from '../core/report.js';
import type { Exchange } from '../core/exchange.js';
import { TargetClient } from './http.js';
import { runSalt, runTag } from './ids.js';
import { Limiter } from './limiter.js';
import type { RunSettings } from './settings.js';
import type { OpenSession } from './webhook-session.js';

export interface RunState {
  settings: RunSettings;
  client: TargetClient;
  /** Requests in flight at most: the run's concurrency. */
  requests: Limiter;
  /** This run's part of every id (see idSource). */
  salt: string;
  /** The webhook session, once a check has asked for it (ctx.webhooks()). */
  webhooks?: Promise<OpenSession>;
  /** The check that opened it: how the session ended (a registration not put back) is said among its notes. */
  webhooksOpenedBy?: CheckMeta;
  /** One lock per lane: a lane's checks hold it while they run, ctx.exclusive takes it briefly. */
  lanes: Map<string, Limiter>;
}

/** The lock of a lane (made on first use). */
export function laneLock(state: RunState, lane: string): Limiter {
  return memo(state.lanes, lane, () => new Limiter(1));
}

/** A run's state: its client (marking its own requests, within its time budget) and its limits. */
export function createRunState(settings: RunSettings, onExchange?: (exchange: Exchange) => void): RunState {
  const salt = settings.salt ?? runSalt();
  // The settings' timeout, clock, time budget and interrupt are the client's too.
  const client = new TargetClient(settings.config, { ...settings, ownMark: runTag(settings.runNumber, salt), onExchange });
  return { settings, client, requests: new Limiter(settings.concurrency), salt, lanes: new Map() };
}

/** Ends what the checks opened: the webhook session (its registration put back), then the client.
 *  What a person must know of it becomes a note of the check that opened the session. */
export async function closeRunState(state: RunState): Promise<void> {
  const webhooks = await state.webhooks?.catch(() => undefined);
  const said = await webhooks?.close();
  if (said !== undefined && state.webhooksOpenedBy !== undefined) (state.webhooksOpenedBy.notes ??= []).push(said);
  await state.client.close();
}
