// Drivers move a record where the interface has no operation for it (P-CFG `drivers`, as Pact's
// provider states do): the user's shell commands, or the declared reference sandbox's own requests.
import { spawn } from 'node:child_process';
import { memo } from '../common/memo.js';
import { CONTROL_PATHS } from '../core/operations.js';
import type { DriverName } from '../schemas/types.js';
import type { CheckContext } from './check.js';
import { ConfigError, targetVariables, type TargetConfig } from './config.js';
import type { Exchange } from './http.js';
import { isReferenceSandbox } from './reference-sandbox.js';

export type { DriverName };

/** What a driver is told of the record it moves: its environment variables (P-CFG `drivers`). */
export interface DriverRecord {
  ORDER_ID?: string;
  SVC_ORDER_ID?: string;
  PAYMENT_LINK?: string;
  PAYOUT_ORDER_ID?: string;
  WALLET_ID?: string;
  STATE?: 'SUCCESS' | 'FAILED' | 'REVERSED';
  AMOUNT?: string;
}

export interface Driven {
  /** The driver says the change is made: its command exited 0, the control request answered 200. */
  done: boolean;
  /** What happened, in a few words for a model step: "exit 0", "exit 3: no such payout". */
  said: string;
  /** The reference sandbox's request, whose answer is the record as it now is. */
  exchange?: Exchange;
}

export interface Drivers {
  /** 'command': the user's, each only asked for a move the lifecycle allows; 'control': the reference sandbox's. */
  kind: 'command' | 'control';
  has(name: DriverName): boolean;
  drive(ctx: CheckContext, name: DriverName, record: DriverRecord, label: string): Promise<Driven>;
}

/** Output kept of a command, bytes: enough for its error, bounded whatever it prints. */
const MAX_OUTPUT = 16 * 1024;
/** Shown of that output in a step, characters. */
const SHOWN_OUTPUT = 300;

/** The run's drivers: the config's commands, else the reference sandbox's requests when declared, else none. */
export function driversOf(ctx: CheckContext): Drivers | undefined {
  const commands = ctx.config.drivers;
  if (commands !== undefined && Object.keys(commands).length > 0) return commandDrivers(commands);
  return isReferenceSandbox(ctx) ? CONTROL_DRIVERS : undefined;
}

/** Drivers are code: those of a config found in the working directory, not named, run only when asked. */
export function refuseUnaskedDrivers(
  config: Pick<TargetConfig, 'drivers'>,
  options: { discoveredConfig?: string; allowDrivers?: boolean } = {},
): void {
  const names = Object.keys(config.drivers ?? {});
  if (names.length === 0 || options.discoveredConfig === undefined || options.allowDrivers === true) return;
  throw new ConfigError(
    `./${options.discoveredConfig} (found in the working directory, not named with --config) lists drivers (${names.join(', ')}), shell commands that would run with your environment and its secrets: --allow-drivers runs them, or name the file with --config`,
  );
}

/** The driver that moves a record into `state` ("order:PAID", "payout:REVERSED"). */
export function driverFor(state: string): DriverName | undefined {
  const [subject, name] = state.split(':');
  if (subject === 'payout') return ['SUCCESS', 'FAILED', 'REVERSED'].includes(name!) ? 'settlePayout' : undefined;
  return ({ PAID: 'payOrder', FAILED: 'failOrder', EXPIRED: 'expireOrder' } as Record<string, DriverName>)[name!];
}

const CHECKOUT_OUTCOME: Partial<Record<DriverName, string>> = { payOrder: 'success', failOrder: 'failure', expireOrder: 'expire' };

/** The reference sandbox's hosted checkout (its form, as a customer's browser submits it) and settle request. */
const CONTROL_DRIVERS: Drivers = {
  kind: 'control',
  has: (name) => name !== 'fundWallet',
  async drive(ctx, name, record, label) {
    const outcome = CHECKOUT_OUTCOME[name];
    let exchange: Exchange;
    if (outcome !== undefined) {
      const link = checkoutPath(ctx, record.PAYMENT_LINK);
      if (link === undefined) return { done: false, said: 'its payment_link is not a page of the target' };
      exchange = await ctx.send({ label, path: link, form: { method: 'upi', outcome } });
    } else {
      const payload = { payout_order_id: record.PAYOUT_ORDER_ID, status: record.STATE };
      exchange = await ctx.send({ label, path: CONTROL_PATHS.settlePayout, payload });
    }
    const status = exchange.response?.status;
    return { done: status === 200, said: status === undefined ? 'no answer' : `answered ${status}`, exchange };
  },
};

/** A payment link's path when it is a page of the target itself, where its checkout is. */
export function checkoutPath(ctx: CheckContext, link: string | undefined): string | undefined {
  if (!URL.canParse(String(link)) || !URL.canParse(ctx.config.baseUrl)) return undefined;
  const url = new URL(String(link));
  return url.origin === new URL(ctx.config.baseUrl).origin ? url.pathname : undefined;
}

/** Per run, the drivers that outlived their bound once: not run again, so the run's waiting stays bounded. */
const timedOut = new WeakMap<object, Set<DriverName>>();

function commandDrivers(commands: Partial<Record<DriverName, string>>): Drivers {
  return {
    kind: 'command',
    has: (name) => commands[name] !== undefined,
    async drive(ctx, name, record) {
      const stalled = memo(timedOut, ctx.runKey, () => new Set<DriverName>());
      if (stalled.has(name)) return { done: false, said: 'not run again: it outlived profile.settleWithinSeconds earlier in this run' };
      const driven = await runCommand(ctx, commands[name]!, record);
      if (driven.stalled === true) stalled.add(name);
      return { done: driven.done, said: driven.said };
    },
  };
}

/** The process groups of drivers still running: stopped when the kit's process ends, however it ends. */
const running = new Set<number>();
process.on('exit', () => {
  for (const pid of running) stop(pid);
});

/** Runs one driver's shell command, bounded by profile.settleWithinSeconds; its output only redacted. Once
 *  its shell exits, what it left running in the background is stopped too. */
function runCommand(ctx: CheckContext, command: string, record: DriverRecord): Promise<Driven & { stalled?: boolean }> {
  const seconds = ctx.config.profile?.settleWithinSeconds ?? 15;
  const env = { ...process.env, ...targetVariables(ctx.config), ...record };
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid !== undefined) running.add(child.pid);
    let output = '';
    let cut = false;
    const keep = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      const room = MAX_OUTPUT - output.length;
      if (text.length > room) cut = true;
      output += text.slice(0, Math.max(0, room));
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const shown = () => {
      // Cut output may end in part of a secret, which no redaction knows: that end is dropped first.
      const text = ctx
        .redact(cut ? output.slice(0, -1024) : output)
        .replace(/\s+/g, ' ')
        .trim();
      return text === '' ? '' : `: ${text.length > SHOWN_OUTPUT ? `${text.slice(0, SHOWN_OUTPUT)}…` : text}`;
    };
    const end = (driven: Driven & { stalled?: boolean }) => {
      clearTimeout(timer);
      stop(child.pid);
      resolve(driven);
    };
    const outlived = () => `did not end within ${seconds} s (profile.settleWithinSeconds) and was stopped${shown()}`;
    const timer = setTimeout(() => end({ done: false, stalled: true, said: outlived() }), (seconds * 1000) / (ctx.clock.factor ?? 1));
    child.on('error', (error) => end({ done: false, said: `could not start: ${ctx.redact(error.message)}` }));
    // Decided when the shell exits; stopping its group then lets a background child's pipes close too.
    child.on('exit', () => stop(child.pid));
    child.on('close', (code, signal) =>
      end({ done: code === 0, said: `${code === null ? `ended by ${signal}` : `exit ${code}`}${shown()}` }),
    );
  });
}

function stop(pid: number | undefined): void {
  if (pid === undefined) return;
  running.delete(pid);
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
