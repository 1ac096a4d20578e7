// A run's webhook session (P-HOOK-5): the kit's receiver, listening where `webhooks.listen` says,
// and the target told where to deliver. P-CFG's `webhooks.url` names the address the target already
// delivers to (registered in its developer console); without it the kit registers its receiver
// itself through the reference sandbox's signed control request, and puts the earlier registration
// back when the run ends. Opened by the first check that asks, closed with the run.
import { OPERATION_PATHS } from '../sandbox/paths.js';
import { KitReceiver } from '../webhooks/receiver.js';

export type { WebhookSession } from './check.js';
import { CheckInconclusive, CheckSkipped, type WebhookSession } from './check.js';
import { retryWithinSecondsOf, type TargetConfig } from './config.js';
import type { Exchange, SendOptions, TargetClient } from './http.js';
import type { Clock } from '../core/clock.js';
import type { RunHold } from './settings.js';

export interface OpenSession {
  session: WebhookSession;
  /** Ends the session; resolves to what a person must know of how it ended (a registration not put back), if anything. */
  close(): Promise<string | undefined>;
}

/** Opens the session; a target the kit cannot register with is a CheckSkipped naming the fix. */
export async function openWebhookSession(
  config: TargetConfig,
  clock: Clock,
  send: (options: SendOptions) => Promise<Exchange>,
  client: TargetClient,
  hold?: RunHold,
): Promise<OpenSession> {
  const webhooks = config.webhooks;
  if (webhooks === undefined) throw new CheckSkipped('needs webhooks in the config');
  let receiver: KitReceiver;
  try {
    receiver = await KitReceiver.start({ listen: webhooks.listen, clock, alsoPaths: pathOf(webhooks.url) });
  } catch (error) {
    // Configured, but nothing can be judged: never a pass, never the target's fault.
    throw new CheckInconclusive(`the kit's webhook receiver ${(error as Error).message}; choose another webhooks.listen`);
  }
  /** Puts the earlier registration back; says so when it finds the registration changed by someone else. */
  let restore: (() => Promise<string | undefined>) | undefined;
  let registered: (() => Promise<string | null | undefined>) | undefined;
  /** The registration the kit replaced, put back at the end (null: there was none). */
  let previous: string | null = null;
  if (webhooks.url === undefined) {
    const answer = await send({
      label: "register the kit's webhook receiver (the reference sandbox's control request)",
      path: OPERATION_PATHS.registerWebhook,
      payload: { url: receiver.url },
    });
    const data = (answer.response?.json as { data?: { previous_url?: unknown } } | undefined)?.data;
    if (answer.response?.status !== 200 || data === undefined) {
      await receiver.close();
      throw new CheckInconclusive(
        `webhooks.url is not set and the target did not take the reference sandbox's registration request (POST ${OPERATION_PATHS.registerWebhook} answered ${answer.response?.status ?? answer.error?.message}): ` +
          'register a URL that reaches webhooks.listen with the target, and give it as webhooks.url',
      );
    }
    previous = typeof data.previous_url === 'string' ? data.previous_url : null;
    /**
     * A control request about the registration, sent once more when no answer came at all (a
     * connection the target closed as it went idle, a keep-alive race on a loaded machine): both are
     * safe to repeat, a question and putting back one URL.
     */
    const control = async (label: string, payload: { url?: string | null }) => {
      const first = await client.send({ label, path: OPERATION_PATHS.registerWebhook, payload });
      return first.response !== undefined
        ? first
        : client.send({ label: `${label} (asked again: no answer came)`, path: OPERATION_PATHS.registerWebhook, payload });
    };
    /** How the last question went when it got no answer to read: said if the restore cannot go on. */
    let unanswered = '';
    // The merchant has one registration: another run against this target may take it meanwhile.
    registered = async () => {
      const now = await control("the merchant's webhook registration now", {});
      const url = (now.response?.json as { data?: { url?: unknown } } | undefined)?.data?.url;
      if (now.response?.status === 200) return typeof url === 'string' ? url : null;
      unanswered = now.response !== undefined ? `answered ${now.response.status}` : (now.error?.message ?? 'no answer');
      return undefined;
    };
    restore = async () => {
      // Put back only what the kit replaced: a registration someone else made meanwhile is theirs.
      const now = await registered!();
      if (now === undefined) throw new Error(`the target did not say where it delivers now (asked, ${unanswered})`);
      if (now !== receiver.url) return "left the target's webhook registration to whoever changed it during the run";
      const put = await control('restore the earlier webhook registration', { url: previous });
      if (put.response?.status !== 200) throw new Error(`the target answered ${put.response?.status ?? put.error?.message}`);
      return undefined;
    };
  }
  // Closed once, whether the run ends or is interrupted first (then the run's own close finds it done).
  let closing: Promise<{ left?: string; failed?: Error }> | undefined;
  const closeOnce = () =>
    (closing ??= (async () => {
      let failed: Error | undefined;
      const left = await restore?.().catch((error: unknown) => void (failed = error instanceof Error ? error : new Error(String(error))));
      await receiver.close();
      return { ...(left !== undefined ? { left } : {}), ...(failed !== undefined ? { failed } : {}) };
    })());
  const release = hold?.(
    restore !== undefined
      ? {
          done: "restored the target's webhook registration and closed the kit's webhook receiver",
          failed: "could not restore the target's webhook registration (the kit's receiver is gone; register yours again)",
        }
      : { done: "closed the kit's webhook receiver", failed: "could not close the kit's webhook receiver" },
    async () => {
      // Said by the interrupt as its "could not restore…" when the restore failed.
      const { left, failed } = await closeOnce();
      if (failed !== undefined) throw failed;
      return left === undefined ? undefined : `${left}, closed the kit's webhook receiver`;
    },
  );
  return {
    session: {
      receiver,
      url: webhooks.url ?? receiver.url,
      retryWithinMs: retryWithinSecondsOf(config) * 1000,
      ...(registered !== undefined ? { registered } : {}),
    },
    async close() {
      release?.();
      const { left, failed } = await closeOnce();
      // A run that ended normally says it too: the target would otherwise deliver to a closed port, unseen.
      if (failed === undefined) return left;
      const earlier = previous === null ? 'remove it' : `register ${client.redact(previous)} again`;
      return `could not restore the webhook registration (${client.redact(failed.message)}): the target may still deliver to the kit's closed receiver ${receiver.url}; ${earlier}`;
    },
  };
}

/** webhooks.url's path, which a tunnel that keeps the path forwards as it is: the listener takes deliveries there too. */
function pathOf(url: string | undefined): string[] {
  if (url === undefined) return [];
  try {
    return [new URL(url).pathname];
  } catch {
    return [];
  }
}
