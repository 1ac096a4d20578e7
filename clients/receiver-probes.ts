// The deliveries the receiver judge makes: genuine events whose strings a re-serializing receiver
// gets wrong, and forgeries that each break one thing a receiver must check (P-HOOK-7).
import type { WebhookEvent } from '../core/webhooks.js';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';
import { deliveryHeaders, type AttemptResult, type Delivery } from '../webhooks/delivery.js';

export type Kind = 'genuine' | 'forged' | 'redelivery';

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

/** The secrets forgeries are signed with (the merchant's, another merchant's, the other environment's) and the window. */
export interface ForgeryKeys {
  merchant: { secretKey: string };
  otherMerchant?: { secretKey: string } | undefined;
  otherEnvironment?: { secretKey?: string | undefined } | undefined;
  toleranceSeconds?: number;
}

/** What kind of text a genuine event's record holds, for its label. */
export function describeText(event: WebhookEvent): string {
  const text = JSON.stringify(event.data);
  return /[^\x20-\x7e]/.test(text) ? 'non-ASCII text in its record' : /[<>&]/.test(text) ? 'HTML characters in its record' : 'ASCII record';
}

/**
 * The genuine events: every subject, and strings a re-serializing receiver gets wrong: German and
 * Japanese text, an em dash and a euro sign, <, > and &, and slashes (P-HOOK-2: any UTF-8).
 */
export function genuineEvents(run: string, seconds: number): WebhookEvent[] {
  const payout = (n: number, status: string, message: string): Record<string, unknown> => ({
    payout_id: `pay_${run}_${n}`,
    payout_order_id: `PO-RCV-${run}-${n}`,
    wallet_id: 'wtx_rcv',
    status,
    amount: '1499.50',
    currency: 'INR',
    utr_number: status === 'SUCCESS' ? `UTR${seconds}${n}` : 'NA',
    message,
    amount_debited: status === 'SUCCESS' ? 'YES' : 'NO',
    created_at: '25-11-2026',
  });
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

/** The forgeries of P-HOOK-7, each breaking one thing; one whose secret is not configured is named in `skipped`. */
export function forgeries(run: string, seconds: number, input: ForgeryKeys, skipped: string[]): Probe[] {
  const secret = input.merchant.secretKey;
  const tolerance = input.toleranceSeconds ?? 300;
  let n = 0;
  const event = (): WebhookEvent => {
    n += 1;
    return {
      event_id: `evt_forged_${run}_${n}`,
      event: 'payout.success',
      created_at: seconds,
      data: {
        payout_id: `pay_f_${run}_${n}`,
        payout_order_id: `PO-FORGED-${run}-${n}`,
        wallet_id: 'wtx_rcv',
        status: 'SUCCESS',
        amount: '10.00',
        currency: 'INR',
        utr_number: `UTR${seconds}`,
        message: 'Payout completed',
        amount_debited: 'YES',
        created_at: '25-11-2026',
      },
    };
  };
  const probe = (requirement: string, label: string, delivery: Delivery, refuseWith: 401 | 400 = 401): Probe => ({
    kind: 'forged',
    requirement,
    label: `forged: ${label}`,
    delivery,
    refuseWith,
  });
  const signedAs = (e: WebhookEvent, key: string, ts: string = String(seconds)): Delivery => {
    const body = canonicalize(e);
    return { body, headers: deliveryHeaders(e.event_id, ts, hmacSha256Hex(key, body + ts)) };
  };
  const probes: Probe[] = [];

  let e = event();
  probes.push(
    probe('RECEIVER-REFUSE-SIGNATURE', 'no X-SIGNATURE', {
      body: canonicalize(e),
      headers: deliveryHeaders(e.event_id, String(seconds), undefined),
    }),
  );
  e = event();
  const good = signedAs(e, secret);
  const signature = good.headers['X-SIGNATURE']!;
  const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
  probes.push(
    probe('RECEIVER-REFUSE-SIGNATURE', 'X-SIGNATURE with its last digit changed', {
      body: good.body,
      headers: { ...good.headers, 'X-SIGNATURE': flipped },
    }),
  );
  e = event();
  const signedBody = signedAs(e, secret);
  probes.push(
    probe('RECEIVER-REFUSE-SIGNATURE', 'amount changed from 10.00 to 99999.00 after signing', {
      body: signedBody.body.replace('"amount":"10.00"', '"amount":"99999.00"'),
      headers: signedBody.headers,
    }),
  );
  e = event();
  const signedTs = signedAs(e, secret, String(seconds - 5));
  probes.push(
    probe('RECEIVER-REFUSE-SIGNATURE', 'X-TIMESTAMP changed by 5 s after signing', {
      body: signedTs.body,
      headers: { ...signedTs.headers, 'X-TIMESTAMP': String(seconds) },
    }),
  );

  // A secret that is the merchant's own would make the forgery genuine: it is left out, saying so.
  const other = input.otherMerchant?.secretKey;
  if (other && other !== secret)
    probes.push(probe('RECEIVER-REFUSE-OTHER-SECRET', "signed with another merchant's secret", signedAs(event(), other)));
  else
    skipped.push(
      other
        ? "another merchant's secret (otherMerchant.secretKey is the merchant's own)"
        : "another merchant's secret (config key otherMerchant.secretKey)",
    );
  const live = input.otherEnvironment?.secretKey;
  if (live && live !== secret)
    probes.push(probe('RECEIVER-REFUSE-OTHER-SECRET', "signed with the other environment's secret", signedAs(event(), live)));
  else
    skipped.push(
      live
        ? "the other environment's secret (otherEnvironment.secretKey is the merchant's own)"
        : "the other environment's secret (config key otherEnvironment.secretKey)",
    );

  e = event();
  const bodyOnly = canonicalize(e);
  probes.push(
    probe('RECEIVER-REFUSE-TIMESTAMP', 'no X-TIMESTAMP (signed over the body alone)', {
      body: bodyOnly,
      headers: deliveryHeaders(e.event_id, undefined, hmacSha256Hex(secret, bodyOnly)),
    }),
  );
  probes.push(
    probe(
      'RECEIVER-REFUSE-TIMESTAMP',
      `X-TIMESTAMP "${seconds}.5" (not whole seconds), signed over it`,
      signedAs(event(), secret, `${seconds}.5`),
    ),
  );
  const stale = 3 * tolerance;
  probes.push(
    probe('RECEIVER-REFUSE-TIMESTAMP', `X-TIMESTAMP ${stale} s old, signed over it`, signedAs(event(), secret, String(seconds - stale))),
  );

  const text = `event=payout.success&payout_order_id=PO-FORGED-${run}`;
  probes.push(
    probe(
      'RECEIVER-REFUSE-NON-JSON',
      'a body that is not JSON, correctly signed',
      { body: text, headers: deliveryHeaders(`evt_forged_${run}_text`, String(seconds), hmacSha256Hex(secret, text + String(seconds))) },
      400,
    ),
  );
  return probes;
}
