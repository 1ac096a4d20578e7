// Interface: Authentication. Profile: P-AUTH-1…5, P-SIGN-2/3, P-CFG (https). Each check is one small
// named function; the refusals all use a harmless Payout Status that answers 404 once authenticated.
import { canonicalize } from '../../signer/canonical.js';
import { answered, CheckFailure, CheckSkipped, expectSchema, expectThat, type Check, type CheckContext } from '../check.js';
import { toleranceOf } from '../config.js';
import {
  alterLastCharacter,
  CREATE_ORDER_PATH,
  expectAuthenticated,
  expectRefused,
  expectSuccess,
  isLoopbackHost,
  PAYOUT_STATUS_PATH,
  sendProbe,
  unknownKeyCredentials,
  unknownPayoutStatus,
  validOrder,
  wrongSecretCredentials,
} from './shared-auth.js';

/** AUTH-ACCEPT (P-SIGN-2, P-SIGN-3, P-AUTH-1): a correctly signed read of a known payout succeeds. */
async function acceptsSignedPayoutStatus(ctx: CheckContext): Promise<void> {
  const payoutOrderId = ctx.config.fixtures?.payouts?.SUCCESS;
  if (payoutOrderId === undefined) throw new CheckSkipped('needs fixtures.payouts.SUCCESS in the config');
  const payload = { svc_wallet_id: ctx.config.merchant.walletId, debit_account_type: 'svc_wallet', payout_order_id: payoutOrderId };
  const exchange = await ctx.send({ label: 'correctly signed Payout Status of the SUCCESS fixture', path: PAYOUT_STATUS_PATH, payload });
  expectSuccess(exchange, 'a correctly signed canonical request must be accepted');
}

/** AUTH-ACCEPT: a correctly signed Create Order succeeds. */
async function acceptsSignedCreateOrder(ctx: CheckContext): Promise<void> {
  const exchange = await ctx.send({ label: 'correctly signed Create Order', path: CREATE_ORDER_PATH, payload: validOrder(ctx) });
  expectSuccess(exchange, 'a correctly signed canonical Create Order must be accepted');
}

/** AUTH-HEADER-CASE (P-AUTH-1): header names are case-insensitive. */
async function acceptsLowerCaseHeaderNames(ctx: CheckContext): Promise<void> {
  const exchange = await sendProbe(ctx, 'Payout Status with every header name in lower case', { headerCase: 'lower' });
  expectAuthenticated(exchange, 'lower-case x-api-key, x-signature and x-timestamp must be accepted');
}

/** AUTH-MISSING-KEY (P-AUTH-2). */
async function refusesMissingApiKey(ctx: CheckContext): Promise<void> {
  expectRefused(await sendProbe(ctx, 'Payout Status without X-API-KEY', { omit: ['X-API-KEY'] }), 'a request without X-API-KEY');
}

/** AUTH-MISSING-SIGNATURE (P-AUTH-2). */
async function refusesMissingSignature(ctx: CheckContext): Promise<void> {
  expectRefused(await sendProbe(ctx, 'Payout Status without X-SIGNATURE', { omit: ['X-SIGNATURE'] }), 'a request without X-SIGNATURE');
}

/** AUTH-MISSING-TIMESTAMP (P-AUTH-2): a client that leaves the timestamp out signs the body alone. */
async function refusesMissingTimestamp(ctx: CheckContext): Promise<void> {
  const exchange = await sendProbe(ctx, 'Payout Status without X-TIMESTAMP, the body alone signed', {
    omit: ['X-TIMESTAMP'],
    signBodyOnly: true,
  });
  expectRefused(exchange, 'a request without X-TIMESTAMP');
}

/** AUTH-UNKNOWN-KEY (P-AUTH-2): a key no merchant has, signed with the merchant's secret. */
async function refusesUnknownApiKey(ctx: CheckContext): Promise<void> {
  expectRefused(await sendProbe(ctx, 'Payout Status with an unknown API key', { as: unknownKeyCredentials(ctx) }), 'an unknown API key');
}

/** AUTH-WRONG-SECRET (P-AUTH-2): the merchant's key, signed with another secret. */
async function refusesWrongSecret(ctx: CheckContext): Promise<void> {
  expectRefused(
    await sendProbe(ctx, "Payout Status signed with another secret than the merchant's", { as: wrongSecretCredentials(ctx) }),
    'a signature made with another secret',
  );
}

/** AUTH-PAYLOAD-CHANGED (P-AUTH-2, P-SIGN-3): one body signed, another sent. */
async function refusesChangedPayload(ctx: CheckContext): Promise<void> {
  const signed = canonicalize(unknownPayoutStatus(ctx));
  const exchange = await sendProbe(ctx, 'Payout Status whose body differs from the signed one', { signedBody: signed });
  expectRefused(exchange, 'a body changed after signing');
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

/** AUTH-TIMESTAMP-CHANGED (P-AUTH-2): signed at t, sent with t − 5, still inside the window. */
async function refusesChangedTimestamp(ctx: CheckContext): Promise<void> {
  const signedAt = ctx.nowSeconds();
  const exchange = await sendProbe(ctx, 'Payout Status signed at t, sent with X-TIMESTAMP t-5', {
    timestamp: signedAt - 5,
    signedTimestamp: String(signedAt),
  });
  expectRefused(exchange, 'a timestamp changed after signing');
}

/** AUTH-SIGNATURE-TRUNCATED (P-AUTH-2): the first 32 of 64 hex characters. */
async function refusesTruncatedSignature(ctx: CheckContext): Promise<void> {
  const exchange = await sendProbe(ctx, 'Payout Status with the signature cut to its first 32 characters', {
    signature: (s) => s.slice(0, 32),
  });
  expectRefused(exchange, 'a truncated signature');
}

/** AUTH-SIGNATURE-ALTERED (P-AUTH-2): the last hex character changed. */
async function refusesAlteredSignature(ctx: CheckContext): Promise<void> {
  const exchange = await sendProbe(ctx, 'Payout Status with the last signature character changed', { signature: alterLastCharacter });
  expectRefused(exchange, 'a signature with one character altered');
}

/** Sends each malformed timestamp signed with that same text, as a client making the mistake would. */
async function refusesTimestamps(ctx: CheckContext, what: string, texts: readonly string[]): Promise<void> {
  for (const text of texts) {
    const exchange = await sendProbe(ctx, `Payout Status with ${what} X-TIMESTAMP ${JSON.stringify(text)}, signed with it`, {
      timestamp: text,
    });
    expectRefused(exchange, `${what} timestamp ${JSON.stringify(text)}`);
  }
}

/** AUTH-TIMESTAMP-NOT-DIGITS (P-AUTH-2): letters, a sign, hexadecimal. */
async function refusesNonDigitTimestamp(ctx: CheckContext): Promise<void> {
  const now = ctx.nowSeconds();
  await refusesTimestamps(ctx, 'a non-digit', [`${now}abc`, `+${now}`, `0x${now.toString(16)}`]);
}

/** AUTH-TIMESTAMP-FRACTIONAL (P-AUTH-2). */
async function refusesFractionalTimestamp(ctx: CheckContext): Promise<void> {
  const now = ctx.nowSeconds();
  await refusesTimestamps(ctx, 'a fractional', [`${now}.5`, `${now}.0`]);
}

/** AUTH-TIMESTAMP-MILLISECONDS (P-AUTH-2): the current time in milliseconds. */
async function refusesMillisecondTimestamp(ctx: CheckContext): Promise<void> {
  await refusesTimestamps(ctx, 'a millisecond', [String(ctx.nowSeconds() * 1000 + 250)]);
}

/** AUTH-TIMESTAMP-EMPTY (P-AUTH-2). */
async function refusesEmptyTimestamp(ctx: CheckContext): Promise<void> {
  await refusesTimestamps(ctx, 'an empty', ['']);
}

/**
 * A window narrower than 30 s (profile.timestampToleranceSeconds) is the deployment's to set: then a
 * timestamp 30 s old or 30 s ahead is outside it, and P-AUTH-3's SHOULD does not apply.
 */
function skipUnder30SecondWindow(ctx: CheckContext): void {
  if (toleranceOf(ctx.config) < 30)
    throw new CheckSkipped(`the configured window is ${toleranceOf(ctx.config)} s, narrower than 30 s`, { notApplicable: true });
}

/** AUTH-WINDOW-RECENT (P-AUTH-3, SHOULD): 30 seconds old is inside any sensible window. */
async function acceptsRecentTimestamp(ctx: CheckContext): Promise<void> {
  skipUnder30SecondWindow(ctx);
  const exchange = await sendProbe(ctx, 'Payout Status with a timestamp 30 s old', { timestamp: ctx.nowSeconds() - 30 });
  expectAuthenticated(exchange, 'a timestamp 30 seconds old must be accepted');
}

/** AUTH-WINDOW-AHEAD (P-AUTH-3, SHOULD): 30 seconds ahead, a client whose clock runs a little fast. */
async function acceptsTimestampAhead(ctx: CheckContext): Promise<void> {
  skipUnder30SecondWindow(ctx);
  const exchange = await sendProbe(ctx, 'Payout Status with a timestamp 30 s ahead', { timestamp: ctx.nowSeconds() + 30 });
  expectAuthenticated(exchange, 'a timestamp 30 seconds ahead must be accepted');
}

/** AUTH-WINDOW-EXPIRED (P-AUTH-3): older than the window by 600 s. */
async function refusesExpiredTimestamp(ctx: CheckContext): Promise<void> {
  const age = toleranceOf(ctx.config) + 600;
  const exchange = await sendProbe(ctx, `Payout Status with a timestamp ${age} s old`, { timestamp: ctx.nowSeconds() - age });
  expectRefused(exchange, `a timestamp ${age} s old (window ${toleranceOf(ctx.config)} s + 600 s)`);
}

/** AUTH-WINDOW-FUTURE (P-AUTH-3): ahead of the window by 600 s. */
async function refusesFutureTimestamp(ctx: CheckContext): Promise<void> {
  const ahead = toleranceOf(ctx.config) + 600;
  const exchange = await sendProbe(ctx, `Payout Status with a timestamp ${ahead} s ahead`, { timestamp: ctx.nowSeconds() + ahead });
  expectRefused(exchange, `a timestamp ${ahead} s ahead (window ${toleranceOf(ctx.config)} s + 600 s)`);
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
    {
      expected: 'HTTP 401',
      actual: answered(replay),
      exchange: replay,
    },
  );
}

/** AUTH-FAILURE-ENVELOPE (P-AUTH-5, P-ERR-1): refusals answer the general error envelope with code 401. */
async function authFailureAnswersEnvelope(ctx: CheckContext): Promise<void> {
  const refusals = [
    await sendProbe(ctx, 'Payout Status with an altered signature', { signature: alterLastCharacter }),
    await sendProbe(ctx, 'Payout Status without X-API-KEY', { omit: ['X-API-KEY'] }),
    await ctx.send({
      label: 'Create Order with an altered signature',
      path: CREATE_ORDER_PATH,
      payload: validOrder(ctx),
      signature: alterLastCharacter,
    }),
  ];
  for (const exchange of refusals) {
    expectRefused(exchange, exchange.label);
    const schema = exchange.request.url.endsWith(PAYOUT_STATUS_PATH) ? 'payout-status-error-envelope' : 'error-envelope';
    const body = expectSchema(exchange, schema, `${exchange.label}: an authentication failure answers the error envelope`);
    expectThat(body.code === 401, `${exchange.label}: the envelope's code is ${JSON.stringify(body.code)}, not 401`, {
      expected: 'code 401',
      actual: answered(exchange),
      exchange,
    });
  }
}

/** AUTH-FAILURE-NO-EFFECT (P-AUTH-5): a refused Create Order leaves its order_id unused. */
async function authFailureCreatesNothing(ctx: CheckContext): Promise<void> {
  const order = validOrder(ctx);
  const refused = await ctx.send({
    label: 'Create Order with an altered signature',
    path: CREATE_ORDER_PATH,
    payload: order,
    signature: alterLastCharacter,
  });
  expectRefused(refused, 'a Create Order with an altered signature');
  const created = await ctx.send({ label: 'the same Create Order, correctly signed', path: CREATE_ORDER_PATH, payload: order });
  expectSuccess(created, 'the same order correctly signed must be created, since the refused one created nothing (a 409 means it did)');
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
  {
    id: 'auth-accept-payout-status',
    requirement: 'AUTH-ACCEPT',
    title: 'a correctly signed Payout Status of a known payout succeeds',
    needs: ['fixtures.payouts.SUCCESS'],
    run: acceptsSignedPayoutStatus,
  },
  {
    id: 'auth-accept-create-order',
    requirement: 'AUTH-ACCEPT',
    title: 'a correctly signed Create Order succeeds',
    creates: true,
    run: acceptsSignedCreateOrder,
  },
  {
    id: 'auth-header-case',
    requirement: 'AUTH-HEADER-CASE',
    title: 'lower-case header names are accepted',
    run: acceptsLowerCaseHeaderNames,
  },
  { id: 'auth-missing-key', requirement: 'AUTH-MISSING-KEY', title: 'no X-API-KEY: 401', run: refusesMissingApiKey },
  { id: 'auth-missing-signature', requirement: 'AUTH-MISSING-SIGNATURE', title: 'no X-SIGNATURE: 401', run: refusesMissingSignature },
  {
    id: 'auth-missing-timestamp',
    requirement: 'AUTH-MISSING-TIMESTAMP',
    title: 'no X-TIMESTAMP, body alone signed: 401',
    run: refusesMissingTimestamp,
  },
  { id: 'auth-unknown-key', requirement: 'AUTH-UNKNOWN-KEY', title: 'an unknown API key: 401', run: refusesUnknownApiKey },
  { id: 'auth-wrong-secret', requirement: 'AUTH-WRONG-SECRET', title: 'signed with another secret: 401', run: refusesWrongSecret },
  { id: 'auth-payload-changed', requirement: 'AUTH-PAYLOAD-CHANGED', title: 'body changed after signing: 401', run: refusesChangedPayload },
  {
    id: 'auth-payload-changed-reused',
    requirement: 'AUTH-PAYLOAD-CHANGED-REUSED',
    title: "another body with an accepted request's timestamp and signature: 401",
    run: refusesChangedPayloadReusingSignature,
  },
  {
    id: 'auth-timestamp-changed',
    requirement: 'AUTH-TIMESTAMP-CHANGED',
    title: 'timestamp changed after signing: 401',
    run: refusesChangedTimestamp,
  },
  {
    id: 'auth-signature-truncated',
    requirement: 'AUTH-SIGNATURE-TRUNCATED',
    title: 'signature cut to 32 characters: 401',
    run: refusesTruncatedSignature,
  },
  {
    id: 'auth-signature-altered',
    requirement: 'AUTH-SIGNATURE-ALTERED',
    title: 'last signature character changed: 401',
    run: refusesAlteredSignature,
  },
  {
    id: 'auth-timestamp-not-digits',
    requirement: 'AUTH-TIMESTAMP-NOT-DIGITS',
    title: 'timestamp with letters, a sign or hex: 401',
    run: refusesNonDigitTimestamp,
  },
  {
    id: 'auth-timestamp-fractional',
    requirement: 'AUTH-TIMESTAMP-FRACTIONAL',
    title: 'fractional timestamp: 401',
    run: refusesFractionalTimestamp,
  },
  {
    id: 'auth-timestamp-milliseconds',
    requirement: 'AUTH-TIMESTAMP-MILLISECONDS',
    title: 'timestamp in milliseconds: 401',
    run: refusesMillisecondTimestamp,
  },
  { id: 'auth-timestamp-empty', requirement: 'AUTH-TIMESTAMP-EMPTY', title: 'empty timestamp: 401', run: refusesEmptyTimestamp },
  { id: 'auth-window-recent', requirement: 'AUTH-WINDOW-RECENT', title: 'a timestamp 30 s old is accepted', run: acceptsRecentTimestamp },
  { id: 'auth-window-ahead', requirement: 'AUTH-WINDOW-AHEAD', title: 'a timestamp 30 s ahead is accepted', run: acceptsTimestampAhead },
  {
    id: 'auth-window-expired',
    requirement: 'AUTH-WINDOW-EXPIRED',
    title: 'a timestamp window + 600 s old: 401',
    run: refusesExpiredTimestamp,
  },
  {
    id: 'auth-window-future',
    requirement: 'AUTH-WINDOW-FUTURE',
    title: 'a timestamp window + 600 s ahead: 401',
    run: refusesFutureTimestamp,
  },
  { id: 'auth-replay', requirement: 'AUTH-REPLAY', title: 'a re-sent request is refused', run: refusesReplay },
  {
    id: 'auth-failure-envelope',
    requirement: 'AUTH-FAILURE-ENVELOPE',
    title: 'refusals answer the error envelope with code 401',
    creates: true,
    run: authFailureAnswersEnvelope,
  },
  {
    id: 'auth-failure-no-effect',
    requirement: 'AUTH-FAILURE-NO-EFFECT',
    title: 'a refused Create Order creates nothing',
    creates: true,
    run: authFailureCreatesNothing,
  },
  { id: 'auth-https', requirement: 'AUTH-HTTPS', title: 'the base URL is https, or http on loopback', run: baseUrlUsesHttps },
];
