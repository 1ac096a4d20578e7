// The wallet, isolation, race and refused-request checks, run against real reference sandboxes on
// loopback: each passes a correct sandbox whether it debits at initiation or at settlement, each of
// their faults makes a check of its requirement fail, and without a spare wallet the drain checks are
// skipped naming fixtures.spareWallet.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { minorUnitOf } from '../../schemas/amounts.js';
import { FAULTS, type FaultName, type RunningSandbox, type SandboxVariant } from '../../sandbox/index.js';
import type { Check } from '../check.js';
import { openSpareWallet, sandboxTarget, surprisesAgainst } from '../check-test-support.js';
import { authEffectChecks } from './auth-effects.js';
import { moneyChecks } from './money.js';
import { raceChecks } from './races.js';
import { tenantChecks } from './tenants.js';

const CHECKS: readonly Check[] = [...moneyChecks, ...raceChecks, ...tenantChecks, ...authEffectChecks];

const OUR_FAULTS: FaultName[] = [
  'money-exact-balance-refused',
  'money-overdraft-race',
  'money-duplicate-debits',
  'money-debit-before-validation',
  'ops-initiate-race',
  'ops-cancel-race',
  'tenant-order-status',
  'tenant-status-cache',
  'tenant-order-cancel',
  'tenant-balance',
  'tenant-initiate',
  'tenant-initiate-fee',
  'auth-failure-cancels-order',
];

describe('no false alarms: every check passes a correct sandbox, debiting at initiation or at settlement', () => {
  it.concurrent.each([['initiation'], ['settlement']] as const)(
    'debitAt %s',
    async (debitAt) => {
      const variant: Partial<SandboxVariant> = { debitAt };
      expect(await surprisesAgainst({ variant, settleSeconds: 6 }, CHECKS)).toEqual([]);
    },
    60_000,
  );
});

describe('detection: each fault fails a check of its requirement', () => {
  it.concurrent.each(OUR_FAULTS.map((name) => [name, FAULTS[name].requirement] as const))(
    'fault %s fails %s',
    async (fault, requirement) => {
      const checks = CHECKS.filter((c) => c.requirement === requirement);
      expect(checks.length, `no check for ${requirement}`).toBeGreaterThan(0);
      const target = await sandboxTarget({ faults: [fault] });
      try {
        const outcomes: string[] = [];
        for (const check of checks) {
          const { outcome, meta } = await target.run(check);
          outcomes.push(`${check.id}: ${outcome} ${meta.failure?.message ?? meta.skipped ?? meta.error?.message ?? ''}`);
        }
        expect(
          outcomes.some((o) => o.includes(': failed ')),
          outcomes.join('; '),
        ).toBe(true);
      } finally {
        await target.close();
      }
    },
    60_000,
  );
});

describe('the spare wallet', () => {
  it('a configured fixtures.spareWallet is used; without it and without the control request the drain checks are skipped, naming the key', async () => {
    const target = await sandboxTarget({}, (config) => ({ ...config, baseUrl: config.baseUrl }));
    try {
      // A fixture: a spare wallet the sandbox opened beforehand, named in the config.
      const walletId = await openSpareWallet(target, '40.50');
      for (const check of moneyChecks.slice(0, 2)) expect((await target.run(check)).outcome, check.id).toBe('passed');
      expect(target.sandbox.app.store.wallets.get(walletId)!.balanceMinor).toBe(0);
    } finally {
      await target.close();
    }
  });

  it('a spare wallet drained to zero: refilled by drivers.fundWallet (WALLET_ID, AMOUNT), else not judged naming it', async () => {
    const target = await sandboxTarget();
    // The deployment's back office, as a driver reaches it: one request that adds AMOUNT to WALLET_ID.
    const funded: string[] = [];
    const office = createServer((req, res) => {
      const { searchParams } = new URL(req.url!, 'http://office');
      const wallet = target.sandbox.app.store.wallets.get(searchParams.get('wallet')!);
      funded.push(`${searchParams.get('wallet')} ${searchParams.get('amount')}`);
      if (wallet !== undefined) wallet.balanceMinor += Number(searchParams.get('amount')) * 10 ** minorUnitOf(wallet.currency);
      res.writeHead(wallet === undefined ? 404 : 200).end();
    });
    await new Promise<void>((listening) => office.listen(0, '127.0.0.1', listening));
    const fund = `node -e "fetch('http://127.0.0.1:${(office.address() as AddressInfo).port}/?wallet='+process.env.WALLET_ID+'&amount='+process.env.AMOUNT).then((r) => process.exit(r.ok ? 0 : 3))"`;
    try {
      const walletId = await openSpareWallet(target, '1');
      target.sandbox.app.store.wallets.get(walletId)!.balanceMinor = 0;
      const config = target.state.settings.config;
      // A deployment's: no control request of the reference sandbox's stands in for a driver.
      delete config.target;
      for (const check of moneyChecks.slice(0, 2)) {
        const { outcome, meta } = await target.run(check);
        expect({ outcome, skipped: meta.skipped }).toEqual({
          outcome: 'skipped',
          skipped: expect.stringMatching(
            /^not judged: the spare wallet holds too little \(0\.00; nothing left to pay out\): refill it to a few units \(drivers\.fundWallet does it for the run\)/,
          ),
        });
      }
      config.drivers = { fundWallet: 'exit 3' };
      expect((await target.run(moneyChecks[0]!)).meta.skipped).toMatch(/; drivers\.fundWallet: exit 3$/);
      config.drivers = { fundWallet: 'exit 0' };
      expect((await target.run(moneyChecks[0]!)).meta.skipped).toBe(
        'not judged: drivers.fundWallet exited 0, but the spare wallet still holds too little (0.00; nothing left to pay out)',
      );
      config.drivers = { fundWallet: fund };
      const [first, second] = [await target.run(moneyChecks[0]!), await target.run(moneyChecks[1]!)];
      expect([first.outcome, second.outcome]).toEqual(['passed', 'passed']);
      expect(first.meta.notes).toEqual([`drivers.fundWallet was asked to add 25 INR to the spare wallet ${walletId}, which held 0.00`]);
      // Once: the first check leaves enough for the second.
      expect(funded).toEqual([`${walletId} 25`]);
    } finally {
      office.close();
      await target.close();
    }
  }, 30_000);

  it('with drivers.fundWallet, another run refilling the wallet mid-check is not blamed once a look sees it; without, it is', async () => {
    const cases = [
      { drivers: { fundWallet: 'exit 0' }, other: true, outcome: 'skipped' },
      { drivers: undefined, other: true, outcome: 'failed' },
      // Nothing else moves it: the over-balance payout the server took is its own doing.
      { drivers: { fundWallet: 'exit 0' }, other: false, faults: ['money-rounding-tolerance' as const], outcome: 'failed' },
    ];
    for (const { drivers, other, faults, outcome: expected } of cases) {
      const moving: { sandbox?: RunningSandbox; walletId?: string; reads: number } = { reads: 0 };
      // Another run: refills the wallet after this check's first read, then keeps paying from it.
      const target = await sandboxTarget({
        ...(faults ? { faults } : {}),
        record: (x) => {
          const wallet = moving.sandbox?.app.store.wallets.get(moving.walletId ?? '');
          if (!other || wallet === undefined || x.path !== '/api/v3/banking/balance' || !x.body.includes(wallet.id)) return;
          wallet.balanceMinor += ++moving.reads === 1 ? 2_500 : -7;
        },
      });
      moving.sandbox = target.sandbox;
      try {
        const opened = await target.state.client.send({ label: 'open', path: '/sandbox/wallets', payload: { balance: '10' } });
        moving.walletId = (opened.response?.json as { data: { wallet_id: string } }).data.wallet_id;
        const config = target.state.settings.config;
        Object.assign(config, { fixtures: { ...config.fixtures, spareWallet: moving.walletId }, ...(drivers ? { drivers } : {}) });
        const { outcome, meta } = await target.run(moneyChecks.find((c) => c.id === 'money-exact-balance')!);
        expect({ drivers, outcome, why: meta.skipped ?? meta.failure?.message }).toEqual({
          drivers,
          outcome: expected,
          why:
            expected === 'skipped'
              ? expect.stringMatching(/^not judged: other activity on the spare wallet: /)
              : expect.stringContaining('not FAILED for insufficient balance'),
        });
      } finally {
        await target.close();
      }
    }
  });

  it('a target that does not open one skips them naming fixtures.spareWallet', async () => {
    // A sandbox whose control path is not served stands in for a real deployment: its unknown path answers 404.
    const target = await sandboxTarget();
    try {
      target.state.client.send = (
        (original) => (options: Parameters<typeof original>[0]) =>
          original({ ...options, path: options.path === '/sandbox/wallets' ? '/no/such/path' : options.path })
      )(target.state.client.send.bind(target.state.client));
      for (const check of moneyChecks.slice(0, 2)) {
        const { outcome, meta } = await target.run(check);
        expect(outcome).toBe('skipped');
        expect(meta.skipped).toMatch(/^needs fixtures\.spareWallet in the config/);
        expect(meta.findings).toEqual([]);
      }
    } finally {
      await target.close();
    }
  });
});

describe('the whole balance refused while the spare wallet moved (P-MONEY-1 v1.3)', () => {
  const exact = moneyChecks.find((c) => c.id === 'money-exact-balance')!;

  it.each<[string, number, string, RegExp]>([
    [
      'by the refused payouts themselves, no other activity seen: failed',
      0,
      'failed',
      /no quiet look at the wallet saw anything else move it/,
    ],
    ['by something else on every read too: not judged', 3, 'skipped', /^not judged: other activity on the spare wallet/],
  ])('%s', async (_name, perRead, wanted, why) => {
    const started: { sandbox?: RunningSandbox } = {};
    const target = await sandboxTarget({
      faults: ['money-exact-balance-refused'],
      record: (x) => {
        // Only the spare wallet the check opens: its refused payouts take a cent each anyway, and
        // `perRead` minor units leave it on each of its Balance Inquiries.
        const walletId = (JSON.parse(x.body || '{}') as { svc_wallet_id?: unknown }).svc_wallet_id;
        const wallet =
          typeof walletId === 'string' && walletId.includes('SPARE') ? started.sandbox?.app.store.wallets.get(walletId) : undefined;
        if (wallet === undefined) return;
        if (x.path === '/api/v3/banking/payment/initiate' && x.status < 300) wallet.balanceMinor -= 1;
        if (x.path === '/api/v3/banking/balance') wallet.balanceMinor -= perRead;
      },
    });
    started.sandbox = target.sandbox;
    try {
      const { outcome, meta } = await target.run(exact);
      expect({ outcome, why: meta.failure?.message ?? meta.skipped }).toMatchObject({ outcome: wanted, why: expect.stringMatching(why) });
    } finally {
      await target.close();
    }
  });
});
