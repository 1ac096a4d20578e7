import { memo } from '../common/memo.js';
import { OPERATIONS, type OperationName } from '../core/operations.js';
import { aboutTheSame, field, safeDecode, type ClientRequest } from './traffic.js';
import type { JudgeContext, RuleOutcome } from './rules.js';

const byOperation = new WeakMap<JudgeContext, Map<OperationName, ClientRequest[]>>();

/** A context's requests to one operation, in order; grouped once per context, not once per question. */
function of(ctx: JudgeContext, operation: OperationName): ClientRequest[] {
  const groups = memo(byOperation, ctx, () => {
    const made = new Map<OperationName, ClientRequest[]>();
    for (const r of ctx.api) if (r.operation !== undefined) memo(made, r.operation, () => []).push(r);
    return made;
  });
  return groups.get(operation) ?? [];
}

function failed(message: string, offending: ClientRequest[], expected?: string): RuleOutcome {
  return { status: 'failed', message, offending, ...(expected ? { expected } : {}) };
}

/** The client saw this answer and it said the record was made. */
function answeredSuccess(r: ClientRequest): boolean {
  return r.raw.status >= 200 && r.raw.status < 300 && !r.unanswered;
}

/** Failed in a way P-CLIENT-6 names: a 5xx, a 429, or no answer the client saw. */
function inDoubt(r: ClientRequest): boolean {
  return r.raw.status >= 500 || r.raw.status === 429 || r.unanswered;
}

/** P-CLIENT-6: every new order (or payout) gets a fresh id; a repeat of an unsettled attempt is not new. */
function freshIds(ctx: JudgeContext, operation: OperationName, idField: string, what: string): RuleOutcome {
  const creates = of(ctx, operation);
  if (creates.length === 0) return { status: 'skipped', reason: `the client sent no ${OPERATIONS[operation].name}` };
  const made = new Map<string, ClientRequest>();
  for (const r of creates) {
    const id = field(r.json, idField);
    if (id === undefined) continue;
    const earlier = made.get(id);
    if (earlier) {
      return failed(
        `request #${r.n} uses ${idField} ${JSON.stringify(id)} for a new ${what}, already used by request #${earlier.n}, which succeeded`,
        [r, earlier],
        `a fresh ${idField} for every new ${what}`,
      );
    }
    if (answeredSuccess(r)) made.set(id, r);
  }
  return { status: 'passed' };
}

export const freshOrderId = (ctx: JudgeContext) => freshIds(ctx, 'createOrder', 'order_id', 'order');
export const freshPayoutId = (ctx: JudgeContext) => freshIds(ctx, 'transactionInitiation', 'payout_order_id', 'payout');

/** P-CLIENT-6: an attempt in doubt is repeated only after the matching status operation. */
export function retryAfterStatus(ctx: JudgeContext): RuleOutcome {
  const pairs: Array<[OperationName, OperationName, string]> = [
    ['createOrder', 'orderStatus', 'order_id'],
    ['transactionInitiation', 'payoutStatus', 'payout_order_id'],
  ];
  let doubted = 0;
  for (const [create, statusQuery, idField] of pairs) {
    for (const attempt of of(ctx, create).filter(inDoubt)) {
      doubted++;
      const id = field(attempt.json, idField);
      if (id === undefined) continue;
      const repeat = of(ctx, create).find((r) => r.n > attempt.n && field(r.json, idField) === id);
      if (repeat === undefined) continue;
      const asked = of(ctx, statusQuery).some((s) => s.n > attempt.n && s.n < repeat.n && field(s.json, idField) === id);
      if (!asked) {
        const why = attempt.unanswered ? 'got no answer (the client gave up waiting)' : `answered ${attempt.raw.status}`;
        return failed(
          `request #${attempt.n} ${why}; request #${repeat.n} repeats it without asking ${OPERATIONS[statusQuery].name} for ${idField} ${JSON.stringify(id)} first`,
          [attempt, repeat],
          'a status query between the failed attempt and its repeat',
        );
      }
    }
  }
  return doubted === 0
    ? {
        status: 'skipped',
        reason:
          'no Create Order or Transaction Initiation failed with a 5xx, a 429 or no answer (run with --scenario create-order-503-once to see recovery)',
      }
    : { status: 'passed' };
}

/** How long after a 429's answer a request about something else may still predate the client reading it
 * (loopback plus the client's event loop); well under the shortest wait judged (Retry-After 1 s less slack). */
const IN_FLIGHT_MS = 100;

/** P-CLIENT-7 (SHOULD): after a 429, wait, honouring Retry-After (default ≥ 0.5 s); judged from the next request
 * about the same order, or any other that cannot have arrived within IN_FLIGHT_MS (traffic.ts). */
export function backoff429(ctx: JudgeContext): RuleOutcome {
  const limited = ctx.api.filter((r) => r.raw.status === 429);
  if (limited.length === 0) return { status: 'skipped', reason: 'the client met no 429 (run with --scenario create-order-429-once)' };
  for (const r of limited) {
    const answeredAt = r.raw.respondedAt;
    const next = ctx.api.find(
      (x) => x.n > r.n && x.raw.receivedAt >= answeredAt && (aboutTheSame(x, r) || x.earliestArrival > answeredAt + IN_FLIGHT_MS),
    );
    if (next === undefined) continue;
    const waitMs = Number(r.raw.retryAfter ?? '0.5') * 1000;
    const waited = next.raw.receivedAt - r.raw.respondedAt;
    if (waited < waitMs - 100) {
      return failed(
        `request #${next.n} came ${Math.max(0, Math.round(waited))} ms after the 429 of request #${r.n}, which said Retry-After: ${r.raw.retryAfter ?? '(none)'}`,
        [r, next],
        `a wait of ${waitMs} ms`,
      );
    }
  }
  return { status: 'passed' };
}

/** P-CLIENT-8 (SHOULD): a payout left PROCESSING or PENDING is verified with Payout Status. */
export function verifyPayout(ctx: JudgeContext): RuleOutcome {
  const unsettled = of(ctx, 'transactionInitiation').filter((r) => {
    const state = field((r.responseJson as { data?: unknown } | undefined)?.data, 'status');
    return state === 'PROCESSING' || state === 'PENDING';
  });
  if (unsettled.length === 0) return { status: 'skipped', reason: 'no payout of the client was left PROCESSING or PENDING' };
  for (const r of unsettled) {
    const id = field(r.json, 'payout_order_id');
    if (!of(ctx, 'payoutStatus').some((s) => s.n > r.n && field(s.json, 'payout_order_id') === id)) {
      return failed(
        `request #${r.n} initiated payout ${JSON.stringify(id)}, left PROCESSING or PENDING, and the client never asked Payout Status`,
        [r],
      );
    }
  }
  return { status: 'passed' };
}

/** P-CLIENT-8 (SHOULD): an order whose customer came back from checkout is verified with Order Status. */
export function verifyOrder(ctx: JudgeContext): RuleOutcome {
  const returned = ctx.requests.filter((r) => r.raw.method === 'POST' && r.path.startsWith('/checkout/'));
  if (returned.length === 0) return { status: 'skipped', reason: 'no customer completed a checkout during the run' };
  for (const back of returned) {
    const svcOrderId = safeDecode(back.path.slice('/checkout/'.length));
    const create = of(ctx, 'createOrder').find(
      (c) => field((c.responseJson as { return_data?: unknown } | undefined)?.return_data, 'svc_order_id') === svcOrderId,
    );
    const orderId = create ? field(create.json, 'order_id') : undefined;
    if (orderId === undefined) continue;
    if (!of(ctx, 'orderStatus').some((s) => s.n > back.n && field(s.json, 'order_id') === orderId)) {
      return failed(
        `the customer of order ${JSON.stringify(orderId)} returned from checkout (request #${back.n}) and the client never asked Order Status`,
        [back],
      );
    }
  }
  return { status: 'passed' };
}

/** P-CLIENT-8 (SHOULD): a payout is preceded by a Balance Inquiry. */
export function balanceFirst(ctx: JudgeContext): RuleOutcome {
  const payouts = of(ctx, 'transactionInitiation');
  if (payouts.length === 0) return { status: 'skipped', reason: 'the client sent no Transaction Initiation' };
  const first = payouts[0]!;
  return of(ctx, 'balanceInquiry').some((b) => b.n < first.n)
    ? { status: 'passed' }
    : failed(`request #${first.n} initiates a payout with no Balance Inquiry before it`, [first]);
}
