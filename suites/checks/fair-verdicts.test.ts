// Verdicts on answers the reference sandbox never gives but a conforming server may: a request with
// two defects read the other way round, a parser that reads a bare NaN. The checks must not call
// those failures, and must still fail the answers the profile forbids. Last, P-ENV-3: every check
// that sends a Create Order or a Transaction Initiation says it creates records.
import { describe, expect, it } from 'vitest';
import { sandboxConfig } from '../../sandbox/tenants.js';
import type { Check } from '../check.js';
import { sandboxTarget } from '../check-test-support.js';
import type { TargetConfig } from '../config.js';
import type { SendOptions } from '../http.js';
import { authenticationChecks } from './authentication.js';
import { duplicateChecks } from './duplicates.js';
import { environmentChecks } from './environments.js';
import { errorChecks } from './errors.js';
import { verdict, type Server } from './made-up-server-test-support.js';
import { operationChecks } from './operations.js';
import { createOrderChecks } from './orders.js';
import { payoutStatusChecks } from './payouts.js';
import { CREATE_ORDER_PATH } from '../requests.js';
import { signatureChecks } from './signature.js';

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
