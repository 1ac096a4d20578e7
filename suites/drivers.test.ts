// Drivers (P-CFG v1.3 `drivers`): the user's shell commands, run with the record and the run's SVC_*
// variables in their environment, bounded by profile.settleWithinSeconds, their output redacted.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scaledClock } from '../core/clock.js';
import type { CheckContext } from './check.js';
import { madeUpConfig, madeUpContext } from './checks/made-up-server-test-support.js';
import type { TargetConfig } from './config.js';
import { driverFor, driversOf } from './drivers.js';
import { redactor } from './redact.js';

function contextWith(edit: (config: TargetConfig) => void, clock = scaledClock(1)): CheckContext {
  const config = madeUpConfig();
  edit(config);
  return { ...madeUpContext(config, () => 404), redact: redactor(config), clock };
}

const commanded = (drivers: NonNullable<TargetConfig['drivers']>, settle?: number) =>
  contextWith((config) => {
    delete config.target;
    config.drivers = drivers;
    if (settle !== undefined) config.profile = { ...config.profile, settleWithinSeconds: settle };
  });

/** Drivers bound to 1 s of a clock 20 times faster: 50 ms of real time. */
const quicklyBounded = (drivers: NonNullable<TargetConfig['drivers']>) =>
  contextWith((config) => {
    delete config.target;
    config.drivers = drivers;
    config.profile = { ...config.profile, settleWithinSeconds: 1 };
  }, scaledClock(20));

describe('a command driver', () => {
  it('runs with the record and the run’s SVC_* variables in its environment; exit 0 is done', async () => {
    const ctx = commanded({ settlePayout: 'echo "$PAYOUT_ORDER_ID $STATE $WALLET_ID $SVC_BASE_URL $AMOUNT"' });
    const driven = await driversOf(ctx)!.drive(
      ctx,
      'settlePayout',
      { PAYOUT_ORDER_ID: 'PO-1', STATE: 'REVERSED', WALLET_ID: 'W-9', AMOUNT: '10.50' },
      'x',
    );
    expect(driven).toEqual({ done: true, said: `exit 0: PO-1 REVERSED W-9 ${ctx.config.baseUrl} 10.50` });
  });

  it('says a failure with its exit status and output, the secret redacted in any form', async () => {
    const ctx = commanded({ payOrder: 'echo "no order $ORDER_ID for key $SVC_SECRET_KEY"; printf %s "$SVC_SECRET_KEY" | base64; exit 3' });
    const driven = await driversOf(ctx)!.drive(ctx, 'payOrder', { ORDER_ID: 'ORD-7' }, 'x');
    expect(driven.done).toBe(false);
    expect(driven.said).toMatch(/^exit 3: no order ORD-7 for key \S+/);
    const secret = ctx.config.merchant.secretKey;
    expect(driven.said).not.toContain(secret);
    expect(driven.said).not.toContain(Buffer.from(secret).toString('base64'));
  });

  it('stops a driver that outlives profile.settleWithinSeconds, and what it started', async () => {
    const ctx = quicklyBounded({ expireOrder: 'sleep 30 & echo "started $!"; sleep 30' });
    const driven = await driversOf(ctx)!.drive(ctx, 'expireOrder', {}, 'x');
    expect(driven.said).toMatch(/^did not end within 1 s \(profile.settleWithinSeconds\) and was stopped: started \d+$/);
    const started = Number(/started (\d+)/.exec(driven.said)![1]);
    await expect.poll(() => alive(started), { timeout: 2_000, interval: 20 }).toBe(false);
  });

  it('decides when the shell exits 0, and stops what it left running', async () => {
    const ctx = commanded({ payOrder: 'sleep 30 & echo "left $!"; exit 0' });
    const driven = await driversOf(ctx)!.drive(ctx, 'payOrder', {}, 'x');
    expect(driven.done).toBe(true);
    const left = Number(/left (\d+)/.exec(driven.said)![1]);
    await expect.poll(() => alive(left), { timeout: 2_000, interval: 20 }).toBe(false);
  });

  it('runs a driver that outlived its bound no more in that run, so the waits stay bounded', async () => {
    const ctx = quicklyBounded({ settlePayout: 'sleep 30' });
    const drivers = driversOf(ctx)!;
    expect((await drivers.drive(ctx, 'settlePayout', {}, 'x')).said).toMatch(/^did not end within 1 s/);
    expect(await drivers.drive(ctx, 'settlePayout', {}, 'x')).toEqual({
      done: false,
      said: 'not run again: it outlived profile.settleWithinSeconds earlier in this run',
    });
  });

  it('drops the end of output cut at its bound before redacting: no part of a secret shows', async () => {
    const ctx = commanded({ fundWallet: 'head -c 16380 /dev/zero | tr "\\0" " "; printf %s "$SVC_SECRET_KEY"; exit 1' });
    const driven = await driversOf(ctx)!.drive(ctx, 'fundWallet', {}, 'x');
    expect(driven.said).toBe('exit 1');
    expect(driven.said).not.toContain(ctx.config.merchant.secretKey.slice(0, 6));
  });

  it('keeps a bounded part of what a driver prints', async () => {
    const ctx = commanded({ fundWallet: 'head -c 200000 /dev/zero | tr "\\0" x; exit 1' });
    const driven = await driversOf(ctx)!.drive(ctx, 'fundWallet', {}, 'x');
    expect(driven.said).toMatch(/^exit 1: x{300}…$/);
  });
});

describe('which drivers a run has', () => {
  it('the config’s commands, each only where given', () => {
    const drivers = driversOf(commanded({ settlePayout: 'true' }))!;
    expect([drivers.kind, drivers.has('settlePayout'), drivers.has('payOrder')]).toEqual(['command', true, false]);
  });

  it('the declared reference sandbox’s requests, without funding; none for any other target', () => {
    const sandbox = driversOf(contextWith(() => {}))!;
    expect([sandbox.kind, sandbox.has('payOrder'), sandbox.has('settlePayout'), sandbox.has('fundWallet')]).toEqual([
      'control',
      true,
      true,
      false,
    ]);
    expect(driversOf(contextWith((config) => delete config.target))).toBeUndefined();
    expect(driversOf(contextWith((config) => (config.environment = 'production')))).toBeUndefined();
  });

  it('names the driver that reaches each state', () => {
    expect(
      ['order:PAID', 'order:FAILED', 'order:EXPIRED', 'order:CANCELLED', 'payout:REVERSED', 'payout:FAILED', 'payout:PENDING'].map(
        driverFor,
      ),
    ).toEqual(['payOrder', 'failOrder', 'expireOrder', undefined, 'settlePayout', 'settlePayout', undefined]);
  });
});

/** Whether a process is still there (a zombie not yet reaped counts as gone: it runs nothing). */
function alive(pid: number): boolean {
  let stat: string;
  try {
    process.kill(pid, 0);
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  return !/^\d+ \(.*\) Z/.test(stat);
}
