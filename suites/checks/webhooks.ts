// Webhooks (P-HOOK-1…4, an extension): each check judges one rule over the run's one observation
// (webhook-observation.ts) of the deliveries the target sent the kit's receiver.
import { jsonOf } from '../../core/json-of.js';
import { headerIsNot, isJsonContentType } from '../../core/predicates.js';
import { agreesWithStatus, EVENT_ID_HEADER, eventForState, MIN_RETRIES, WEBHOOK_EVENTS } from '../../core/webhooks.js';
import { webhookBuiltOrder } from '../../schemas/field-order.js';
import { describeErrors, validateSchema } from '../../schemas/index.js';
import { canonicalize } from '../../signer/canonical.js';
import { diagnose } from '../../signer/diagnose.js';
import { hmacSha256Hex } from '../../signer/sign.js';
import type { ReceivedDelivery } from '../../webhooks/receiver.js';
import { CheckFailure, CheckInconclusive, CheckSkipped, type Check, type CheckContext, type Need } from '../check.js';
import { toleranceOf } from '../config.js';
import { ARRIVAL_JITTER_SECONDS, retryTiming } from './retry-timing.js';
import { attemptGroup, parseEvent, REFUSED_ATTEMPTS } from './webhook-observation.js';
import { asExchange, judgeEach, missing, observed } from './webhook-evidence.js';

const NEEDS: readonly Need[] = ['webhooks', 'profile.operations.transactionInitiation', 'profile.operations.balanceInquiry'];
const HEADER = EVENT_ID_HEADER.toLowerCase();

// Every delivery kept is a POST to the listener's path: anything else was a stray, never judged.
const headers = judgeEach(`POST with Content-Type: application/json, X-SIGNATURE, X-TIMESTAMP and ${EVENT_ID_HEADER} (P-HOOK-1)`, (d) => {
  const missing = ['x-signature', 'x-timestamp', HEADER].filter((h) => !d.headers[h]);
  if (missing.length > 0) return `${missing.map((h) => h.toUpperCase()).join(', ')} missing`;
  if (!isJsonContentType(d.headers['content-type'])) return headerIsNot('Content-Type', d.headers['content-type'], 'application/json');
  return undefined;
});

/** Hex digits of the kit's expected webhook signature shown in HOOK-SIGNATURE's message. */
const EXPECTED_SHOWN = 12;

const canonicalBody = judgeEach(
  'the canonical text of the event: keys sorted, compact, "/" and non-ASCII unescaped (P-SIGN-1)',
  (d, ctx) => {
    const json = jsonOf(d.body);
    if (json === undefined) return 'the body is not JSON';
    let canonical: string;
    try {
      canonical = canonicalize(json);
    } catch {
      return 'the body holds a number no signer can write canonically';
    }
    if (canonical === d.body) return undefined;
    const timestamp = /^\d+$/.test(d.headers['x-timestamp'] ?? '') ? d.headers['x-timestamp']! : '0';
    const secret = ctx.config.merchant.secretKey;
    // Signed as delivered, a body that is not canonical always has a variant that explains it.
    const how = diagnose({ body: d.body, timestamp, signature: hmacSha256Hex(secret, d.body + timestamp), secret }).variants;
    return `the body is not the canonical text of the event: ${how.join(' + ')}`;
  },
);

const signature = judgeEach(
  "X-SIGNATURE = hex HMAC-SHA256(the merchant's secret key, body as delivered + X-TIMESTAMP) (P-HOOK-1, P-SIGN-2)",
  (d, ctx) => {
    const secret = ctx.config.merchant.secretKey;
    const timestamp = d.headers['x-timestamp'];
    const sig = d.headers['x-signature'];
    if (timestamp === undefined || sig === undefined) return undefined; // HOOK-DELIVERY-HEADERS reports it
    const expected = hmacSha256Hex(secret, d.body + timestamp);
    if (sig === expected) return undefined;
    // Only the start of the kit's own HMAC is shown: enough to compare with a sender's, never a
    // signature someone holding the report could put on a forged delivery.
    const sent = `X-SIGNATURE (shown in the evidence) does not cover the body as delivered (the kit's HMAC of it begins ${expected.slice(0, EXPECTED_SHOWN)}…)`;
    try {
      const builtOrder = webhookBuiltOrder(d.body);
      const found = diagnose({ body: d.body, timestamp, signature: sig, secret, ...(builtOrder !== undefined ? { builtOrder } : {}) });
      return found.variants.length > 0
        ? `${sent}; diagnose: ${found.variants.join(' + ')}`
        : `${sent}, and no known variant explains it: is it signed with the merchant's secret key (P-HOOK-1), not another secret?`;
    } catch {
      return `${sent} (the timestamp is not a number, so diagnose cannot say more)`;
    }
  },
);

const freshTimestamp = judgeEach(
  "each attempt's X-TIMESTAMP is the sender's clock at that attempt, with its own signature (P-HOOK-1)",
  (d, ctx, all) => {
    const window = toleranceOf(ctx.config);
    const ts = d.headers['x-timestamp'];
    if (ts === undefined) return undefined; // HOOK-DELIVERY-HEADERS reports it
    if (!/^\d{1,12}$/.test(ts)) return `X-TIMESTAMP ${JSON.stringify(ts)} is not whole UNIX seconds`;
    const skew = Number(ts) - Math.floor(d.receivedAt / 1000);
    if (Math.abs(skew) > window) return `X-TIMESTAMP is ${skew} s from the kit's clock when it arrived (window ±${window} s)`;
    // An attempt 2 s or more after an earlier one of the same event was made later: its timestamp must be too.
    const group = attemptGroup(d);
    const earlier = all.find(
      (x) =>
        group !== undefined &&
        attemptGroup(x) === group &&
        d.receivedAt - x.receivedAt >= 2_000 &&
        Number(x.headers['x-timestamp']) >= Number(ts),
    );
    return earlier === undefined
      ? undefined
      : `a retry ${((d.receivedAt - earlier.receivedAt) / 1000).toFixed(1)} s after delivery #${earlier.n} carries the same X-TIMESTAMP ${ts}: the retry re-sends a stored request instead of signing afresh`;
  },
);

const eventShape = judgeEach(
  '{ event_id, event, created_at (UNIX seconds), data: the record in the state the event names } (P-HOOK-2)',
  (d) => {
    const json = jsonOf(d.body);
    if (json === undefined) return undefined; // HOOK-CANONICAL-BODY reports it
    const result = validateSchema('webhook-event', json);
    if (!result.valid) return `the event does not match webhook-event: ${describeErrors(result.errors.slice(0, 2)).replaceAll('\n', '; ')}`;
    const e = parseEvent(d);
    const header = d.headers[HEADER];
    if (header !== undefined && header !== e.eventId)
      return `${EVENT_ID_HEADER} ${JSON.stringify(header)} is not the body's event_id ${JSON.stringify(e.eventId)}`;
    const expected = WEBHOOK_EVENTS[e.event!].state;
    if (e.state !== expected) return `a ${e.event} event whose record says ${JSON.stringify(e.state)}, not ${expected}`;
    return undefined;
  },
);

async function eventsFired(ctx: CheckContext): Promise<void> {
  const o = await observed(ctx);
  const about = (id: string) => o.deliveries.filter((d) => parseEvent(d).subject === id);
  if (o.deliveries.length === 0) {
    const none = `no webhook delivery reached the kit's receiver at ${o.session.receiver.url} within ${o.waitedSeconds} s of initiating two payouts`;
    const stray = o.unseen.misdirected;
    // Deliveries that reach the listener at another path: what is in front of it rewrites the path, not the target's fault.
    if (stray?.why === 'another path') {
      throw new CheckInconclusive(
        `${none}, but ${stray.method} ${stray.path} came with delivery headers and was ignored: does the tunnel or proxy in front of webhooks.listen change the path? The listener takes deliveries at ${new URL(o.session.receiver.url).pathname}${o.session.url !== o.session.receiver.url ? ' and at the path of webhooks.url' : ''}`,
      );
    }
    const misdirected =
      stray === undefined
        ? ''
        : `; ${stray.method} ${stray.path} came with delivery headers and was ignored: a delivery is a POST (P-HOOK-1)`;
    throw missing(
      o,
      `${none}: is ${o.session.url} the merchant's registered webhook URL, and does it reach webhooks.listen?${misdirected}`,
      {
        expected: 'payout events for the payouts initiated (P-HOOK-2)',
        actual: stray === undefined ? 'no delivery' : `${stray.method} ${stray.path}`,
        // A payout that settles fires payout.processing, then payout.success: trigger makes one.
        webhookEvent: 'payout.success',
      },
    );
  }
  for (const payout of o.payouts) {
    const states = new Set([payout.initiated, payout.ended ?? payout.initiated]);
    for (const state of states) {
      const name = eventForState('payout', state);
      if (name === undefined) continue; // PENDING is not notified
      const later = state === 'SUCCESS' ? ['payout.success', 'payout.reversed'] : [name];
      const heard = about(payout.payoutOrderId).some((d) => later.includes(parseEvent(d).event ?? '') && parseEvent(d).state !== undefined);
      if (!heard) {
        const got = about(payout.payoutOrderId).map((d) => parseEvent(d).event);
        throw missing(
          o,
          `payout ${payout.payoutOrderId} was ${state} (Payout Status) but no ${name} event about it arrived within ${o.waitedSeconds} s${got.length > 0 ? ` (only ${[...new Set(got)].join(', ')})` : ''}`,
          {
            expected: `a ${name} delivery (P-HOOK-2)`,
            actual: got.length > 0 ? got.join(', ') : 'no delivery about it',
            webhookEvent: name,
          },
        );
      }
    }
  }
}

async function retries(ctx: CheckContext): Promise<void> {
  const o = await observed(ctx);
  const attempts = o.probe;
  if (attempts.length === 0)
    throw new CheckSkipped('no delivery about the payouts the kit initiated arrived to refuse (HOOK-EVENTS-FIRED says why)');
  const first = attempts[0]!;
  const within = o.session.retryWithinMs / 1000;
  const details = (d: ReceivedDelivery) => ({
    expected: `${MIN_RETRIES} retries of a delivery answered 500, the same event_id and body, delays not shrinking, the first ${MIN_RETRIES} within ${within} s (P-HOOK-3)`,
    exchange: asExchange(ctx, o, d),
  });
  if (attempts.length <= REFUSED_ATTEMPTS) {
    const last = attempts.at(-1)!;
    const sameAbout = o.deliveries.filter(
      (d) =>
        d.n > first.n &&
        parseEvent(d).event === parseEvent(first).event &&
        parseEvent(d).subject === parseEvent(first).subject &&
        attemptGroup(d) !== attemptGroup(first),
    );
    const hint =
      sameAbout.length > 0
        ? `; delivery #${sameAbout[0]!.n} is about the same ${parseEvent(first).event} with another event_id: a retry keeps the event_id`
        : '';
    throw missing(
      o,
      `the kit answered delivery #${last.n} with 500 and ${attempts.length === 1 ? 'it was never retried' : `got only ${attempts.length - 1} retr${attempts.length === 2 ? 'y' : 'ies'}`} within ${o.waitedSeconds} s${hint}`,
      { ...details(last), actual: `${attempts.length} attempt${attempts.length > 1 ? 's' : ''}` },
    );
  }
  const changed = attempts.find((d) => d.body !== first.body);
  if (changed !== undefined)
    throw new CheckFailure(`delivery #${changed.n} retries #${first.n} with another body: a retry sends the same event`, {
      ...details(changed),
      actual: 'another body',
    });
  const { delays, shrankAt, took } = retryTiming(
    attempts.map((d) => ({
      receivedAt: d.receivedAt,
      timestamp: /^\d{1,12}$/.test(d.headers['x-timestamp'] ?? '') ? Number(d.headers['x-timestamp']) : undefined,
    })),
    ctx.clock.factor,
    o.stallSeconds,
  );
  const shown = delays.map((s) => `${s.toFixed(1)} s`).join(', ');
  if (shrankAt !== undefined)
    throw new CheckFailure(`the delays between attempts shrank (${shown}): each retry waits no less than the one before`, {
      ...details(attempts[shrankAt]!),
      expected: `delays not shrinking, by arrival (allowing a tenth and ${ARRIVAL_JITTER_SECONDS} s of real network and scheduling jitter, plus the kit's own longest pause, ${o.stallSeconds.toFixed(1)} s) and by X-TIMESTAMP (allowing its rounding to seconds) (P-HOOK-3)`,
      actual: shown,
    });
  const third = attempts[MIN_RETRIES]!;
  if (took > within)
    throw new CheckFailure(
      `the ${MIN_RETRIES}rd retry came ${took.toFixed(1)} s after the first attempt, past profile.webhooks.retryWithinSeconds (${within} s); delays ${shown}`,
      { ...details(third), actual: `${took.toFixed(1)} s` },
    );
}

async function agreesWithStatusOperation(ctx: CheckContext): Promise<void> {
  const o = await observed(ctx);
  if (o.statusAfter.length === 0)
    throw new CheckSkipped("no event about the kit's payouts said a final state, so none could be compared with Payout Status");
  for (const { delivery, state, exchange } of o.statusAfter) {
    const e = parseEvent(delivery);
    if (state === undefined)
      throw new CheckFailure(`Payout Status of ${e.subject} right after its ${e.event} delivery #${delivery.n} answered no payout state`, {
        exchange,
      });
    if (!agreesWithStatus(e.event!, state)) {
      throw new CheckFailure(
        `delivery #${delivery.n} says ${e.event} for payout ${e.subject}, but Payout Status asked right after it answers ${state}: an event never contradicts the status operation`,
        {
          expected: `Payout Status ${WEBHOOK_EVENTS[e.event!].state}${e.event === 'payout.success' ? ' (or REVERSED)' : ''} (P-HOOK-4)`,
          actual: state,
          exchange,
        },
      );
    }
  }
}

/** Their own lane, started with the run: the observation waits seconds for retries beside the rest. */
function hook(id: string, requirement: string, title: string, run: Check['run']): Check {
  return { id, requirement, title, needs: NEEDS, creates: true, lane: 'webhooks', run };
}

export const webhookChecks: readonly Check[] = [
  hook('hook-events-fired', 'HOOK-EVENTS-FIRED', 'a payout that is initiated, settles or fails is notified with its event', eventsFired),
  hook(
    'hook-delivery-headers',
    'HOOK-DELIVERY-HEADERS',
    'every delivery is a POST with Content-Type, X-SIGNATURE, X-TIMESTAMP and X-EVENT-ID',
    headers,
  ),
  hook('hook-canonical-body', 'HOOK-CANONICAL-BODY', "every delivery's body is the canonical text of the event", canonicalBody),
  hook(
    'hook-signature',
    'HOOK-SIGNATURE',
    "every delivery is signed with the merchant's secret over the body as delivered and X-TIMESTAMP",
    signature,
  ),
  hook(
    'hook-fresh-timestamp',
    'HOOK-FRESH-TIMESTAMP',
    'every attempt carries a fresh timestamp within the window, and its own signature',
    freshTimestamp,
  ),
  hook(
    'hook-event-shape',
    'HOOK-EVENT-SHAPE',
    'every event has event_id (= X-EVENT-ID), a known name, created_at in seconds and its record in the named state',
    eventShape,
  ),
  hook(
    'hook-retry',
    'HOOK-RETRY',
    'a delivery answered 500 is retried at least 3 times with the same event, delays not shrinking, within the bound',
    retries,
  ),
  hook(
    'hook-agrees-with-status',
    'HOOK-AGREES-WITH-STATUS',
    'Payout Status asked right after a final-state event answers that state (or a later one)',
    agreesWithStatusOperation,
  ),
];
