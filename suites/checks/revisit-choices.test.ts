// What the revisit reads again and when (P-DUP-5, P-STATE; profile.revisitAfterSeconds), against a
// made-up target: which records it picks, what it sends, how long it waits, and what it shows.
import { describe, expect, it } from 'vitest';
import { virtualClock } from '../../core/clock-test-support.js';
import type { Clock } from '../../core/clock.js';
import { OPERATIONS } from '../../core/operations.js';
import type { Check } from '../check.js';
import type { TargetConfig } from '../config.js';
import type { SendOptions } from '../http.js';
import { notePayouts } from '../own-payouts.js';
import { noteWritten } from '../written.js';
import { exchangeOf, judge, type Reply } from './made-up-server-test-support.js';
import { revisitChecks } from './revisit.js';

const [balance, records, ids] = revisitChecks;
type Record = { [field: string]: unknown };

/** A record the run wrote `ageMs` before the revisit, and last saw as `last`. */
interface Seen {
  kind: 'order' | 'payout';
  id: string;
  last: Record;
  ageMs?: number;
  body?: Record;
}

const idOf = (payload: unknown): string => {
  const body = payload as { order_id?: string; payout_order_id?: string };
  return String(body.order_id ?? body.payout_order_id);
};

/** Answers each read of a record with `now` of it (else the record as last seen), and each write again with 409. */
function target(seen: Seen[], now: { [id: string]: Record } = {}) {
  return (options: SendOptions): Reply => {
    const id = idOf(options.payload);
    const last = seen.find((s) => s.id === id)?.last;
    if (/status$/.test(options.path) && last !== undefined)
      return { status: 200, json: { status: true, code: 200, message: 'ok', data: now[id] ?? last } };
    return options.path === OPERATIONS.createOrder.path || /initiat/.test(options.path) ? 409 : 200;
  };
}

/** One revisit check, after the run wrote `seen`: its verdict, and each request it sent (path and record id), with the clock it ran on. */
async function revisitAfter(
  check: Check,
  seen: Seen[],
  server: (options: SendOptions) => Reply = target(seen),
  { edit = () => {}, budgetMs, clock = virtualClock() }: { edit?: (config: TargetConfig) => void; budgetMs?: number; clock?: Clock } = {},
) {
  const runKey = {};
  const start = clock.now();
  const written = (config: TargetConfig) => {
    edit(config);
    for (const { kind, id, last, ageMs = 0, body = {} } of seen) {
      const path = kind === 'order' ? OPERATIONS.createOrder.path : config.profile!.operations!.transactionInitiation!.path;
      const payload = {
        ...body,
        ...(kind === 'order' ? { order_id: id } : { payout_order_id: id, svc_wallet_id: config.merchant.walletId }),
      };
      const options = { label: 'written', path, payload };
      const exchange = exchangeOf(config, options, { status: 200, json: { data: last, return_data: last } });
      noteWritten(runKey, config, options, exchange, start - ageMs);
      notePayouts(runKey, config, options, exchange);
    }
  };
  const sent: SendOptions[] = [];
  const deadline = budgetMs !== undefined ? { deadlineAt: start + budgetMs } : {};
  const { outcome, failure } = await judge(check, (options) => (sent.push(options), server(options)), written, {
    clock,
    runKey,
    ...deadline,
  });
  return { outcome, failure, sent: sent.map((s) => `${s.path} ${idOf(s.payload)}`), waitedMs: clock.now() - start };
}

const ORDER_STATUS = OPERATIONS.orderStatus.path;
const PAYOUT_STATUS = OPERATIONS.payoutStatus.path;
const cancelled = (id: string, ageMs?: number): Seen => ({
  kind: 'order',
  id,
  last: { order_id: id, order_status: 'CANCELLED', order_amount: '1.00' },
  ...(ageMs === undefined ? {} : { ageMs }),
});
const failed = (id: string, ageMs?: number): Seen => ({
  kind: 'payout',
  id,
  last: { payout_order_id: id, status: 'FAILED', amount: '5.00' },
  ...(ageMs === undefined ? {} : { ageMs }),
});

describe('which records the revisit reads again', () => {
  it('two of each kind, the first by identifier, whenever and in whatever order they were written', async () => {
    // Orders R-A, R-C, R-E and payouts R-B, R-D, R-F, written out of order.
    const seen = [cancelled('R-A'), failed('R-F'), cancelled('R-C'), failed('R-D'), cancelled('R-E'), failed('R-B')];
    const { outcome, sent } = await revisitAfter(records!, seen);
    expect({ outcome, sent }).toEqual({
      outcome: 'passed',
      sent: [`${ORDER_STATUS} R-A`, `${ORDER_STATUS} R-C`, `${PAYOUT_STATUS} R-B`, `${PAYOUT_STATUS} R-D`],
    });
  });
});

describe('what the revisit compares of a final record', () => {
  it.each([
    ['a field only the new read shows', { order_amount: '1.00' }, { order_amount: '1.00', created_at: '2026-01-01' }, 'passed'],
    ['an amount alike by value, not by text', { order_amount: '10.50' }, { order_amount: 10.5 }, 'passed'],
    ['a text with a quote in it, read back alike', { created_at: 'said "now"' }, { created_at: 'said "now"' }, 'passed'],
    ['an id alike by value, not by text', { order_id: '007' }, { order_id: 7 }, 'failed'],
    ['an amount that was not a decimal, now one', { order_amount: 'ten' }, { order_amount: '10' }, 'failed'],
    ['an amount that was a decimal, now not one', { order_amount: '10' }, { order_amount: 'ten' }, 'failed'],
  ] as const)('%s: %s', async (_, last, now, outcome) => {
    const seen: Seen[] = [{ kind: 'order', id: 'ORD-1', last: { order_status: 'CANCELLED', ...last } }];
    const judged = await revisitAfter(records!, seen, target(seen, { 'ORD-1': { order_status: 'CANCELLED', ...now } }));
    expect(judged.outcome).toBe(outcome);
  });

  it('shows each changed field as it last read, as the failure’s expected value', async () => {
    const seen = [failed('PO-1')];
    const { failure } = await revisitAfter(
      records!,
      seen,
      target(seen, { 'PO-1': { payout_order_id: 'PO-1', status: 'SUCCESS', amount: '6.00' } }),
    );
    expect(failure?.details.expected).toBe('amount "5.00", status "FAILED"');
  });

  it('reads no order again where the target has no Order Status, and still reads payouts (P-OPS)', async () => {
    const seen = [cancelled('ORD-1'), failed('PO-1')];
    const { outcome, failure, sent } = await revisitAfter(records!, seen, target(seen, { 'PO-1': { status: 'SUCCESS' } }), {
      edit: (config) => delete config.profile!.operations!.orderStatus,
    });
    expect({ outcome, sent }).toEqual({ outcome: 'failed', sent: [`${PAYOUT_STATUS} PO-1`] });
    expect(failure?.message).toMatch(/^payout PO-1, FAILED \(final\) when last read, reads status "SUCCESS" /);
  });
});

describe('the identifiers the revisit uses again', () => {
  const account = { name: 'First Payee', account_number: '000123', ifsc: 'SBIN0000001' };
  const paid: Seen = { ...failed('PO-1'), body: { amount: '5.00', beneficiary: account } };

  it('sends a payout again with its beneficiary as it was but for a new name: a target that checks it first still answers 409', async () => {
    const beneficiaries: unknown[] = [];
    const strict = (options: SendOptions): Reply => {
      if (options.path !== OPERATIONS.transactionInitiation.path) return 200;
      const { beneficiary } = options.payload as { beneficiary: Record };
      beneficiaries.push(beneficiary);
      return beneficiary.account_number === account.account_number && beneficiary.name !== '' ? 409 : 400;
    };
    expect((await revisitAfter(ids!, [paid], strict)).outcome).toBe('passed');
    expect(beneficiaries).toEqual([{ ...account, name: expect.stringMatching(/^Later Again \S/) }]);
  });

  it('fails a payout_order_id taken again, naming Transaction Initiation (P-DUP-5)', async () => {
    const { failure } = await revisitAfter(ids!, [paid], () => 200);
    expect(failure?.message).toMatch(
      /^Transaction Initiation with the payout_order_id of a record written at least 12 s earlier \(FAILED when last read\) must answer 409/,
    );
  });

  it('reads 12 s on without a profile (profile.revisitAfterSeconds unset)', async () => {
    const { outcome, waitedMs } = await revisitAfter(ids!, [cancelled('ORD-1')], undefined, { edit: (config) => delete config.profile });
    expect({ outcome, waitedMs }).toEqual({ outcome: 'passed', waitedMs: 12_000 });
  });

  it('writes an order of its own when the run wrote none, cancelling none where the target has no Order Cancel', async () => {
    const { outcome, sent } = await revisitAfter(ids!, [], () => 201, {
      edit: (config) => delete config.profile!.operations!.orderCancel,
    });
    // A 201 with no return_data leaves the run nothing noted to revisit (nor is a made-up answer noted): never passed.
    expect(outcome).toBe('skipped: not judged: the run wrote no record it could revisit');
    expect(sent).toEqual([expect.stringMatching(new RegExp(`^${OPERATIONS.createOrder.path} `))]);
  });
});

describe('when the revisit reads', () => {
  it('once the newest record it reads is 12 s old: no sooner, no later', async () => {
    expect((await revisitAfter(records!, [failed('PO-1', 5_000)])).waitedMs).toBe(7_000);
  });

  it('not at all when that is past the time budget; at the budget’s very end, still', async () => {
    const both = [failed('PO-1', 10_000), failed('PO-2')];
    expect((await revisitAfter(records!, both, undefined, { budgetMs: 5_000 })).outcome).toMatch(
      /^skipped: not judged: the run's time budget/,
    );
    expect((await revisitAfter(records!, [failed('PO-1')], undefined, { budgetMs: 12_000 })).outcome).toBe('passed');
  });
});

describe('the balance revisited', () => {
  const DUE = 12_000;
  /** A wallet whose balance is `before` until the revisit's read once due, `after` from then on; its one payout still PENDING,
   *  unreadable (500) while `unreadable` says so. Each request is kept with when it was sent, from the revisit's start. */
  function wallet(clock: Clock, before: string, after: string, unreadable: (sinceStart: number) => boolean = () => false) {
    const start = clock.now();
    const asked: { label: string; at: number }[] = [];
    const server = (options: SendOptions): Reply => {
      const at = clock.now() - start;
      asked.push({ label: options.label, at });
      if (asked.length > 500) throw new Error('the revisit never stops asking');
      const data =
        options.path === OPERATIONS.balanceInquiry.path
          ? { balance: asked.some((a) => a.label === 'balance at least 12 s later') ? after : before, currency: 'INR' }
          : { payout_order_id: 'PO-1', status: 'PENDING', amount: '5.00', amount_debited: 'YES' };
      return options.path === PAYOUT_STATUS && unreadable(at)
        ? 500
        : { status: 200, json: { status: true, code: 200, message: 'ok', data } };
    };
    return { server, asked };
  }
  const pending: Seen = {
    kind: 'payout',
    id: 'PO-1',
    last: { payout_order_id: 'PO-1', status: 'PENDING', amount: '5.00', amount_debited: 'YES' },
  };

  it('fails a balance its payouts do not explain, showing the balance expected and the two reads', async () => {
    const clock = virtualClock();
    const { server } = wallet(clock, '100.00', '99.00');
    const { outcome, failure } = await revisitAfter(balance!, [pending], server, { clock });
    expect(outcome).toBe('failed');
    expect(failure?.details.expected).toBe('balance 100.00');
    expect(failure?.details.exchanges?.map((x) => x.label)).toEqual(['balance once the other checks ended', 'balance at least 12 s later']);
  });

  it('is not judged when its payout cannot be read as it starts, or when it ends', async () => {
    for (const unreadable of [(at: number) => at === 0, (at: number) => at >= DUE]) {
      const clock = virtualClock();
      const { server } = wallet(clock, '100.00', '100.00', unreadable);
      expect((await revisitAfter(balance!, [pending], server, { clock })).outcome).toBe(
        "skipped: not judged: the run's own payouts kept settling around the balance reads, or could not be read",
      );
    }
  });

  it('looks at the wallet while it waits, each look two reads apart, and none once it is due', async () => {
    // A clock that moves in whole seconds: the looks end exactly when the revisit is due.
    const at = { now: 1_000_000 };
    const clock: Clock = { now: () => at.now, sleep: (ms) => Promise.resolve(void (at.now += Math.ceil(ms / 1000) * 1000)) };
    const { server, asked } = wallet(clock, '100.00', '100.00');
    expect((await revisitAfter(balance!, [pending], server, { clock })).outcome).toBe('passed');
    const looks = asked.filter((a) => a.label.startsWith('waiting to revisit the balance: the balance'));
    const first = (a: (typeof looks)[number]) => a.label.endsWith("no other request of the run's out");
    expect(looks.some(first) && looks.some((a) => / \d+ ms later, still none out$/.test(a.label))).toBe(true);
    expect(looks.filter((a) => first(a) && a.at >= DUE)).toEqual([]);
    expect(looks.filter((a) => a.label.includes('read again at once'))).toEqual([]);
  });

  it('skips when the time budget leaves no room for the reads after the wait: 2 × 3 s on the run’s clock', async () => {
    const room = (budgetMs: number, factor = 1) => {
      const clock = { ...virtualClock(), factor };
      return revisitAfter(balance!, [pending], wallet(clock, '100.00', '100.00').server, { clock, budgetMs }).then((j) => j.outcome);
    };
    expect(await room(DUE + 6_000)).toBe('passed');
    expect(await room(DUE + 30_000, 10)).toMatch(/^skipped: not judged: the run's time budget ends before the balance can be read again/);
  });
});
