// The revisit (P-DUP-5, P-STATE; profile.revisitAfterSeconds): what the run wrote, read again once time
// has passed, on the virtual clock both sides share (its waits take no real time).
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../core/clock.js';
import type { FaultName } from '../../sandbox/faults.js';
import type { RunningSandbox, StartOptions } from '../../sandbox/index.js';
import { sandboxTarget, type SandboxTarget } from '../check-test-support.js';
import { modelChecks } from './model.js';
import { operationChecks } from './operations.js';
import { virtualClock } from '../../core/clock-test-support.js';
import { noteWritten, writtenBy } from '../written.js';
import { exchangeOf, judge, madeUpConfig, madeUpContext } from './made-up-server-test-support.js';
import { revisitChecks } from './revisit.js';

const [balance, records, ids] = revisitChecks;
const initiate = operationChecks.find((c) => c.id === 'ops-initiate')!;

/** The run's one payout, then (after `between`) the balance revisit, on a fresh target: its outcome and why. */
async function payThenRevisit(target: SandboxTarget, between: () => void = () => {}) {
  try {
    await target.run(initiate);
    between();
    const { outcome, meta } = await target.run(balance!);
    return { outcome, why: meta.skipped ?? meta.failure?.message };
  } finally {
    await target.close();
  }
}

/** A clock the run owns with its sandbox, as the embedded one: `jump` moves it on (and runs `onJump`); sleeps are recorded. */
function ownedClock(onJump: () => void = () => {}) {
  const clock = { at: Date.now(), slept: [] as number[] };
  const owned: Clock = {
    now: () => clock.at,
    sleep: async (ms) => {
      clock.slept.push(ms);
      clock.at += ms;
      await new Promise((resolve) => setImmediate(resolve));
    },
    jump: (ms) => {
      clock.at += ms;
      onJump();
    },
  };
  return Object.assign(clock, { owned });
}

/** Some checks that write, then the revisit checks, as a run orders them: each one's outcome and why. */
async function revisit(faults: FaultName[] = [], before = modelChecks, options: StartOptions = {}) {
  const target = await sandboxTarget({ faults, ...options });
  try {
    for (const check of before) await target.run(check);
    const ended = [];
    for (const check of [balance!, records!, ids!]) {
      const { outcome, meta } = await target.run(check);
      ended.push({ outcome, why: meta.failure?.message ?? meta.skipped });
    }
    const oldest = writtenBy(target.state)[0]?.at ?? Infinity;
    return { ended, oldestAgeMs: target.state.settings.clock!.now() - oldest };
  } finally {
    await target.close();
  }
}

describe('the revisit', () => {
  it('passes on a correct sandbox, having waited until what it reads is 12 s old', async () => {
    const { ended, oldestAgeMs } = await revisit();
    expect(ended.map((e) => e.outcome)).toEqual(['passed', 'passed', 'passed']);
    expect(oldestAgeMs).toBeGreaterThanOrEqual(12_000);
  });

  it('writes an order of its own when the run wrote none, and judges it', async () => {
    const { ended } = await revisit([], []);
    expect(ended.map((e) => e.outcome)).toEqual(['skipped', 'passed', 'passed']);
    expect(ended[0]!.why).toBe('not judged: the run made no payout on the wallet to revisit');
  });

  it('judges no balance when the run made orders but no payout', async () => {
    const orders = modelChecks.find((c) => c.id === 'model-order-lifecycle')!;
    const { ended } = await revisit([], [orders]);
    expect(ended[0]).toEqual({ outcome: 'skipped', why: 'not judged: the run made no payout on the wallet to revisit' });
  });

  it("does not start a wait that the run's time budget would cut short, nor its reads after", async () => {
    const target = await sandboxTarget();
    try {
      await target.run(initiate);
      const at = (ms: number) => ({ deadlineAt: target.state.settings.clock!.now() + ms });
      for (const [budget, outcome] of [
        [13_000, 'skipped'],
        [60_000, 'passed'],
      ] as const) {
        Object.assign(target.state.settings, at(budget));
        const { outcome: seen, meta } = await target.run(balance!);
        expect({ budget, seen, why: meta.skipped }).toEqual({
          budget,
          seen: outcome,
          why:
            outcome === 'skipped'
              ? "not judged: the run's time budget ends before the balance can be read again at least 12 s later"
              : undefined,
        });
      }
    } finally {
      await target.close();
    }
  });

  it('passes a balance the run’s payouts explain, debited at settlement and settling while it waits', async () => {
    const { ended } = await revisit([], [initiate], { variant: { debitAt: 'settlement' }, settleSeconds: 6 });
    expect(ended[0]).toEqual({ outcome: 'passed', why: undefined });
  });

  it('fails a status read that takes a payout again once it is 10 s old (money-status-debits-again)', async () => {
    const { ended } = await revisit(['money-status-debits-again'], [initiate]);
    expect(ended[0]!.outcome).toBe('failed');
    expect(ended[0]!.why).toMatch(
      /^the balance went from [\d.]+ as the other checks ended to [\d.]+ at least 12 s later; the run's own payouts explain a change of 0(\.0+)?, and no quiet look at the wallet saw anything else move it \(P-MONEY-1\)$/,
    );
  });

  it('moves on a clock the run owns with its sandbox (the embedded one) instead of waiting, and still judges', async () => {
    const { owned, slept } = ownedClock();
    for (const faults of [[], ['money-status-debits-again']] as FaultName[][]) {
      const target = await sandboxTarget({ faults }, undefined, 10, owned);
      try {
        await target.run(initiate);
        slept.length = 0;
        const { outcome } = await target.run(balance!);
        // No wait, and no look while waiting; a miss then looks for other activity (under a second each).
        const waited = faults.length === 0 ? slept : slept.filter((ms) => ms >= 1_000);
        expect({ faults, outcome, waited }).toEqual({ faults, outcome: faults.length === 0 ? 'passed' : 'failed', waited: [] });
      } finally {
        await target.close();
      }
    }
  });

  it('judges a whole stretch even when the run’s last payout is already old: a debit due 5 s after it starts is caught', async () => {
    const clock = ownedClock();
    const late: { sandbox?: RunningSandbox; at: number | undefined } = { at: undefined };
    const target = await sandboxTarget(
      {
        // A job that takes 1.00 once, some seconds after the revisit started: shown from the next answer on.
        record: () => {
          const wallet = late.sandbox?.app.store.wallets.get(late.sandbox.config.merchant.walletId);
          if (wallet !== undefined && late.at !== undefined && clock.at >= late.at) {
            wallet.balanceMinor -= 100;
            late.at = undefined;
          }
        },
      },
      undefined,
      10,
      clock.owned,
    );
    late.sandbox = target.sandbox;
    const ended = await payThenRevisit(target, () => {
      clock.at += 60_000;
      late.at = clock.at + 5_000;
    });
    expect(ended).toEqual({ outcome: 'failed', why: expect.stringContaining('explain a change of 0') });
  });

  it('another run paying only while this one waits, stopped by its end: seen by the looks meanwhile, not judged', async () => {
    // Its payouts land as time passes: 0.07 each second for the first 10 s of the wait, then none.
    const base = virtualClock();
    const other: { sandbox?: RunningSandbox; from?: number; paid: number } = { paid: 0 };
    const pay = () => {
      const wallet = other.sandbox?.app.store.wallets.get(other.sandbox.config.merchant.walletId);
      if (wallet === undefined || other.from === undefined) return;
      const due = Math.min(10, Math.floor((base.now() - other.from) / 1000));
      wallet.balanceMinor -= 7 * (due - other.paid);
      other.paid = due;
    };
    const clock: Clock = { now: base.now, sleep: async (ms) => (await base.sleep(ms), pay()) };
    const target = await sandboxTarget({}, undefined, 10, clock);
    other.sandbox = target.sandbox;
    const ended = await payThenRevisit(target, () => (other.from = clock.now()));
    expect(ended).toEqual({ outcome: 'skipped', why: expect.stringMatching(/^not judged: other activity on the wallet: /) });
  });

  it('a payout of the run’s gone by the end: not judged, saying why', async () => {
    const gone: { sandbox?: RunningSandbox } = {};
    // The target forgets every payout while the revisit waits.
    const { owned } = ownedClock(() => {
      for (const key of [...gone.sandbox!.app.store.payouts.keys()]) gone.sandbox!.app.store.payouts.delete(key);
    });
    const target = await sandboxTarget({}, undefined, 10, owned);
    gone.sandbox = target.sandbox;
    expect(await payThenRevisit(target)).toEqual({
      outcome: 'skipped',
      why: "not judged: the run's own payouts kept settling around the balance reads, or could not be read",
    });
  });

  it('another party paying from the wallet all along, seen while it waits: not judged, never failed', async () => {
    const moving: { sandbox?: RunningSandbox } = {};
    const target = await sandboxTarget({
      record: (x) => {
        const wallet = moving.sandbox?.app.store.wallets.get(moving.sandbox.config.merchant.walletId);
        if (wallet !== undefined && x.path === '/api/v3/banking/balance') wallet.balanceMinor -= 7;
      },
    });
    moving.sandbox = target.sandbox;
    expect(await payThenRevisit(target)).toEqual({
      outcome: 'skipped',
      why: expect.stringMatching(/^not judged: other activity on the wallet: /),
    });
  });

  it('fails a duplicate memory that forgets an id after 10 s (dup-memory-expires)', async () => {
    const { ended } = await revisit(['dup-memory-expires']);
    expect(ended[2]!.outcome).toBe('failed');
    expect(ended[2]!.why).toMatch(
      /^Create Order with the order_id of a record written at least 12 s earlier \(\w+ when last read\) must answer 409 \(P-DUP-5/,
    );
  });

  it('fails an expiry job that rewrites final orders (state-expiry-job-rewrites)', async () => {
    // Alone: the model's own reads, on the same clock, would see the rewrite first.
    const { ended } = await revisit(['state-expiry-job-rewrites'], []);
    expect(ended[1]!.outcome).toBe('failed');
    expect(ended[1]!.why).toMatch(
      /^order \S+, CANCELLED \(final\) when last read, reads order_status "EXPIRED" at least 12 s after it was written \(P-STATE-1/,
    );
  });
});

describe('what the revisit compares, against a made-up target', () => {
  /** The revisit of one final record the run saw as `last`, read back now as `now`. */
  async function reread(kind: 'order' | 'payout', last: Record<string, unknown>, now: Record<string, unknown>, budgetMs?: number) {
    const config = madeUpConfig();
    const ctx = {
      ...madeUpContext(config, () => ({ status: 200, json: { status: true, code: 200, message: 'ok', data: now } })),
      clock: virtualClock(),
    };
    const path = kind === 'order' ? config.profile!.operations!.orderStatus!.path : '/api/v3/banking/payment/status';
    const payload = kind === 'order' ? { order_id: 'ORD-1' } : { payout_order_id: 'PO-1' };
    const options = { label: 'seen', path, payload };
    noteWritten(
      ctx.runKey,
      config,
      {
        ...options,
        path: kind === 'order' ? '/api/v3/pg/order/create' : config.profile!.operations!.transactionInitiation!.path,
        payload: { ...payload, svc_wallet_id: config.merchant.walletId },
      },
      exchangeOf(config, options, { status: 200, json: { data: last, return_data: last } }),
      ctx.clock.now(),
    );
    return judge(
      records!,
      () => ({ status: 200, json: { status: true, code: 200, message: 'ok', data: now } }),
      () => {},
      { clock: ctx.clock, runKey: ctx.runKey, ...(budgetMs !== undefined ? { deadlineAt: ctx.clock.now() + budgetMs } : {}) },
    );
  }

  it("does not start to wait past the run's time budget (--max-time): not judged, saying why", async () => {
    const last = { payout_order_id: 'PO-1', status: 'FAILED', amount: '5.00' };
    const { outcome } = await reread('payout', last, { ...last, status: 'SUCCESS' }, 5_000);
    expect(outcome).toBe("skipped: not judged: the run's time budget ends before what it wrote is at least 12 s old");
    expect((await reread('payout', last, { ...last, status: 'SUCCESS' }, 13_000)).outcome).toBe('failed');
  });

  it('passes a record read back alike: ids as text, amounts by value, a field one answer leaves out, a new message', async () => {
    const last = {
      order_id: 123,
      order_amount: '10.5',
      order_currency: 'INR',
      order_status: 'CANCELLED',
      created_at: 'x',
      message: 'Order cancelled',
    };
    const now = { order_id: '123', order_amount: 10.5, order_currency: 'INR', order_status: 'CANCELLED', message: 'Order fetched' };
    expect((await reread('order', last, now)).outcome).toBe('passed');
  });

  it('passes a late UTR and a changed amount_debited: P-STATE-2 fixes neither, and a UTR may come late', async () => {
    const last = { payout_order_id: 'PO-1', status: 'REVERSED', amount: '5.00', amount_debited: 'YES', utr_number: '' };
    expect((await reread('payout', last, { ...last, utr_number: 'UTR1', amount_debited: 'NO' })).outcome).toBe('passed');
  });

  it('fails a final payout whose state, amount or payout_id changed', async () => {
    const last = { payout_order_id: 'PO-1', payout_id: 'P-9', status: 'FAILED', amount: '5.00', amount_debited: 'NO', utr_number: 'NA' };
    for (const change of [{ status: 'SUCCESS' }, { amount: '5.01' }, { payout_id: 'P-10' }]) {
      const { outcome, failure } = await reread('payout', last, { ...last, ...change });
      expect(outcome).toBe('failed');
      expect(failure?.message).toMatch(new RegExp(`^payout PO-1, FAILED \\(final\\) when last read, reads ${Object.keys(change)[0]} `));
    }
  });

  it('reads nothing again that was not final when last seen: an UN_PAID order may move', async () => {
    const last = { order_id: 'ORD-1', order_status: 'UN_PAID', order_amount: '1.00', order_currency: 'INR' };
    const { outcome } = await reread('order', last, { ...last, order_status: 'EXPIRED' });
    expect(outcome).not.toBe('failed');
  });
});
