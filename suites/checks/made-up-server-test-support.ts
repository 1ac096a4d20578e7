// Test support: one check judged against a made-up server, without HTTP. The server answers what a
// test needs to break one condition of the check and keep the others, which no real server gives.
import { systemClock } from '../../core/clock.js';
import { sandboxConfig } from '../../sandbox/tenants.js';
import { CheckFailure, CheckSkipped, type Check, type CheckContext } from '../check.js';
import type { TargetConfig } from '../config.js';
import type { Exchange, SendOptions } from '../http.js';
import { idSource } from '../ids.js';
import { settleInOrder } from '../limiter.js';

export type Outcome = 'passed' | 'failed' | `skipped: ${string}`;

/**
 * An answer: a status (with the general envelope of that status as its body), a status with a body
 * of the test's own (text, or JSON), or 'no answer' (the connection failed).
 */
export type Reply = number | { status: number; json?: unknown; text?: string; contentType?: string } | 'no answer';

/** What a made-up server answers a request. */
export type Server = (options: SendOptions) => Reply;

/** The general envelope of a status (P-ERR-1): success with an empty data object, or the error envelope. */
export function envelopeOf(status: number): unknown {
  return status < 300
    ? { status: true, code: status, message: 'ok', data: {} }
    : { status: false, code: status, message: `refused with ${status}` };
}

/** The exchange a check sees when a server gives this reply. */
export function exchangeOf(config: TargetConfig, options: SendOptions, reply: Reply): Exchange {
  const request = {
    method: options.method ?? 'POST',
    url: `${config.baseUrl}${options.path}`,
    headers: {},
    body: options.raw ?? JSON.stringify(options.payload),
  };
  if (reply === 'no answer') return { label: options.label, request, error: { code: 'refused', message: 'connection refused' }, ms: 0 };
  const { status, json, text, contentType } = typeof reply === 'number' ? { status: reply, json: envelopeOf(reply) } : reply;
  const body = text ?? JSON.stringify(json);
  const parsed = text === undefined ? json : undefined;
  return {
    label: options.label,
    request,
    response: { status, headers: { 'content-type': contentType ?? 'application/json' }, body, json: parsed },
    ms: 0,
  };
}

/** The reference sandbox's config, as a made-up server's: nothing listens at its base URL. */
export function madeUpConfig(): TargetConfig {
  return structuredClone(sandboxConfig('http://127.0.0.1:9', 300));
}

/** A check's context against a made-up server; `findings` collects what the check noted against other requirements. */
export function madeUpContext(config: TargetConfig, server: Server, findings: string[] = []): CheckContext {
  const send = (options: SendOptions) => Promise.resolve(exchangeOf(config, options, server(options)));
  const ctx: CheckContext = {
    config,
    nowSeconds: () => Math.floor(Date.now() / 1000),
    redact: (text) => text,
    runKey: {},
    sendSetup: send,
    seed: 42,
    runs: 3,
    concurrency: 1,
    sweep: (cases, task) => settleInOrder(cases, 1, task),
    checkId: 'made-up-server',
    clock: systemClock,
    ids: idSource(42, 1),
    operation: (key) => {
      const location = config.profile?.operations?.[key];
      if (location === undefined || location === null) throw new Error(`no ${key} in the made-up server's config`);
      return location;
    },
    send,
    note: (requirement, message) => void findings.push(`${requirement}: ${message}`),
    notice: () => {},
    exclusive: (_lane, work) => work(),
    webhooks: () => Promise.reject(new Error('no webhooks against a made-up server')),
    quietly: (work) => work(ctx),
  };
  return ctx;
}

/** What one check made of a made-up server: its outcome, the failure when it failed, and what it noted. */
export interface Judged {
  outcome: Outcome;
  failure?: CheckFailure;
  skip?: CheckSkipped;
  findings: string[];
}

/** Runs one check against a made-up server; `overrides` replace parts of its context (its clock, nowSeconds). */
export async function judge(
  check: Check,
  server: Server,
  edit: (config: TargetConfig) => void = () => {},
  overrides: Partial<CheckContext> = {},
): Promise<Judged> {
  const config = madeUpConfig();
  edit(config);
  const findings: string[] = [];
  try {
    // Quiet work runs on the context as overridden (its clock, its run's records).
    const ctx: CheckContext = { ...madeUpContext(config, server, findings), quietly: (work) => work(ctx), ...overrides };
    await check.run(ctx);
    return { outcome: 'passed', findings };
  } catch (error) {
    if (error instanceof CheckSkipped) return { outcome: `skipped: ${error.message}`, skip: error, findings };
    if (error instanceof CheckFailure) {
      // Every failure these tests see names the exchange it judged and says what came back.
      if (error.details.actual === undefined || error.details.exchange === undefined)
        throw new Error(`${check.id} failed without its exchange or what came back: ${error.message}`);
      return { outcome: 'failed', failure: error, findings };
    }
    throw error;
  }
}

/** Runs one check against a made-up server: passed, failed, or skipped with why. */
export async function verdict(check: Check, server: Server, edit: (config: TargetConfig) => void = () => {}): Promise<Outcome> {
  return (await judge(check, server, edit)).outcome;
}
