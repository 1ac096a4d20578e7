// Interface: Authentication. Profile: P-AUTH-1…6, P-SIGN-2/3, P-CFG (https). The refusals all use a
// harmless Payout Status that answers 404 once authenticated; each differs from the others by one row.
import { isLoopbackHost } from '../../core/loopback.js';
import { canonicalize } from '../../signer/canonical.js';
import { CheckFailure, CheckSkipped, expectSchema, expectThat, type Check, type CheckContext } from '../check.js';
import { toleranceOf } from '../config.js';
import type { SendOptions } from '../http.js';
import { CREATE_ORDER_PATH, expectSuccess, PAYOUT_STATUS_PATH, payoutStatus, validOrder } from '../requests.js';
import {
  alterLastCharacter,
  check,
  creating,
  expectAuthenticated,
  expectRefused,
  sendProbe,
  unknownKeyCredentials,
  unknownPayoutStatus,
  wrongSecretCredentials,
} from './shared-auth.js';
import { shown } from './shown.js';

type Probe = [label: string, options: Omit<SendOptions, 'label' | 'path'>, refused: string];

/** The probe sent with one thing about its authentication wrong must be refused with 401 (P-AUTH-2, P-AUTH-3). */
function refusal(id: string, requirement: string, title: string, probe: (ctx: CheckContext) => Probe): Check {
  return check(id, requirement, title, async (ctx) => {
    const [label, options, refused] = probe(ctx);
    expectRefused(await sendProbe(ctx, label, options), refused);
  });
}

/** Each malformed timestamp is signed with that same text, as a client making the mistake would. */
function timestampRefusal(id: string, requirement: string, title: string, what: string, texts: (now: number) => string[]): Check {
  return check(id, requirement, title, async (ctx) => {
    for (const text of texts(ctx.nowSeconds())) {
      const shown = `${what} X-TIMESTAMP ${JSON.stringify(text)}`;
      expectRefused(
        await sendProbe(ctx, `Payout Status with ${shown}, signed with it`, { timestamp: text }),
        `${what} timestamp ${JSON.stringify(text)}`,
      );
    }
  });
}

/** P-AUTH-3: 600 s outside the window, before (-1) or after (+1) it. */
function outsideWindow(ctx: CheckContext, side: -1 | 1, how: 'old' | 'ahead'): Probe {
  const window = toleranceOf(ctx.config);
  const by = window + 600;
  return [
    `Payout Status with a timestamp ${by} s ${how}`,
    { timestamp: ctx.nowSeconds() + side * by },
    `a timestamp ${by} s ${how} (window ${window} s + 600 s)`,
  ];
}

/** AUTH-WINDOW-RECENT, AUTH-WINDOW-AHEAD (P-AUTH-3, SHOULD): 30 s either way is inside any sensible window.
 *  A window narrower than 30 s is the deployment's to set: then the SHOULD does not apply. */
function insideWindow(id: string, requirement: string, side: -1 | 1, how: 'old' | 'ahead'): Check {
  return check(id, requirement, `a timestamp 30 s ${how} is accepted`, async (ctx) => {
    const window = toleranceOf(ctx.config);
    if (window < 30) throw new CheckSkipped(`the configured window is ${window} s, narrower than 30 s`, { notApplicable: true });
    const exchange = await sendProbe(ctx, `Payout Status with a timestamp 30 s ${how}`, { timestamp: ctx.nowSeconds() + side * 30 });
    expectAuthenticated(exchange, `a timestamp 30 seconds ${how} must be accepted`);
  });
}

/** AUTH-ACCEPT (P-SIGN-2, P-SIGN-3, P-AUTH-1): a correctly signed read of a known payout succeeds. */
async function acceptsSignedPayoutStatus(ctx: CheckContext): Promise<void> {
  const payoutOrderId = ctx.config.fixtures?.payouts?.SUCCESS;
  if (payoutOrderId === undefined) throw new CheckSkipped('needs fixtures.payouts.SUCCESS in the config');
  const exchange = await payoutStatus(ctx, payoutOrderId, 'correctly signed Payout Status of the SUCCESS fixture');
  expectSuccess(exchange, 'a correctly signed canonical request must be accepted');
}

async function acceptsSignedCreateOrder(ctx: CheckContext): Promise<void> {
  const exchange = await ctx.send({ label: 'correctly signed Create Order', path: CREATE_ORDER_PATH, payload: validOrder(ctx) });
  expectSuccess(exchange, 'a correctly signed canonical Create Order must be accepted');
}

/** AUTH-HEADER-CASE (P-AUTH-1): header names are case-insensitive. */
async function acceptsLowerCaseHeaderNames(ctx: CheckContext): Promise<void> {
  const exchange = await sendProbe(ctx, 'Payout Status with every header name in lower case', { headerCase: 'lower' });
  expectAuthenticated(exchange, 'lower-case x-api-key, x-signature and x-timestamp must be accepted');
}

/** AUTH-PAYLOAD-CHANGED-REUSED (P-AUTH-2): an accepted (timestamp, signature) pair re-used for another body. */
async function refusesChangedPayloadReusingSignature(ctx: CheckContext): Promise<void> {
  const original = unknownPayoutStatus(ctx);
  const timestamp = ctx.nowSeconds();
  const first = await ctx.send({
    label: 'Payout Status, signed correctly (its signature is re-used next)',
    path: PAYOUT_STATUS_PATH,
    payload: original,
    timestamp,
  });
  expectAuthenticated(first, 'the original request must pass authentication before its signature can be re-used');
  const changed = await sendProbe(ctx, "another Payout Status body sent with the first request's timestamp and signature", {
    timestamp,
    signedBody: canonicalize(original),
    reuse: true,
  });
  expectRefused(changed, 'a changed body re-using an accepted timestamp and signature');
}

/** AUTH-REPLAY (P-AUTH-4, MAY): the same request, same timestamp and signature, sent twice. */
async function refusesReplay(ctx: CheckContext): Promise<void> {
  const payload = unknownPayoutStatus(ctx);
  const timestamp = ctx.nowSeconds();
  const send = (label: string) => ctx.send({ label, path: PAYOUT_STATUS_PATH, payload, timestamp, reuse: true });
  const first = await send('Payout Status, the original');
  expectAuthenticated(first, 'the original request must pass authentication before it can be replayed');
  const replay = await send('the same Payout Status re-sent: same body, timestamp and signature');
  if (replay.response?.status === 401) return;
  throw new CheckFailure(
    'a re-sent request with the same timestamp and signature was not refused (P-AUTH-4 allows this; information only)',
    shown(replay, 'HTTP 401'),
  );
}

/** A Create Order with an altered signature (P-AUTH-5's refusals). */
function alteredCreateOrder(ctx: CheckContext, payload: unknown) {
  return ctx.send({ label: 'Create Order with an altered signature', path: CREATE_ORDER_PATH, payload, signature: alterLastCharacter });
}

/** AUTH-FAILURE-ENVELOPE (P-AUTH-5, P-ERR-1): refusals answer the general error envelope with code 401. */
async function authFailureEnvelope(ctx: CheckContext): Promise<void> {
  const refusals = [
    await sendProbe(ctx, 'Payout Status with an altered signature', { signature: alterLastCharacter }),
    await sendProbe(ctx, 'Payout Status without X-API-KEY', { omit: ['X-API-KEY'] }),
    await alteredCreateOrder(ctx, validOrder(ctx)),
  ];
  for (const exchange of refusals) {
    expectRefused(exchange, exchange.label);
    const schema = exchange.request.url.endsWith(PAYOUT_STATUS_PATH) ? 'payout-status-error-envelope' : 'error-envelope';
    const body = expectSchema(exchange, schema, `${exchange.label}: an authentication failure answers the error envelope`);
    expectThat(
      body.code === 401,
      `${exchange.label}: the envelope's code is ${JSON.stringify(body.code)}, not 401`,
      shown(exchange, 'code 401'),
    );
  }
}

/** AUTH-FAILURE-NO-EFFECT (P-AUTH-5): a refused Create Order leaves its order_id unused. */
async function authFailureCreatesNothing(ctx: CheckContext): Promise<void> {
  const order = validOrder(ctx);
  expectRefused(await alteredCreateOrder(ctx, order), 'a Create Order with an altered signature');
  const created = await ctx.send({ label: 'the same Create Order, correctly signed', path: CREATE_ORDER_PATH, payload: order });
  expectSuccess(created, 'the same order correctly signed must be created, since the refused one created nothing (a 409 means it did)');
}

/** AUTH-BEFORE-BODY (P-AUTH-6): a Create Order signed wrong is refused 401 whatever its body holds, so
 *  no validation detail reaches a caller that is not authenticated. */
async function authFirst(ctx: CheckContext): Promise<void> {
  const { order_amount: _, ...withoutAmount } = validOrder(ctx);
  const bodies: Array<[string, Pick<SendOptions, 'payload' | 'raw'>]> = [
    ['a body that is not JSON', { raw: '{"order_id": ' }],
    ['no order_amount', { payload: withoutAmount }],
    ['a negative order_amount', { payload: { ...validOrder(ctx), order_amount: -5 } }],
  ];
  for (const [what, body] of bodies) {
    const label = `Create Order with an altered signature and ${what}`;
    expectRefused(await ctx.send({ label, path: CREATE_ORDER_PATH, ...body, signature: alterLastCharacter }), label);
  }
}

/** AUTH-HTTPS (P-CFG, SHOULD): "use HTTPS only"; plain http is acceptable only on loopback. */
// eslint-disable-next-line @typescript-eslint/require-await -- a check is async by contract (Check.run): its failure is a rejection, as every other check's
async function baseUrlUsesHttps(ctx: CheckContext): Promise<void> {
  const url = new URL(ctx.config.baseUrl);
  const fine = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  expectThat(fine, `the base URL ${url.origin} is not https (plain http is acceptable only on a loopback host)`, {
    expected: 'an https base URL, or http on 127.0.0.0/8, localhost or ::1',
    actual: url.origin,
  });
}

export const authenticationChecks: Check[] = [
  check(
    'auth-accept-payout-status',
    'AUTH-ACCEPT',
    'a correctly signed Payout Status of a known payout succeeds',
    acceptsSignedPayoutStatus,
    ['fixtures.payouts.SUCCESS'],
  ),
  creating('auth-accept-create-order', 'AUTH-ACCEPT', 'a correctly signed Create Order succeeds', acceptsSignedCreateOrder),
  check('auth-header-case', 'AUTH-HEADER-CASE', 'lower-case header names are accepted', acceptsLowerCaseHeaderNames),
  refusal('auth-missing-key', 'AUTH-MISSING-KEY', 'no X-API-KEY: 401', () => [
    'Payout Status without X-API-KEY',
    { omit: ['X-API-KEY'] },
    'a request without X-API-KEY',
  ]),
  refusal('auth-missing-signature', 'AUTH-MISSING-SIGNATURE', 'no X-SIGNATURE: 401', () => [
    'Payout Status without X-SIGNATURE',
    { omit: ['X-SIGNATURE'] },
    'a request without X-SIGNATURE',
  ]),
  // A client that leaves the timestamp out signs the body alone.
  refusal('auth-missing-timestamp', 'AUTH-MISSING-TIMESTAMP', 'no X-TIMESTAMP, body alone signed: 401', () => [
    'Payout Status without X-TIMESTAMP, the body alone signed',
    { omit: ['X-TIMESTAMP'], signBodyOnly: true },
    'a request without X-TIMESTAMP',
  ]),
  refusal('auth-unknown-key', 'AUTH-UNKNOWN-KEY', 'an unknown API key: 401', (ctx) => [
    'Payout Status with an unknown API key',
    { as: unknownKeyCredentials(ctx) },
    'an unknown API key',
  ]),
  refusal('auth-wrong-secret', 'AUTH-WRONG-SECRET', 'signed with another secret: 401', (ctx) => [
    "Payout Status signed with another secret than the merchant's",
    { as: wrongSecretCredentials(ctx) },
    'a signature made with another secret',
  ]),
  refusal('auth-payload-changed', 'AUTH-PAYLOAD-CHANGED', 'body changed after signing: 401', (ctx) => [
    'Payout Status whose body differs from the signed one',
    { signedBody: canonicalize(unknownPayoutStatus(ctx)) },
    'a body changed after signing',
  ]),
  check(
    'auth-payload-changed-reused',
    'AUTH-PAYLOAD-CHANGED-REUSED',
    "another body with an accepted request's timestamp and signature: 401",
    refusesChangedPayloadReusingSignature,
  ),
  // Signed at t, sent with t − 5, still inside the window.
  refusal('auth-timestamp-changed', 'AUTH-TIMESTAMP-CHANGED', 'timestamp changed after signing: 401', (ctx) => {
    const signedAt = ctx.nowSeconds();
    return [
      'Payout Status signed at t, sent with X-TIMESTAMP t-5',
      { timestamp: signedAt - 5, signedTimestamp: String(signedAt) },
      'a timestamp changed after signing',
    ];
  }),
  refusal('auth-signature-truncated', 'AUTH-SIGNATURE-TRUNCATED', 'signature cut to 32 characters: 401', () => [
    'Payout Status with the signature cut to its first 32 characters',
    { signature: (s) => s.slice(0, 32) },
    'a truncated signature',
  ]),
  refusal('auth-signature-altered', 'AUTH-SIGNATURE-ALTERED', 'last signature character changed: 401', () => [
    'Payout Status with the last signature character changed',
    { signature: alterLastCharacter },
    'a signature with one character altered',
  ]),
  timestampRefusal(
    'auth-timestamp-not-digits',
    'AUTH-TIMESTAMP-NOT-DIGITS',
    'timestamp with letters, a sign or hex: 401',
    'a non-digit',
    (now) => [`${now}abc`, `+${now}`, `0x${now.toString(16)}`],
  ),
  timestampRefusal('auth-timestamp-fractional', 'AUTH-TIMESTAMP-FRACTIONAL', 'fractional timestamp: 401', 'a fractional', (now) => [
    `${now}.5`,
    `${now}.0`,
  ]),
  timestampRefusal(
    'auth-timestamp-milliseconds',
    'AUTH-TIMESTAMP-MILLISECONDS',
    'timestamp in milliseconds: 401',
    'a millisecond',
    (now) => [String(now * 1000 + 250)],
  ),
  timestampRefusal('auth-timestamp-empty', 'AUTH-TIMESTAMP-EMPTY', 'empty timestamp: 401', 'an empty', () => ['']),
  insideWindow('auth-window-recent', 'AUTH-WINDOW-RECENT', -1, 'old'),
  insideWindow('auth-window-ahead', 'AUTH-WINDOW-AHEAD', 1, 'ahead'),
  refusal('auth-window-expired', 'AUTH-WINDOW-EXPIRED', 'a timestamp window + 600 s old: 401', (ctx) => outsideWindow(ctx, -1, 'old')),
  refusal('auth-window-future', 'AUTH-WINDOW-FUTURE', 'a timestamp window + 600 s ahead: 401', (ctx) => outsideWindow(ctx, 1, 'ahead')),
  check('auth-replay', 'AUTH-REPLAY', 'a re-sent request is refused', refusesReplay),
  creating('auth-failure-envelope', 'AUTH-FAILURE-ENVELOPE', 'refusals answer the error envelope with code 401', authFailureEnvelope),
  creating('auth-failure-no-effect', 'AUTH-FAILURE-NO-EFFECT', 'a refused Create Order creates nothing', authFailureCreatesNothing),
  creating('auth-before-body', 'AUTH-BEFORE-BODY', 'a Create Order signed wrong is refused 401 whatever its body holds', authFirst),
  check('auth-https', 'AUTH-HTTPS', 'the base URL is https, or http on loopback', baseUrlUsesHttps),
];
