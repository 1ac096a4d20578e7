// The wallet checks (P-MONEY-2..4), each condition broken alone on a reference sandbox with a spare
// wallet of a chosen balance: another run moving the wallet (the `record` hook), answers rewritten
// as a server could give them, and what the checks send, read back from their requests.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox, StartOptions } from '../../sandbox/index.js';
import { editedAnswer, openSpareWallet, sandboxTarget, withAnswers, type CheckRun, type SandboxTarget } from '../check-test-support.js';
import type { TargetConfig } from '../config.js';
import type { Exchange, SendOptions } from '../http.js';
import { moneyChecks } from './money.js';

const SLOW = 600;
const byId = (id: string) => moneyChecks.find((c) => c.id === id)!;
const [overdraft, exact, refused] = ['money-no-overdraft', 'money-exact-balance', 'money-refused-no-effect'].map(byId) as [
  (typeof moneyChecks)[number],
  (typeof moneyChecks)[number],
  (typeof moneyChecks)[number],
];

interface Spare {
  target: SandboxTarget;
  walletId: string;
  config: TargetConfig;
  /** The spare wallet's balance, minor units, as the sandbox holds it. */
  minor: (change?: number) => number;
  /** Runs a check, recording what it sent; `rewrite` changes an answer as the server might have given it. */
  run: (
    check: (typeof moneyChecks)[number],
    rewrite?: (x: Exchange, o: SendOptions) => Exchange,
  ) => Promise<CheckRun & { why: string | undefined; sent: SendOptions[] }>;
}

/** Another run on the spare wallet: called with each request the sandbox answered on it (its path, count so far). */
type Other = (wallet: { balanceMinor: number }, path: string, seen: Map<string, number>) => void;

/** A sandbox with a spare wallet of `balance`, named as fixtures.spareWallet; `other` moves it as another run would. */
async function spare(balance: string, options: StartOptions = {}, other?: Other): Promise<Spare> {
  const held: { sandbox?: RunningSandbox; walletId?: string } = {};
  const seen = new Map<string, number>();
  const target = await sandboxTarget({
    ...options,
    record: (x) => {
      const wallet = held.sandbox?.app.store.wallets.get(held.walletId ?? '');
      if (other === undefined || wallet === undefined || !x.body.includes(wallet.id)) return;
      seen.set(x.path, (seen.get(x.path) ?? 0) + 1);
      other(wallet, x.path, seen);
    },
  });
  held.sandbox = target.sandbox;
  const walletId = (held.walletId = await openSpareWallet(target, balance));
  const config = target.state.settings.config;
  const wallet = target.sandbox.app.store.wallets.get(walletId)!;
  return {
    target,
    walletId,
    config,
    minor: (change = 0) => (wallet.balanceMinor += change),
    async run(check, rewrite = (x) => x) {
      const sent: SendOptions[] = [];
      const result = await target.run(withAnswers(check, (x, o) => (sent.push(o), rewrite(x, o))));
      return { ...result, why: result.meta.failure?.message ?? result.meta.skipped ?? result.meta.error?.message, sent };
    },
  };
}

async function using<T>(s: Spare, work: (s: Spare) => Promise<T>): Promise<T> {
  try {
    return await work(s);
  } finally {
    await s.target.close();
  }
}

const BALANCE = '/api/v3/banking/balance';
const INITIATE = '/api/v3/banking/payment/initiate';
const payload = (o: SendOptions) => o.payload as Record<string, unknown>;
const labels = (sent: SendOptions[]) => sent.map((o) => o.label);
/** Another run that takes 7 minor units after each Balance Inquiry of the wallet from the `from`th on. */
const drainsFrom =
  (from: number): Other =>
  (wallet, path, seen) => {
    if (path === BALANCE && seen.get(path)! >= from) wallet.balanceMinor -= 7;
  };

describe('MONEY-EXACT-BALANCE', () => {
  it('reads a balance written with fewer decimals than its currency has ("25" for 25.00) exactly', async () => {
    const round = (x: Exchange, o: SendOptions) =>
      o.path === BALANCE
        ? editedAnswer(
            x,
            (j) => void ((j.data as Record<string, unknown>).balance = String(Number((j.data as { balance: string }).balance))),
          )
        : x;
    await using(await spare('25'), async (s) => {
      expect(await s.run(exact, round)).toMatchObject({ outcome: 'passed' });
      expect(s.minor()).toBe(0);
    });
  });

  it('without drivers or a reference sandbox, an accepted over-balance payout fails; with drivers.fundWallet its look is labelled', async () => {
    await using(await spare('10', { faults: ['money-rounding-tolerance'] }), async (s) => {
      delete s.config.target;
      expect(await s.run(exact)).toMatchObject({ outcome: 'failed', why: expect.stringContaining('not FAILED for insufficient balance') });
      s.config.drivers = { fundWallet: 'exit 0' };
      s.minor(1_000);
      const { outcome, sent } = await s.run(exact);
      expect(outcome).toBe('failed');
      expect(labels(sent).some((l) => l.includes('after a payout one minor unit beyond the balance was PROCESSING'))).toBe(true);
    });
  });

  it('an over-balance payout FAILED but saying amount_debited YES fails, even with other activity seen', async () => {
    await using(await spare('10', { faults: ['payout-failed-debited'] }, drainsFrom(1)), async (s) => {
      s.config.drivers = { fundWallet: 'exit 0' };
      expect(await s.run(exact)).toMatchObject({ outcome: 'failed', why: expect.stringContaining('one minor unit more than the balance') });
    });
  });

  it('another run emptying the wallet before the whole balance is read: not judged, nothing paid', async () => {
    const emptied: Other = (wallet, path) => void (path === INITIATE && (wallet.balanceMinor = 0));
    await using(await spare('10', {}, emptied), async (s) => {
      expect(await s.run(exact)).toMatchObject({
        outcome: 'skipped',
        why: expect.stringMatching(/^not judged: the spare wallet holds too little \(0\.00;/),
      });
    });
  });

  it('debiting at settlement, slowly: the whole-balance payout still in flight keeps later runs not judged', async () => {
    await using(await spare('10', { variant: { debitAt: 'settlement' }, settleSeconds: SLOW }), async (s) => {
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push((await s.run(exact)).why ?? 'passed');
      expect(seen).toEqual([
        'passed',
        expect.stringMatching(/^not judged: the whole balance, since 1 payout\(s\) of this run/),
        expect.stringMatching(/^not judged: the whole balance, since 1 payout\(s\) of this run/),
      ]);
    });
  });

  it('debiting at initiation, slowly: a whole-balance payout already debited is not waited for', async () => {
    await using(await spare('10', { variant: { debitAt: 'initiation' }, settleSeconds: SLOW }), async (s) => {
      expect((await s.run(exact)).outcome).toBe('passed');
      s.minor(500);
      expect((await s.run(exact)).outcome).toBe('passed');
    });
  });

  it('debiting at settlement within the wait: a settled payout is not asked after again', async () => {
    await using(await spare('10', { variant: { debitAt: 'settlement' }, settleSeconds: 6 }), async (s) => {
      const first = await s.run(exact);
      const ids = first.sent.filter((o) => o.path === INITIATE).map((o) => payload(o).payout_order_id);
      s.minor(500);
      expect((await s.run(exact)).outcome).toBe('passed');
      s.minor(500);
      const third = await s.run(exact);
      expect(third.outcome).toBe('passed');
      expect(third.sent.filter((o) => ids.includes(payload(o).payout_order_id))).toEqual([]);
    });
  });
});

describe('MONEY-NO-OVERDRAFT', () => {
  const split = (n: number) => (c: TargetConfig) => void (c.profile = { ...c.profile, concurrency: n });

  it('splits a balance of one minor unit into 3 payouts of it, but not into 4', async () => {
    await using(await spare('0.01'), async (s) => {
      split(3)(s.config);
      expect((await s.run(overdraft)).outcome).toBe('passed');
      s.minor(1);
      split(4)(s.config);
      expect((await s.run(overdraft)).why).toMatch(
        /^not judged: the spare wallet holds too little \(0\.01; too small to split into 4 payouts\)/,
      );
    });
  });

  it('3 payouts of the whole balance: one accepted, leaving exactly zero, passes; the after read is labelled so', async () => {
    await using(await spare('10'), async (s) => {
      split(3)(s.config);
      const { outcome, sent } = await s.run(overdraft);
      expect(outcome).toBe('passed');
      expect(s.minor()).toBe(0);
      expect(labels(sent)).toContain("the spare wallet's balance once the debits were taken");
    });
  });

  it('with drivers.fundWallet, another run draining the wallet is not looked for when nothing was overdrawn', async () => {
    for (const from of [1, 2]) {
      await using(await spare('10', {}, drainsFrom(from)), async (s) => {
        split(3)(s.config);
        s.config.drivers = { fundWallet: 'exit 0' };
        expect(await s.run(overdraft), `draining from read ${from}`).toMatchObject({ outcome: 'passed' });
      });
    }
  });

  it('overdrawn in a race: failed naming the last accepted payout, or not judged once a look sees another run', async () => {
    await using(await spare('10', { faults: ['money-overdraft-race'] }), async (s) => {
      split(3)(s.config);
      const { outcome, why, meta } = await s.run(overdraft);
      expect({ outcome, why }).toMatchObject({ outcome: 'failed', why: expect.stringContaining('more than the balance 10.00') });
      expect(meta.evidence[0]?.label).toMatch(/^concurrent payout 3 of 3:/);
      expect(meta.failure?.actual).toMatch(/^statuses [A-Z]+, [A-Z]+, [A-Z]+$/);
    });
    await using(await spare('10', { faults: ['money-overdraft-race'] }, drainsFrom(2)), async (s) => {
      split(3)(s.config);
      s.config.drivers = { fundWallet: 'exit 0' };
      expect((await s.run(overdraft)).why).toMatch(/^not judged: other activity on the spare wallet: /);
    });
  });

  it('a payout FAILED for insufficient balance that says amount_debited YES fails', async () => {
    await using(await spare('10', { faults: ['payout-failed-debited'] }), async (s) => {
      split(3)(s.config);
      expect(await s.run(overdraft)).toMatchObject({ outcome: 'failed', why: expect.stringContaining('says amount_debited YES') });
    });
  });

  it('a balance left below zero fails, though the accepted payouts were within it', async () => {
    const debited: Other = (wallet, path) => void (path === INITIATE && (wallet.balanceMinor -= 10_000));
    await using(await spare('10', {}, debited), async (s) => {
      split(3)(s.config);
      expect(await s.run(overdraft)).toMatchObject({ outcome: 'failed', why: expect.stringContaining(': overdrawn (P-MONEY-3)') });
    });
  });

  it('debiting at settlement: asks Payout Status on the spare wallet; slowly, the after read is labelled in flight', async () => {
    await using(await spare('10', { variant: { debitAt: 'settlement' }, settleSeconds: 6 }), async (s) => {
      const { outcome, sent } = await s.run(overdraft);
      expect(outcome).toBe('passed');
      const asked = sent.filter((o) => o.label.startsWith('Payout Status until the accepted payout settles'));
      expect(asked.length).toBeGreaterThan(0);
      for (const o of asked) expect(payload(o).svc_wallet_id).toBe(s.walletId);
    });
    await using(await spare('10', { variant: { debitAt: 'settlement' }, settleSeconds: SLOW }), async (s) => {
      const { outcome, sent } = await s.run(overdraft);
      expect(outcome).toBe('skipped');
      expect(labels(sent)).toContain("the spare wallet's balance, payouts still in flight");
    });
  });
});

describe('MONEY-REFUSED-NO-EFFECT', () => {
  const refusals = (sent: SendOptions[]) => sent.filter((o) => o.path === INITIATE && / \(a 4\d\d\)/.test(o.label)).map(payload);

  it('sends a transfer_mode "paypal", a duplicate, and a payout from each other wallet configured', async () => {
    await using(await spare('10'), async (s) => {
      const all = await s.run(refused);
      expect(all.outcome).toBe('passed');
      const sent = refusals(all.sent);
      expect(sent[0]?.transfer_mode).toBe('paypal');
      expect(sent.slice(2).map((p) => p.svc_wallet_id)).toEqual([s.config.otherEnvironment!.walletId, s.config.otherMerchant!.walletId]);
      delete s.config.otherEnvironment;
      delete s.config.otherMerchant;
      const none = await s.run(refused);
      expect(none.outcome).toBe('passed');
      expect(refusals(none.sent)).toHaveLength(2);
      // Nothing else: every payout it initiated is the first one or a refusal it names.
      for (const o of none.sent.filter((x) => x.path === INITIATE)) expect(String(o.label)).toMatch(/^the first payout|\(a 4\d\d\)/);
    });
  });

  it('debiting at settlement, slowly: the first payout never settles, so it is not judged', async () => {
    await using(await spare('10', { variant: { debitAt: 'settlement' }, settleSeconds: SLOW }), async (s) => {
      expect((await s.run(refused)).why).toMatch(/^not judged: the first payout was still PROCESSING or PENDING/);
    });
  });

  it('a refusal answered other than 4xx is not a refusal: not judged; a 499 is judged', async () => {
    const noAnswer = (x: Exchange): Exchange => ({
      label: x.label,
      request: x.request,
      ms: 0,
      error: { code: 'reset', message: 'socket hang up' },
    });
    const cases: [string, (x: Exchange) => Exchange, RegExp | 'passed'][] = [
      ['no answer', noAnswer, /^not judged: initiate \S+ with transfer_mode "paypal" \(a 400\).* answered no answer, not a refusal/],
      ['200', (x) => editedAnswer(x, () => {}, 200), /answered HTTP 200, not a refusal/],
      ['500', (x) => editedAnswer(x, () => {}, 500), /answered HTTP 500, not a refusal/],
      ['499', (x) => editedAnswer(x, () => {}, 499), 'passed'],
    ];
    await using(await spare('10'), async (s) => {
      for (const [name, answer, wanted] of cases) {
        const { outcome, why } = await s.run(refused, (x, o) => (o.label.includes('"paypal"') ? answer(x) : x));
        if (wanted === 'passed') expect(outcome, name).toBe('passed');
        else expect({ outcome, why }, name).toMatchObject({ outcome: 'skipped', why: expect.stringMatching(wanted) });
      }
    });
  });

  it('a first payout whose amount changed after the refused requests fails, showing it as it was', async () => {
    const changed = (x: Exchange, o: SendOptions) =>
      o.label.startsWith('Payout Status of the first payout after')
        ? editedAnswer(x, (j) => void ((j.data as Record<string, unknown>).amount = '0.01'))
        : x;
    await using(await spare('10'), async (s) => {
      const { outcome, why, meta } = await s.run(refused, changed);
      expect({ outcome, why }).toMatchObject({
        outcome: 'failed',
        why: expect.stringMatching(/^after refused requests the first payout changed: amount "0\.01"/),
      });
      expect(meta.failure?.expected).toBe('the first payout as it was');
    });
  });
});
