import { systemClock } from '../../core/clock.js';
// Verdicts on answers the reference sandbox never gives but a conforming server may: a request with
// two defects read the other way round, a parser that reads a bare NaN. The checks must not call
// those failures, and must still fail the answers the profile forbids. Last, P-ENV-3: every check
// that sends a Create Order or a Transaction Initiation says it creates records.
import { describe, expect, it } from 'vitest';
import { sandboxConfig } from '../../sandbox/tenants.js';
import { CheckFailure, CheckSkipped, type Check, type CheckContext } from '../check.js';
import { sandboxTarget } from '../check-test-support.js';
import type { TargetConfig } from '../config.js';
import type { Exchange, SendOptions } from '../http.js';
import { idSource } from '../ids.js';
import { settleInOrder } from '../limiter.js';
import { authenticationChecks } from './authentication.js';
import { duplicateChecks } from './duplicates.js';
import { environmentChecks } from './environments.js';
import { errorChecks } from './errors.js';
import { operationChecks } from './operations.js';
import { createOrderChecks } from './orders.js';
import { payoutStatusChecks } from './payouts.js';
import { CREATE_ORDER_PATH } from '../requests.js';
import { signatureChecks } from './signature.js';

type Outcome = 'passed' | 'failed' | `skipped: ${string}`;

/** The status a made-up server gives a request; its body is the error envelope of that status. */
type Server = (options: SendOptions) => number;

function answer(config: TargetConfig, options: SendOptions, status: number): Exchange {
  const json =
    status < 300
      ? { status: true, code: status, message: 'ok', data: {} }
      : { status: false, code: status, message: `refused with ${status}` };
  const body = JSON.stringify(json);
  return {
    label: options.label,
    request: {
      method: options.method ?? 'POST',
      url: `${config.baseUrl}${options.path}`,
      headers: {},
      body: options.raw ?? JSON.stringify(options.payload),
    },
    response: { status, headers: { 'content-type': 'application/json' }, body, json },
    ms: 0,
  };
}

/** Runs one check against a made-up server, without HTTP. */
async function verdict(check: Check, server: Server, edit: (config: TargetConfig) => void = () => {}): Promise<Outcome> {
  const config = structuredClone(sandboxConfig('http://127.0.0.1:9', 300)) as TargetConfig;
  edit(config);
  const ctx: CheckContext = {
    config,
    nowSeconds: () => Math.floor(Date.now() / 1000),
    redact: (text) => text,
    runKey: {},
    sendSetup: undefined as never,
    quietly: undefined as never,
    seed: 42,
    runs: 3,
    concurrency: 1,
    sweep: (cases, task) => settleInOrder(cases, 1, task),
    checkId: 'fair-verdicts',
    clock: systemClock,
    ids: idSource(42, 1),
    operation: () => {
      throw new Error('not used by these checks');
    },
    send: (options) => Promise.resolve(answer(config, options, server(options))),
    note: () => {},
    notice: () => {},
    exclusive: (_lane, work) => work(),
    webhooks: () => Promise.reject(new Error('no webhooks in this test')),
  };
  try {
    await check.run(ctx);
    return 'passed';
  } catch (error) {
    if (error instanceof CheckSkipped) return `skipped: ${error.message}`;
    if (error instanceof CheckFailure) return 'failed';
    throw error;
  }
}

const byId = (id: string) => [...payoutStatusChecks, ...errorChecks].find((c) => c.id === id)!;
const FIXTURES = Object.values(sandboxConfig('http://127.0.0.1:9', 300).fixtures.payouts);
const MERCHANT_WALLET = sandboxConfig('http://127.0.0.1:9', 300).merchant.walletId;
const withoutPayoutFixtures = (config: TargetConfig) => void (config.fixtures!.payouts = {});

/** Payout Status of a server that looks the payout up before the wallet: P-PAYOUT-5, then 404, then 403. */
function payoutFirst(options: SendOptions): number {
  const body = options.payload as Record<string, unknown>;
  if (!('svc_wallet_id' in body) || !('debit_account_type' in body) || !('payout_order_id' in body)) return 400;
  if (!FIXTURES.includes(body.payout_order_id as string)) return 404;
  return body.svc_wallet_id === MERCHANT_WALLET ? 200 : 403;
}

describe('PAYOUT-UNKNOWN-WALLET: a made-up wallet is judged only where it is the one defect', () => {
  it('is skipped, naming the fixtures, when a made-up payout id answers 404', async () => {
    expect(await verdict(byId('payout-status-unknown-wallet'), payoutFirst, withoutPayoutFixtures)).toMatch(
      /^skipped: .*fixtures\.payouts/,
    );
  });

  it('passes that server when a fixture payout is configured', async () => {
    expect(await verdict(byId('payout-status-unknown-wallet'), payoutFirst)).toBe('passed');
  });

  it('fails a 404 for the made-up wallet when the payout is a fixture, and any answer but 403 or 404 without one', async () => {
    expect(await verdict(byId('payout-status-unknown-wallet'), () => 404)).toBe('failed');
    expect(await verdict(byId('payout-status-unknown-wallet'), () => 200, withoutPayoutFixtures)).toBe('failed');
  });
});

describe('PAYOUT-MISSING-*: a missing field is a 400 whatever the payout id (P-PAYOUT-5)', () => {
  it.each(['payout-status-without-svc-wallet-id', 'payout-status-without-debit-account-type'])(
    '%s passes a server that checks fields first, with or without fixtures',
    async (id) => {
      expect(await verdict(byId(id), payoutFirst)).toBe('passed');
      expect(await verdict(byId(id), payoutFirst, withoutPayoutFixtures)).toBe('passed');
    },
  );

  it.each(['payout-status-without-svc-wallet-id', 'payout-status-without-debit-account-type'])(
    '%s fails a 404 even for a made-up payout id',
    async (id) => {
      expect(await verdict(byId(id), () => 404, withoutPayoutFixtures)).toBe('failed');
    },
  );

  it('sends a configured fixture id, so the missing field is the only defect', async () => {
    const ids: unknown[] = [];
    await verdict(
      byId('payout-status-without-svc-wallet-id'),
      (options) => (ids.push((options.payload as Record<string, unknown>).payout_order_id), 400),
    );
    expect(ids).toEqual([FIXTURES[0]]);
  });
});

describe('ERR-INVALID-JSON: a bare NaN may be read as a number and refused as an amount', () => {
  const nanRefusedAsAmount =
    (status: number): Server =>
    (options) =>
      options.raw?.includes('"order_amount":NaN') ? status : 400;

  it('passes 400 or 422 for the bare NaN amount', async () => {
    expect(await verdict(byId('err-invalid-json'), nanRefusedAsAmount(422))).toBe('passed');
    expect(await verdict(byId('err-invalid-json'), nanRefusedAsAmount(400))).toBe('passed');
  });

  it('fails anything else for it, and a 422 for a real syntax error', async () => {
    expect(await verdict(byId('err-invalid-json'), nanRefusedAsAmount(201))).toBe('failed');
    expect(await verdict(byId('err-invalid-json'), (options) => (options.raw?.endsWith(',}') ? 422 : 400))).toBe('failed');
  });
});

describe('P-ENV-3: every check that sends a Create Order or a Transaction Initiation is marked creates', () => {
  const ALL: readonly Check[] = [
    ...authenticationChecks,
    ...signatureChecks,
    ...environmentChecks,
    ...errorChecks,
    ...createOrderChecks,
    ...duplicateChecks,
    ...payoutStatusChecks,
    ...operationChecks,
  ];

  it('holds for the requests each check sends to a correct sandbox', async () => {
    const target = await sandboxTarget({}, (c) => c, 2);
    try {
      const initiation = target.state.settings.config.profile!.operations!.transactionInitiation!.path;
      const unmarked: string[] = [];
      for (const check of ALL) {
        const paths = new Set<string>();
        const spied: Check = {
          ...check,
          run: (ctx) => check.run({ ...ctx, send: (options) => (paths.add(options.path), ctx.send(options)) }),
        };
        await target.run(spied);
        if (!check.creates && (paths.has(CREATE_ORDER_PATH) || paths.has(initiation))) unmarked.push(check.id);
      }
      expect(unmarked).toEqual([]);
    } finally {
      await target.close();
    }
  }, 60_000);
});
