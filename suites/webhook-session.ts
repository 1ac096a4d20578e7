// P-HOOK-5: `webhooks.url` names where the target already delivers; without it the kit registers its
// receiver through the sandbox's control request, and puts the earlier one back when the run ends.
import { CONTROL_PATHS } from '../core/operations.js';
import { KitReceiver } from '../webhooks/receiver.js';
import { CheckInconclusive, CheckSkipped, type WebhookSession } from './check.js';
import { retryWithinSecondsOf, type TargetConfig } from './config.js';
import { isReferenceSandbox } from './reference-sandbox.js';
import type { Exchange, SendOptions, TargetClient } from './http.js';
import { dataOf } from './requests.js';
import type { Clock } from '../core/clock.js';
import type { RunHold } from './settings.js';

/** Under an interrupt's bound for each cleanup (CLEANUP_BOUND_MS, 5 s), so a failed restore says why. */
export const RESTORE_WITHIN_MS = 4_000;
/** Each of its requests at most: a target that holds one leaves time for the next. */
const RESTORE_REQUEST_MS = 2_000;
/** Every run asks with the body `{}`, which a replay-refusing target (P-AUTH-4) takes once a second
 *  across all runs: asked every second by each, it was refused for minutes after a burst. */
const ASK_AT_MOST_EVERY_MS = 3_000;
const LEFT_TO_OTHERS = "left the target's webhook registration to whoever changed it during the run";

export interface OpenSession {
  session: WebhookSession;
  /** Ends the session; resolves to what a person must know of how it ended (a registration not put back), if anything. */
  close(): Promise<string | undefined>;
}

/** How the session ended: what was left as someone else made it, or why the registration could not be put back. */
type Ending = { left?: string; failed?: string };

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
  const base = { receiver, retryWithinMs: retryWithinSecondsOf(config) * 1000 };
  if (webhooks.url === undefined) {
    if (isReferenceSandbox({ config })) return registeredSession(base, clock, send, client, hold);
    // Only the declared reference sandbox takes the kit's registration request (P-CFG v1.3).
    await receiver.close();
    throw new CheckInconclusive(
      'webhooks.url is not set, and the config does not declare the reference sandbox, which alone takes the kit\'s registration request: register a URL that reaches webhooks.listen with the target and give it as webhooks.url, or, for the kit\'s own sandbox (svc-conformance serve), add "target": "reference-sandbox" (serve --config-out writes it)',
    );
  }
  let closing: Promise<void> | undefined;
  const closeReceiver = () => (closing ??= receiver.close());
  const release = hold?.(
    { done: "closed the kit's webhook receiver", failed: "could not close the kit's webhook receiver" },
    closeReceiver,
  );
  return {
    session: { ...base, url: webhooks.url },
    async close() {
      await closeReceiver();
      release?.();
      return undefined;
    },
  };
}

/** The session of a kit that registers its receiver itself, and puts the earlier registration back when it ends. */
async function registeredSession(
  base: Omit<WebhookSession, 'url'>,
  clock: Clock,
  send: (options: SendOptions) => Promise<Exchange>,
  client: TargetClient,
  hold: RunHold | undefined,
): Promise<OpenSession> {
  const { receiver } = base;
  // Held in the tick the request is sent: an interrupt while it is out waits for its answer and puts back what it replaced.
  const registration = send({
    label: "register the kit's webhook receiver (the reference sandbox's control request)",
    path: CONTROL_PATHS.registerWebhook,
    payload: { url: receiver.url },
  });
  let ending: Promise<Ending> | undefined;
  const end = () =>
    (ending ??= (async () => {
      try {
        const previous = previousOf(await registration.catch(() => undefined));
        return previous === undefined ? {} : await restore(client, clock, receiver.url, previous);
      } finally {
        await receiver.close();
      }
    })());
  const release = hold?.(
    {
      done: "restored the target's webhook registration and closed the kit's webhook receiver",
      failed: "could not restore the target's webhook registration (the kit's receiver is gone; register yours again)",
    },
    async () => {
      const { left, failed } = await end();
      if (failed !== undefined) {
        const earlier = earlierOf(client, await registration);
        return client.redact(`could not restore the target's webhook registration (${failed}): the kit's receiver is gone; ${earlier}`);
      }
      if (left !== undefined) return `${left}, closed the kit's webhook receiver`;
      // The target did not take the registration: nothing of it to put back.
      return previousOf(await registration) === undefined ? "closed the kit's webhook receiver" : undefined;
    },
  );
  const answer = await registration;
  if (previousOf(answer) === undefined) {
    await end();
    release?.();
    throw new CheckInconclusive(
      `webhooks.url is not set and the target did not take the reference sandbox's registration request (POST ${CONTROL_PATHS.registerWebhook} answered ${answer.response?.status ?? answer.error?.message}): ` +
        'register a URL that reaches webhooks.listen with the target, and give it as webhooks.url',
    );
  }
  return {
    session: {
      ...base,
      url: receiver.url,
      // The merchant has one registration: another run against this target may take it meanwhile.
      registered: askedAtMostEvery(clock, ASK_AT_MOST_EVERY_MS, async () =>
        urlOf(await control(client, "the merchant's webhook registration now", {})),
      ),
    },
    async close() {
      // Held until put back: an interrupt meanwhile waits for it rather than exit halfway through.
      const { left, failed } = await end();
      release?.();
      // A run that ended normally says it too: the target would otherwise deliver to a closed port, unseen.
      if (failed === undefined) return left;
      return client.redact(
        `could not restore the webhook registration (${failed}): the target may still deliver to the kit's closed receiver ${receiver.url}; ${earlierOf(client, answer)}`,
      );
    },
  };
}

/** On a client of its own (the run's may have stopped), within RESTORE_WITHIN_MS. Only what the kit
 *  replaced: a registration someone else made meanwhile is theirs. */
async function restore(client: TargetClient, clock: Clock, receiverUrl: string, previous: string | null): Promise<Ending> {
  const own = client.sibling({
    timeoutMs: RESTORE_REQUEST_MS,
    deadlineAt: clock.now() + RESTORE_WITHIN_MS * (clock.factor ?? 1),
    deadlineSource: `the ${RESTORE_WITHIN_MS / 1000} s given to putting the registration back`,
  });
  try {
    const now = await control(own, "the merchant's webhook registration now", {});
    const url = urlOf(now);
    if (url !== undefined && url !== receiverUrl) return { left: LEFT_TO_OTHERS };
    // Unanswered, the question (`{}`, a body every run sends, its replay window perhaps used up by
    // other runs) is settled by the answer to putting it back, which says what that replaced.
    const put = await control(own, 'restore the earlier webhook registration', { url: previous });
    if (put.response?.status !== 200)
      return { failed: url === undefined ? `asked where it delivers, ${why(now)}; put back, ${why(put)}` : why(put) };
    const replaced = previousOf(put);
    if (url !== undefined || replaced === undefined || replaced === receiverUrl) return {};
    // Someone else's registration, made during the run: theirs goes back.
    const back = await control(own, 'give back the webhook registration made during the run', { url: replaced });
    if (back.response?.status === 200) return { left: LEFT_TO_OTHERS };
    return {
      failed: `it had been changed during the run to ${replaced ?? 'none'}, which putting back the earlier one replaced: ${why(back)}`,
    };
  } finally {
    await own.close();
  }
}

/** Sent once more when no answer came at all (an idle connection closed, a keep-alive race): both a
 *  question and putting back one URL are safe to repeat. */
async function control(client: TargetClient, label: string, payload: { url?: string | null }): Promise<Exchange> {
  const options = { label, path: CONTROL_PATHS.registerWebhook, payload };
  const first = await client.send(options);
  return first.response !== undefined || first.error.code === 'stopped'
    ? first
    : client.send({ ...options, label: `${label} (asked again: no answer came)` });
}

/** `ask`, or its last answer when that is less than `ms` old: asked once at a time. */
function askedAtMostEvery<T>(clock: Clock, ms: number, ask: () => Promise<T>): () => Promise<T> {
  let last: { at: number; answer: Promise<T> } | undefined;
  return () => {
    const now = clock.now();
    if (last === undefined || now - last.at >= ms) last = { at: now, answer: ask() };
    return last.answer;
  };
}

/** How a control request went, when it did not do its part: the status and the target's message, or the transport failure. */
function why(exchange: Exchange): string {
  if (exchange.response === undefined) return exchange.error.message;
  const message = (exchange.response.json as { message?: unknown } | undefined)?.message;
  const resent = exchange.resent === undefined ? '' : ` after ${exchange.resent} resends with a fresh X-TIMESTAMP`;
  return `the target answered ${exchange.response.status}${resent}${typeof message === 'string' ? ` "${message.slice(0, 160)}"` : ''}`;
}

/** The registration an answer to registering (or putting back) says it replaced (null: none), or undefined when it did not take it. */
function previousOf(answer: Exchange | undefined): string | null | undefined {
  if (answer?.response?.status !== 200) return undefined;
  const data = dataOf(answer);
  if (data === undefined) return undefined;
  return typeof data.previous_url === 'string' ? data.previous_url : null;
}

/** The URL registered now, from the answer to asking (null: none), or undefined when the target did not say. */
function urlOf(answer: Exchange): string | null | undefined {
  if (answer.response?.status !== 200) return undefined;
  const url = (answer.response.json as { data?: { url?: unknown } } | undefined)?.data?.url;
  return typeof url === 'string' ? url : null;
}

/** What a person does about a registration not put back: register the earlier one again, or remove the kit's. */
function earlierOf(client: TargetClient, registration: Exchange | undefined): string {
  const previous = previousOf(registration);
  return previous === null || previous === undefined ? 'remove it' : `register ${client.redact(previous)} again`;
}

/** webhooks.url's path, which a tunnel that keeps the path forwards as it is: the listener takes deliveries there too. */
function pathOf(url: string | undefined): string[] {
  return url !== undefined && URL.canParse(url) ? [new URL(url).pathname] : [];
}
