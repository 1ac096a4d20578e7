// What the webhook checks show as evidence and how a missing delivery is judged, over the run's one observation (webhook-observation.ts).
import type { Exchange } from '../../core/exchange.js';
import { evidenceHeaders } from '../../common/redact.js';
import { hmacSha256Hex } from '../../signer/sign.js';
import { answerOf, type ReceivedDelivery } from '../../webhooks/receiver.js';
import { CheckFailure, CheckInconclusive, CheckSkipped, type CheckContext } from '../check.js';
import { attemptGroup, observation, observationNotes, parseEvent, type Observation } from './webhook-observation.js';

/** A delivery as evidence: the request the target sent, and the kit's own answer to it. */
export function asExchange(ctx: CheckContext, o: Observation, d: ReceivedDelivery): Exchange {
  const e = parseEvent(d);
  const attempts = o.deliveries.filter((x) => attemptGroup(x) !== undefined && attemptGroup(x) === attemptGroup(d));
  const nth = attempts.indexOf(d) + 1;
  const attempt = nth > 1 ? ` (attempt ${nth})` : '';
  // A wrong X-SIGNATURE stays as HOOK-SIGNATURE's evidence (an HMAC is not the secret); a right one is
  // redacted, or the report would hold a delivery anyone could send a receiver again.
  const valid = (value: string) =>
    d.headers['x-timestamp'] !== undefined && value === hmacSha256Hex(ctx.config.merchant.secretKey, d.body + d.headers['x-timestamp']);
  const headers = evidenceHeaders(Object.entries(d.headers), ctx.redact, (signature) => !valid(signature));
  const about = [e.event ?? 'an unreadable event', e.eventId].filter((part) => part !== undefined).join(' ');
  return {
    label: `delivery #${d.n} to the kit's receiver: ${about}${attempt}; the answer is the kit's`,
    request: { method: d.method, url: new URL(d.path, o.session.receiver.url).href, headers, body: ctx.redact(d.body) },
    response: { status: d.answered, headers: { 'content-type': 'application/json' }, body: answerOf(d.answered).body },
    ms: 0,
    // What `trigger` needs to make the target send this event again: the reproduce line of a delivery.
    delivery: e.event !== undefined ? { event: e.event } : {},
  };
}

/** The run's observation, with what it saw that is no verdict (strays ignored) said in the report's notes. */
export async function observed(ctx: CheckContext): Promise<Observation> {
  const o = await observation(ctx);
  for (const note of observationNotes(o)) ctx.notice(note);
  return o;
}

/** Evidence not found: the target's failure, unless it may have gone elsewhere or past the listener's limit. */
export function missing(o: Observation, message: string, details: ConstructorParameters<typeof CheckFailure>[1]): Error {
  const { keptAtMost, deliveriesNotKept } = o.unseen;
  if (o.takenBy !== undefined) {
    return new CheckInconclusive(
      `${message}; but the merchant's webhook registration stopped being the kit's receiver during the observation (it became ${o.takenBy === null ? 'none' : JSON.stringify(o.takenBy)}): ` +
        'another run against this target took it, so deliveries went elsewhere; run the webhook checks of one merchant one at a time',
    );
  }
  if (deliveriesNotKept === 0) return new CheckFailure(message, details);
  return new CheckInconclusive(
    `${message}; but the kit's webhook listener kept only the first ${keptAtMost} deliveries (${deliveriesNotKept} more came), so it may be among those`,
  );
}

/** A check over every delivery the observation kept (a skip when none came: HOOK-EVENTS-FIRED says why).
 *  It fails on the first delivery `test` finds fault with, naming how many more it found. */
export function judgeEach(
  expected: string,
  test: (d: ReceivedDelivery, ctx: CheckContext, all: readonly ReceivedDelivery[]) => string | undefined,
): (ctx: CheckContext) => Promise<void> {
  return async (ctx) => {
    const o = await observed(ctx);
    const all = o.deliveries;
    if (all.length === 0) throw new CheckSkipped(`no webhook delivery reached the kit's receiver to judge (HOOK-EVENTS-FIRED says why)`);
    const found = all
      .map((d) => [d, test(d, ctx, all)] as const)
      .filter((f): f is readonly [ReceivedDelivery, string] => f[1] !== undefined);
    if (found.length === 0) return;
    const [d, why] = found[0]!;
    const more = found.length > 1 ? ` (and ${found.length - 1} more of the ${all.length} deliveries)` : '';
    throw new CheckFailure(`delivery #${d.n}: ${why}${more}`, { expected, actual: why, exchange: asExchange(ctx, o, d) });
  };
}
