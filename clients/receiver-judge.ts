// Judging a merchant's webhook receiver (P-HOOK-6…8): the kit delivers genuine events (some whose
// strings hold non-ASCII text, HTML characters and slashes), forged ones (each breaking one thing a
// receiver must check) and a redelivery, and judges the answers. The deliveries are built here; the
// wire format is the sandbox's own (webhooks/delivery.ts), so what is genuine here is what a
// conforming sender sends.
import { readPackageJson } from '../common/package-root.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Exchange } from '../core/exchange.js';
import type { CheckResult, Requirement } from '../core/report.js';
import { ACK_SHOULD_WITHIN_MS, ACK_WITHIN_MS, type WebhookEvent } from '../core/webhooks.js';
import { canonicalize } from '../signer/canonical.js';
import { hmacSha256Hex } from '../signer/sign.js';
import { createRedactor, evidenceHeaders } from '../common/redact.js';
import { DeliveryClient, deliveryHeaders, signedDelivery, type AttemptResult, type Delivery } from '../webhooks/delivery.js';

let cached: Requirement[] | undefined;

/** The receiver requirement catalog (clients/receiver-catalog.json): P-HOOK-6…9. */
export function receiverCatalog(): Requirement[] {
  cached ??= readPackageJson<{ requirements: Requirement[] }>('clients/receiver-catalog.json').requirements;
  return cached;
}

export interface ReceiverJudgeInput {
  /** Where the receiver listens. */
  url: string;
  /** Whose receiver it is: genuine deliveries are signed with this secret. */
  merchant: { secretKey: string };
  /** Forgeries are signed with these; an absent one leaves its forgery out (named in the report). */
  otherMerchant?: { secretKey: string } | undefined;
  otherEnvironment?: { secretKey?: string | undefined } | undefined;
  /** The window either side of the receiver's clock (P-AUTH-3's default 300 s). */
  toleranceSeconds?: number;
  /**
   * The sender's clock: the events' timestamps, and the acknowledgement windows (10 s, 2 s) are on
   * it (real time by default; a test's manual clock closes a window without waiting for it).
   */
  clock?: Clock;
  /** Told of each delivery as its answer comes, for the console. */
  onDelivery?: (line: string) => void;
}

type Kind = 'genuine' | 'forged' | 'redelivery';

/** One delivery the judge makes, what it is for, and what came of it. */
interface Probe {
  kind: Kind;
  /** The requirement a forgery tests (genuine ones and the redelivery: their own). */
  requirement: string;
  label: string;
  delivery: Delivery;
  /** A forgery whose refusal SHOULD be this status (P-HOOK-7): 401, or 400 for a body not JSON. */
  refuseWith?: 401 | 400;
  result?: AttemptResult;
}

/** What a run of the judge found: a result per receiver requirement, and the deliveries made. */
export interface ReceiverJudgement {
  results: CheckResult[];
  deliveries: number;
}

/** P-HOOK-9 is seen only in a client's own traffic, so verify-receiver leaves it to verify-client. */
export const CONFIRMS_STATUS = 'RECEIVER-CONFIRMS-STATUS';

/**
 * Delivers every probe to the receiver and judges P-HOOK-6…8. Genuine events and forgeries go out
 * together (so a receiver that takes 12 s costs 10 s, not minutes); the redelivery follows once the
 * event it repeats has been acknowledged.
 */
export async function judgeReceiver(input: ReceiverJudgeInput): Promise<ReceiverJudgement> {
  const clock = input.clock ?? systemClock;
  const now = () => clock.now();
  const seconds = Math.floor(now() / 1000);
  const run = `${seconds.toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
  const genuine = genuineEvents(run, seconds);
  const probes: Probe[] = genuine.map((event) => ({
    kind: 'genuine',
    requirement: 'RECEIVER-ACK',
    label: `genuine ${event.event} ${event.event_id} (${describeText(event)})`,
    delivery: signedDelivery(event, input.merchant.secretKey, seconds),
  }));
  const skippedForgeries: string[] = [];
  probes.push(...forgeries(run, seconds, input, skippedForgeries));

  const client = new DeliveryClient(clock);
  try {
    const deliver = async (probe: Probe) => {
      probe.result = await client.post(input.url, probe.delivery, ACK_WITHIN_MS);
      input.onDelivery?.(`${probe.label}: ${answerOf(probe.result)} in ${probe.result.ms} ms`);
    };
    await Promise.all(probes.map(deliver));
    // P-HOOK-8: the first genuine event again, freshly timestamped and signed, once it was acknowledged.
    const first = probes[0]!;
    if (first.result?.status === 200) {
      const again = genuine[0]!;
      const redelivery: Probe = {
        kind: 'redelivery',
        requirement: 'RECEIVER-REDELIVERY',
        label: `redelivery of ${again.event_id} (same event, fresh timestamp and signature)`,
        delivery: signedDelivery(again, input.merchant.secretKey, Math.max(Math.floor(now() / 1000), seconds + 1)),
      };
      probes.push(redelivery);
      await deliver(redelivery);
    }
  } finally {
    await client.close();
  }
  // Secrets in every form, and every signature sent, wherever a receiver echoes them back.
  const redact = createRedactor({
    secrets: [input.merchant.secretKey, input.otherMerchant?.secretKey, input.otherEnvironment?.secretKey],
    signatures: probes.map((p) => p.delivery.headers['X-SIGNATURE']),
  });
  const evidence = (probe: Probe): Exchange => deliveryExchange(probe.label, input.url, probe.delivery, probe.result!, redact);
  return { results: judge(probes, evidence, skippedForgeries), deliveries: probes.length };
}

/** How an attempt ended, in a few words. */
function answerOf(result: AttemptResult): string {
  return result.status !== undefined ? `HTTP ${result.status}` : `no answer (${result.errorMessage ?? result.error})`;
}

function describeText(event: WebhookEvent): string {
  const text = JSON.stringify(event.data);
  return /[^\x20-\x7e]/.test(text) ? 'non-ASCII text in its record' : /[<>&]/.test(text) ? 'HTML characters in its record' : 'ASCII record';
}

/**
 * The genuine events: every subject, and strings a re-serializing receiver gets wrong: German and
 * Japanese text, an em dash and a euro sign, <, > and &, and slashes (P-HOOK-2: any UTF-8).
 */
function genuineEvents(run: string, seconds: number): WebhookEvent[] {
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
function forgeries(run: string, seconds: number, input: ReceiverJudgeInput, skipped: string[]): Probe[] {
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

/** A delivery as evidence: as sent (its signature redacted, secrets too) and the receiver's answer or why there was none. */
export function deliveryExchange(
  label: string,
  url: string,
  delivery: Delivery,
  result: AttemptResult,
  redact: (text: string) => string,
): Exchange {
  const headers = evidenceHeaders(Object.entries(delivery.headers), redact);
  const request = { method: 'POST', url, headers, body: redact(delivery.body) };
  if (result.status === undefined) {
    return { label, request, ms: result.ms, error: { code: result.error ?? 'other', message: result.errorMessage ?? 'no answer' } };
  }
  return { label, request, ms: result.ms, response: { status: result.status, headers: {}, body: redact(result.body ?? '') } };
}

type Verdict =
  | { status: 'passed' }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; message: string; expected: string; actual: string; offending: Probe[] };

function judge(probes: Probe[], evidence: (probe: Probe) => Exchange, skippedForgeries: string[]): CheckResult[] {
  const genuine = probes.filter((p) => p.kind === 'genuine');
  const forged = (requirement: string) => probes.filter((p) => p.kind === 'forged' && p.requirement === requirement);
  const accepted = (p: Probe) => p.result?.status !== undefined && p.result.status >= 200 && p.result.status <= 299;
  const list = (ps: Probe[]) => ps.map((p) => `${p.label}: ${answerOf(p.result!)}`).join('; ');

  const refused = (requirement: string, what: string): Verdict => {
    const ps = forged(requirement);
    if (ps.length === 0) return { status: 'skipped', reason: `needs ${skippedForgeries.join(' and ')}` };
    const bad = ps.filter(accepted);
    if (bad.length === 0) return { status: 'passed' };
    return {
      status: 'failed',
      message: `the receiver accepted ${bad.length} of ${ps.length} ${what}: ${list(bad)}`,
      expected: 'any status other than 2xx (401 SHOULD)',
      actual: bad.map((p) => answerOf(p.result!)).join(', '),
      offending: bad,
    };
  };

  const verdicts: Record<string, () => Verdict> = {
    'RECEIVER-ACK': () => {
      // Judged here: every genuine delivery but those that ran out of time (RECEIVER-ACK-IN-TIME's).
      const answered = genuine.filter((p) => p.result?.error !== 'timeout');
      if (answered.length === 0)
        return { status: 'skipped', reason: `no genuine delivery was answered within ${ACK_WITHIN_MS / 1000} s (RECEIVER-ACK-IN-TIME)` };
      const bad = answered.filter((p) => p.result!.status !== 200);
      if (bad.length === 0) return { status: 'passed' };
      const nonAscii = bad.every((p) => !p.label.includes('(ASCII record)')) && answered.some((p) => p.result!.status === 200);
      const hint = nonAscii
        ? ' (only events whose strings hold non-ASCII text or HTML characters: does the receiver verify a re-serialization of the parsed body, with \\u escapes, instead of the raw bytes?)'
        : '';
      return {
        status: 'failed',
        message: `${bad.length} of ${answered.length} genuine deliveries were not answered 200${hint}: ${list(bad)}`,
        expected: 'HTTP 200 (P-HOOK-6)',
        actual: bad.map((p) => answerOf(p.result!)).join(', '),
        offending: bad,
      };
    },
    'RECEIVER-ACK-IN-TIME': () => {
      const bad = genuine.filter((p) => p.result?.error === 'timeout');
      if (bad.length === 0) return { status: 'passed' };
      return {
        status: 'failed',
        message: `${bad.length} of ${genuine.length} genuine deliveries got no answer within ${ACK_WITHIN_MS / 1000} s: ${list(bad)}; acknowledge first, process afterwards`,
        expected: `an answer within ${ACK_WITHIN_MS / 1000} s (P-HOOK-3, P-HOOK-6)`,
        actual: bad.map((p) => answerOf(p.result!)).join(', '),
        offending: bad,
      };
    },
    'RECEIVER-ACK-FAST': () => {
      const bad = genuine.filter(
        (p) => p.result?.error === 'timeout' || (p.result?.status !== undefined && p.result.ms > ACK_SHOULD_WITHIN_MS),
      );
      if (bad.length === 0) return { status: 'passed' };
      return {
        status: 'failed',
        message: `${bad.length} of ${genuine.length} genuine deliveries took longer than ${ACK_SHOULD_WITHIN_MS / 1000} s: ${bad.map((p) => `${p.label}: ${p.result!.ms} ms`).join('; ')}`,
        expected: `an answer within ${ACK_SHOULD_WITHIN_MS / 1000} s (P-HOOK-6 SHOULD)`,
        actual: bad.map((p) => `${p.result!.ms} ms`).join(', '),
        offending: bad,
      };
    },
    'RECEIVER-REFUSE-SIGNATURE': () => refused('RECEIVER-REFUSE-SIGNATURE', 'deliveries whose signature is missing or does not match'),
    'RECEIVER-REFUSE-OTHER-SECRET': () =>
      refused('RECEIVER-REFUSE-OTHER-SECRET', "deliveries signed with a secret other than the merchant's"),
    'RECEIVER-REFUSE-TIMESTAMP': () => refused('RECEIVER-REFUSE-TIMESTAMP', 'deliveries whose timestamp is missing, malformed or stale'),
    'RECEIVER-REFUSE-NON-JSON': () => refused('RECEIVER-REFUSE-NON-JSON', 'deliveries whose body is not JSON'),
    'RECEIVER-REFUSAL-STATUS': () => {
      const bad = probes.filter((p) => p.kind === 'forged' && !accepted(p) && p.result?.status !== p.refuseWith);
      if (bad.length === 0) return { status: 'passed' };
      return {
        status: 'failed',
        message: `${bad.length} refusals were not answered as P-HOOK-7 advises: ${bad.map((p) => `${p.label}: ${answerOf(p.result!)}, not ${p.refuseWith}`).join('; ')}`,
        expected: '401 for a signature or timestamp, 400 for a body that is not JSON (P-HOOK-7 SHOULD)',
        actual: bad.map((p) => answerOf(p.result!)).join(', '),
        offending: bad,
      };
    },
    'RECEIVER-REDELIVERY': () => {
      const again = probes.find((p) => p.kind === 'redelivery');
      if (again === undefined)
        return {
          status: 'skipped',
          reason: 'the first genuine event was not acknowledged, so its redelivery would prove nothing (RECEIVER-ACK says why)',
        };
      if (again.result?.status === 200) return { status: 'passed' };
      return {
        status: 'failed',
        message: `the receiver acknowledged ${genuine[0]!.label.split(' ')[2]} and then answered its redelivery ${answerOf(again.result!)}: a retried event is not an error`,
        expected: 'HTTP 200 again (P-HOOK-8)',
        actual: answerOf(again.result!),
        offending: [again],
      };
    },
    [CONFIRMS_STATUS]: () => ({ status: 'skipped', reason: "seen only in a client's own requests: judged by verify-client --webhook-url" }),
  };

  return receiverCatalog().map((requirement): CheckResult => {
    const verdict = verdicts[requirement.id]?.() ?? { status: 'skipped', reason: 'not judged by verify-receiver' };
    const meta = { check: requirement.id.toLowerCase(), requirement: requirement.id, title: requirement.title, evidence: [], findings: [] };
    if (verdict.status === 'skipped') return { meta: { ...meta, skipped: verdict.reason }, state: 'skipped', durationMs: 0 };
    if (verdict.status === 'passed') return { meta, state: 'passed', durationMs: 0 };
    return {
      meta: {
        ...meta,
        failure: { message: verdict.message, expected: verdict.expected, actual: verdict.actual },
        evidence: verdict.offending.slice(0, 6).map(evidence),
      },
      state: 'failed',
      durationMs: 0,
    };
  });
}
