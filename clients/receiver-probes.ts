// The deliveries the receiver judge makes: genuine events whose strings a re-serializing receiver
// gets wrong, and forgeries that each break one thing a receiver must check (P-HOOK-7).
import type { WebhookEvent } from '../core/webhooks.js';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';
import { deliveryHeaders, signedDelivery, type AttemptResult, type Delivery } from '../webhooks/delivery.js';

type Kind = 'genuine' | 'forged' | 'redelivery';

/** One delivery the judge makes, what it is for, and what came of it. */
export interface Probe {
  kind: Kind;
  /** The requirement a forgery tests (genuine ones and the redelivery: their own). */
  requirement: string;
  label: string;
  delivery: Delivery;
  /** A forgery whose refusal SHOULD be this status (P-HOOK-7): 401, or 400 for a body not JSON. */
  refuseWith?: 401 | 400;
  result?: AttemptResult;
}

/** The secrets deliveries are signed with, and the window either side of the receiver's clock. */
export interface ForgeryKeys {
  /** Whose receiver it is: genuine deliveries are signed with this secret. */
  merchant: { secretKey: string };
  /** Forgeries are signed with these; an absent one leaves its forgery out (named in the report). */
  otherMerchant?: { secretKey: string } | undefined;
  otherEnvironment?: { secretKey?: string | undefined } | undefined;
  /** P-AUTH-3's default 300 s when absent. */
  toleranceSeconds?: number;
}

/** What kind of text a genuine event's record holds, for its label. */
export function describeText(event: WebhookEvent): string {
  const text = JSON.stringify(event.data);
  return /[^\x20-\x7e]/.test(text) ? 'non-ASCII text in its record' : /[<>&]/.test(text) ? 'HTML characters in its record' : 'ASCII record';
}

/** The genuine events: every subject, and strings a re-serializing receiver gets wrong (non-ASCII text,
 * <, > and &, slashes; P-HOOK-2 allows any UTF-8). */
export function genuineEvents(run: string, seconds: number): WebhookEvent[] {
  const payout = (n: number, status: string, message: string) =>
    payoutRecord([`pay_${run}_${n}`, `PO-RCV-${run}-${n}`, `UTR${seconds}${n}`], status, '1499.50', message);
  return [
    { event_id: `evt_rcv_${run}_1`, event: 'payout.success', created_at: seconds, data: payout(1, 'SUCCESS', 'Payout completed') },
    { event_id: `evt_rcv_${run}_2`, event: 'payout.success', created_at: seconds, data: payout(2, 'SUCCESS', 'Überweisung abgeschlossen') },
    {
      event_id: `evt_rcv_${run}_3`,
      event: 'payout.failed',
      created_at: seconds,
      data: payout(3, 'FAILED', 'Pago rechazado — saldo insuficiente (€)'),
    },
    {
      event_id: `evt_rcv_${run}_4`,
      event: 'payment.success',
      created_at: seconds,
      data: {
        svc_order_id: `svc_ord_${run}`,
        created_at: '25-11-2026 10:00 AM',
        order_id: `注文-${run}`,
        order_status: 'PAID',
        payment_link: `https://pay.example.test/checkout/svc_ord_${run}?a=1&b=2`,
        order_amount: '1500',
        order_currency: 'JPY',
        order_note: '<b>gift</b> & card',
        payment_method: 'upi',
      },
    },
  ];
}

/** A payout record as an event carries it; only a SUCCESS has a UTR and was debited. */
function payoutRecord([id, orderId, utr]: [string, string, string], status: string, amount: string, message: string) {
  const success = status === 'SUCCESS';
  return {
    payout_id: id,
    payout_order_id: orderId,
    wallet_id: 'wtx_rcv',
    status,
    amount,
    currency: 'INR',
    utr_number: success ? utr : 'NA',
    message,
    amount_debited: success ? 'YES' : 'NO',
    created_at: '25-11-2026',
  };
}

/** Makes forged events, numbered in order, and signs them as the merchant's sender would. */
function forger(run: string, seconds: number, secret: string) {
  let n = 0;
  return {
    run,
    seconds,
    secret,
    event(): WebhookEvent {
      n += 1;
      return {
        event_id: `evt_forged_${run}_${n}`,
        event: 'payout.success',
        created_at: seconds,
        data: payoutRecord([`pay_f_${run}_${n}`, `PO-FORGED-${run}-${n}`, `UTR${seconds}`], 'SUCCESS', '10.00', 'Payout completed'),
      };
    },
    signedAs: (e: WebhookEvent, key: string, ts: number | string = seconds): Delivery => signedDelivery(e, key, ts),
  };
}

type Forger = ReturnType<typeof forger>;

function forged(requirement: string, label: string, delivery: Delivery, refuseWith: 401 | 400 = 401): Probe {
  return { kind: 'forged', requirement, label: `forged: ${label}`, delivery, refuseWith };
}

function signatureForgeries(f: Forger): Probe[] {
  const missing = f.event();
  const good = f.signedAs(f.event(), f.secret);
  const signature = good.headers['X-SIGNATURE']!;
  const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
  const signedBody = f.signedAs(f.event(), f.secret);
  const signedTs = f.signedAs(f.event(), f.secret, String(f.seconds - 5));
  const requirement = 'RECEIVER-REFUSE-SIGNATURE';
  return [
    forged(requirement, 'no X-SIGNATURE', {
      body: canonicalize(missing),
      headers: deliveryHeaders(missing.event_id, String(f.seconds), undefined),
    }),
    forged(requirement, 'X-SIGNATURE with its last digit changed', {
      body: good.body,
      headers: { ...good.headers, 'X-SIGNATURE': flipped },
    }),
    forged(requirement, 'amount changed from 10.00 to 99999.00 after signing', {
      body: signedBody.body.replace('"amount":"10.00"', '"amount":"99999.00"'),
      headers: signedBody.headers,
    }),
    forged(requirement, 'X-TIMESTAMP changed by 5 s after signing', {
      body: signedTs.body,
      headers: { ...signedTs.headers, 'X-TIMESTAMP': String(f.seconds) },
    }),
  ];
}

/** A secret that is the merchant's own would make the forgery genuine: it is left out, saying so. */
function otherSecretForgery(f: Forger, key: string | undefined, whose: string, configKey: string, skipped: string[]): Probe[] {
  if (key && key !== f.secret) return [forged('RECEIVER-REFUSE-OTHER-SECRET', `signed with ${whose} secret`, f.signedAs(f.event(), key))];
  skipped.push(key ? `${whose} secret (${configKey} is the merchant's own)` : `${whose} secret (config key ${configKey})`);
  return [];
}

function timestampForgeries(f: Forger, tolerance: number): Probe[] {
  const e = f.event();
  const bodyOnly = canonicalize(e);
  const requirement = 'RECEIVER-REFUSE-TIMESTAMP';
  const unsigned = forged(requirement, 'no X-TIMESTAMP (signed over the body alone)', {
    body: bodyOnly,
    headers: deliveryHeaders(e.event_id, undefined, hmacSha256Hex(f.secret, bodyOnly)),
  });
  const fractional = forged(
    requirement,
    `X-TIMESTAMP "${f.seconds}.5" (not whole seconds), signed over it`,
    f.signedAs(f.event(), f.secret, `${f.seconds}.5`),
  );
  const stale = 3 * tolerance;
  const old = f.signedAs(f.event(), f.secret, String(f.seconds - stale));
  return [unsigned, fractional, forged(requirement, `X-TIMESTAMP ${stale} s old, signed over it`, old)];
}

function nonJsonForgery(f: Forger): Probe {
  const text = `event=payout.success&payout_order_id=PO-FORGED-${f.run}`;
  const ts = String(f.seconds);
  const headers = deliveryHeaders(`evt_forged_${f.run}_text`, ts, hmacSha256Hex(f.secret, text + ts));
  return forged('RECEIVER-REFUSE-NON-JSON', 'a body that is not JSON, correctly signed', { body: text, headers }, 400);
}

/** The forgeries of P-HOOK-7, each breaking one thing; one whose secret is not configured is named in `skipped`. */
export function forgeries(run: string, seconds: number, input: ForgeryKeys, skipped: string[]): Probe[] {
  const f = forger(run, seconds, input.merchant.secretKey);
  return [
    ...signatureForgeries(f),
    ...otherSecretForgery(f, input.otherMerchant?.secretKey, "another merchant's", 'otherMerchant.secretKey', skipped),
    ...otherSecretForgery(f, input.otherEnvironment?.secretKey, "the other environment's", 'otherEnvironment.secretKey', skipped),
    ...timestampForgeries(f, input.toleranceSeconds ?? 300),
    nonJsonForgery(f),
  ];
}
