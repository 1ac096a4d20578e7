// Judging a merchant's webhook receiver (P-HOOK-6…8): genuine events, forgeries and a redelivery go
// out in the sandbox's own wire format (webhooks/delivery.ts), so "genuine" is what a conforming sender sends.
import { systemClock, type Clock } from '../core/clock.js';
import type { Exchange } from '../core/exchange.js';
import type { CheckResult, Requirement } from '../core/report.js';
import { ACK_SHOULD_WITHIN_MS, ACK_WITHIN_MS } from '../core/webhooks.js';
import { createRedactor, evidenceHeaders } from '../common/redact.js';
import { requirementsIn } from '../suites/catalog.js';
import { DeliveryClient, signedDelivery, type AttemptResult, type Delivery } from '../webhooks/delivery.js';
import { resultOf, type Outcome } from './result.js';
import { describeText, forgeries, genuineEvents, type ForgeryKeys, type Probe } from './receiver-probes.js';

/** The receiver requirement catalog (clients/receiver-catalog.json): P-HOOK-6…9. */
export function receiverCatalog(): Requirement[] {
  return requirementsIn('clients/receiver-catalog.json');
}

export interface ReceiverJudgeInput extends ForgeryKeys {
  /** Where the receiver listens. */
  url: string;
  /** The sender's clock, for the events' timestamps and the acknowledgement windows; a test's manual clock closes a window at once. */
  clock?: Clock;
  /** Told of each delivery as its answer comes, for the console. */
  onDelivery?: (line: string) => void;
}

/** What a run of the judge found: a result per receiver requirement, and the deliveries made. */
export interface ReceiverJudgement {
  results: CheckResult[];
  deliveries: number;
}

/** P-HOOK-9 is seen only in a client's own traffic, so verify-receiver leaves it to verify-client. */
export const CONFIRMS_STATUS = 'RECEIVER-CONFIRMS-STATUS';

/** Delivers every probe at once (a slow receiver costs one window, not minutes) and judges P-HOOK-6…8; the
 * redelivery follows once the event it repeats was acknowledged. */
export async function judgeReceiver(input: ReceiverJudgeInput): Promise<ReceiverJudgement> {
  const clock = input.clock ?? systemClock;
  const seconds = Math.floor(clock.now() / 1000);
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
        delivery: signedDelivery(again, input.merchant.secretKey, Math.max(Math.floor(clock.now() / 1000), seconds + 1)),
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

type Verdict = Outcome<Probe>;

const accepted = (p: Probe) => p.result?.status !== undefined && p.result.status >= 200 && p.result.status <= 299;
const list = (ps: Probe[]) => ps.map((p) => `${p.label}: ${answerOf(p.result!)}`).join('; ');
const answers = (ps: Probe[]) => ps.map((p) => answerOf(p.result!)).join(', ');

/** Passed when no probe is bad; else failed, showing the bad ones in `failure`'s words (actual: their answers, unless it says). */
function unlessAny(bad: Probe[], failure: () => { message: string; expected: string; actual?: string }): Verdict {
  return bad.length === 0 ? { status: 'passed' } : { status: 'failed', actual: answers(bad), ...failure(), offending: bad };
}

function ackVerdicts(genuine: Probe[]): Record<string, () => Verdict> {
  return {
    'RECEIVER-ACK': () => {
      // Judged here: every genuine delivery but those that ran out of time (RECEIVER-ACK-IN-TIME's).
      const answered = genuine.filter((p) => p.result?.error !== 'timeout');
      if (answered.length === 0)
        return { status: 'skipped', reason: `no genuine delivery was answered within ${ACK_WITHIN_MS / 1000} s (RECEIVER-ACK-IN-TIME)` };
      const bad = answered.filter((p) => p.result!.status !== 200);
      const nonAscii = bad.every((p) => !p.label.includes('(ASCII record)')) && answered.some((p) => p.result!.status === 200);
      const hint = nonAscii
        ? ' (only events whose strings hold non-ASCII text or HTML characters: does the receiver verify a re-serialization of the parsed body, with \\u escapes, instead of the raw bytes?)'
        : '';
      return unlessAny(bad, () => ({
        message: `${bad.length} of ${answered.length} genuine deliveries were not answered 200${hint}: ${list(bad)}`,
        expected: 'HTTP 200 (P-HOOK-6)',
      }));
    },
    'RECEIVER-ACK-IN-TIME': () => {
      const bad = genuine.filter((p) => p.result?.error === 'timeout');
      return unlessAny(bad, () => ({
        message: `${bad.length} of ${genuine.length} genuine deliveries got no answer within ${ACK_WITHIN_MS / 1000} s: ${list(bad)}; acknowledge first, process afterwards`,
        expected: `an answer within ${ACK_WITHIN_MS / 1000} s (P-HOOK-3, P-HOOK-6)`,
      }));
    },
    'RECEIVER-ACK-FAST': () => {
      const bad = genuine.filter(
        (p) => p.result?.error === 'timeout' || (p.result?.status !== undefined && p.result.ms > ACK_SHOULD_WITHIN_MS),
      );
      return unlessAny(bad, () => ({
        message: `${bad.length} of ${genuine.length} genuine deliveries took longer than ${ACK_SHOULD_WITHIN_MS / 1000} s: ${bad.map((p) => `${p.label}: ${p.result!.ms} ms`).join('; ')}`,
        expected: `an answer within ${ACK_SHOULD_WITHIN_MS / 1000} s (P-HOOK-6 SHOULD)`,
        actual: bad.map((p) => `${p.result!.ms} ms`).join(', '),
      }));
    },
  };
}

function refusalVerdicts(probes: Probe[], skippedForgeries: string[]): Record<string, () => Verdict> {
  const refused = (requirement: string, what: string): Verdict => {
    const ps = probes.filter((p) => p.kind === 'forged' && p.requirement === requirement);
    if (ps.length === 0) return { status: 'skipped', reason: `needs ${skippedForgeries.join(' and ')}` };
    const bad = ps.filter(accepted);
    return unlessAny(bad, () => ({
      message: `the receiver accepted ${bad.length} of ${ps.length} ${what}: ${list(bad)}`,
      expected: 'any status other than 2xx (401 SHOULD)',
    }));
  };
  const forgeriesOf: Array<[string, string]> = [
    ['RECEIVER-REFUSE-SIGNATURE', 'deliveries whose signature is missing or does not match'],
    ['RECEIVER-REFUSE-OTHER-SECRET', "deliveries signed with a secret other than the merchant's"],
    ['RECEIVER-REFUSE-TIMESTAMP', 'deliveries whose timestamp is missing, malformed or stale'],
    ['RECEIVER-REFUSE-NON-JSON', 'deliveries whose body is not JSON'],
  ];
  return {
    ...Object.fromEntries(forgeriesOf.map(([requirement, what]) => [requirement, () => refused(requirement, what)])),
    'RECEIVER-REFUSAL-STATUS': () => {
      const bad = probes.filter((p) => p.kind === 'forged' && !accepted(p) && p.result?.status !== p.refuseWith);
      return unlessAny(bad, () => ({
        message: `${bad.length} refusals were not answered as P-HOOK-7 advises: ${bad.map((p) => `${p.label}: ${answerOf(p.result!)}, not ${p.refuseWith}`).join('; ')}`,
        expected: '401 for a signature or timestamp, 400 for a body that is not JSON (P-HOOK-7 SHOULD)',
      }));
    },
  };
}

function redeliveryVerdict(probes: Probe[], genuine: Probe[]): Verdict {
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
}

function judge(probes: Probe[], evidence: (probe: Probe) => Exchange, skippedForgeries: string[]): CheckResult[] {
  const genuine = probes.filter((p) => p.kind === 'genuine');
  const verdicts: Record<string, () => Verdict> = {
    ...ackVerdicts(genuine),
    ...refusalVerdicts(probes, skippedForgeries),
    'RECEIVER-REDELIVERY': () => redeliveryVerdict(probes, genuine),
    [CONFIRMS_STATUS]: () => ({ status: 'skipped', reason: "seen only in a client's own requests: judged by verify-client --webhook-url" }),
  };
  return receiverCatalog().map((requirement) =>
    resultOf(requirement, verdicts[requirement.id]?.() ?? { status: 'skipped', reason: 'not judged by verify-receiver' }, evidence),
  );
}
