// Requests and expectations of the Authentication, Signature, Environments and Errors checks, over
// the shared builders of requests.ts. Every request goes through ctx.send (suites/http.ts).
import { expectStatus, expectThat, type Check, type CheckContext, type Need } from '../check.js';
import type { Credentials, Exchange, SendOptions } from '../http.js';
import { PAYOUT_STATUS_PATH, payoutStatusBody } from '../requests.js';
import { shown } from './shown.js';

/** A Payout Status of the merchant's own wallet and a payout_order_id never used: harmless, needs no
 *  optional config, and answers 404 once authenticated (P-PAYOUT-4), 401 when refused (P-AUTH-2). */
export function unknownPayoutStatus(ctx: CheckContext): Record<string, unknown> {
  return payoutStatusBody(ctx, ctx.ids.payoutOrderId('AUTH'));
}

/** Sends the harmless Payout Status above, with whatever the check changes about its authentication. */
export function sendProbe(ctx: CheckContext, label: string, options: Omit<SendOptions, 'label' | 'path'> = {}): Promise<Exchange> {
  return ctx.send({ label, path: PAYOUT_STATUS_PATH, payload: unknownPayoutStatus(ctx), ...options });
}

/** P-AUTH-2: the request must be refused with 401, nothing else. */
export function expectRefused(exchange: Exchange, why: string): void {
  expectStatus(exchange, [401], why);
}

/** Authentication let the request through: neither 401, 403 nor a 5xx (which proves nothing). The
 *  probe's 404 is not required: a slip in Payout Status is its own requirements', not authentication's. */
export function expectAuthenticated(exchange: Exchange, why: string): void {
  const status = exchange.response?.status;
  expectThat(
    status !== undefined && status !== 401 && status !== 403 && status < 500,
    `${why}: expected the request to pass authentication, got ${status === undefined ? 'no answer' : `HTTP ${status}`}`,
    shown(exchange, 'an answer other than 401, 403 or 5xx (the probe answers 404 once authenticated)'),
  );
}

/** The merchant's key with another secret: the other merchant's when configured, else a made-up one. */
export function wrongSecretCredentials(ctx: CheckContext): Credentials {
  const other = ctx.config.otherMerchant?.secretKey;
  const prefix = ctx.config.merchant.secretKey.startsWith('sk_live_') ? 'sk_live_' : 'sk_test_';
  const secretKey = other !== undefined && other !== ctx.config.merchant.secretKey ? other : `${prefix}svcconformance_not_the_secret`;
  return { apiKey: ctx.config.merchant.apiKey, secretKey };
}

/** An API key no merchant has, in the shape of the merchant's environment. */
export function unknownKeyCredentials(ctx: CheckContext): Credentials {
  const prefix = ctx.config.merchant.apiKey.startsWith('pk_live_') ? 'pk_live_' : 'pk_test_';
  return { apiKey: `${prefix}svcconformance_unknown_${ctx.ids.nonce().toLowerCase()}`, secretKey: ctx.config.merchant.secretKey };
}

/** The signature with its last hex character changed (P-AUTH-2: "altered"). */
export function alterLastCharacter(signature: string): string {
  const last = signature.slice(-1);
  return signature.slice(0, -1) + (last === '0' ? '1' : '0');
}

/** A check that creates nothing, so it runs against production too. */
export function check(id: string, requirement: string, title: string, run: Check['run'], needs?: readonly Need[]): Check {
  return { id, requirement, title, ...(needs === undefined ? {} : { needs }), run };
}

/** A check that creates records: refused against production without --allow-production (P-ENV-3). */
export function creating(id: string, requirement: string, title: string, run: Check['run'], needs?: readonly Need[]): Check {
  return { id, requirement, title, ...(needs === undefined ? {} : { needs }), creates: true, run };
}
