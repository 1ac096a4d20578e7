// The environment checks (P-ENV-1, P-ENV-2), each condition broken alone by a made-up server. Their
// sandbox faults: test/auth-area-faults.test.ts.
import { describe, expect, it } from 'vitest';
import type { TargetConfig } from '../config.js';
import { environmentChecks } from './environments.js';
import { madeUpConfig, verdict, type Reply } from './made-up-server-test-support.js';

const check = (id: string) => environmentChecks.find((c) => c.id === id)!;
const noFixture = (c: TargetConfig) => void delete c.fixtures!.payouts!.SUCCESS;
const withData: Reply = { status: 403, json: { status: false, code: 403, message: 'no', data: {} } };

describe("ENV-PRODUCTION-KEY: the other environment's key is refused, 401 or 403", () => {
  it.each([
    [401, 'passed'],
    [403, 'passed'],
    [404, 'failed'],
    [200, 'failed'],
  ] as const)('%i: %s', async (status, outcome) => {
    expect(await verdict(check('env-other-environment-key'), () => status)).toBe(outcome);
  });

  it('sends that key signed with the merchant secret, and is skipped without one', async () => {
    const sent: unknown[] = [];
    await verdict(check('env-other-environment-key'), (o) => (sent.push(o.as), 401));
    const { otherEnvironment, merchant } = madeUpConfig();
    expect(sent).toEqual([{ apiKey: otherEnvironment!.apiKey, secretKey: merchant.secretKey }]);
    expect(
      await verdict(
        check('env-other-environment-key'),
        () => 401,
        (c) => void delete c.otherEnvironment!.apiKey,
      ),
    ).toMatch(/^skipped: needs otherEnvironment\.apiKey/);
    expect(
      await verdict(
        check('env-other-environment-key'),
        () => 401,
        (c) => void delete c.otherEnvironment,
      ),
    ).toMatch(/^skipped: needs otherEnvironment\.apiKey/);
  });
});

describe("ENV-WALLET-OTHER-ENVIRONMENT: the other environment's wallet answers 403 without data", () => {
  it('passes 403, fails 404 for the SUCCESS fixture, and a 403 with data', async () => {
    expect(await verdict(check('env-other-environment-wallet'), () => 403)).toBe('passed');
    expect(await verdict(check('env-other-environment-wallet'), () => 404)).toBe('failed');
    expect(await verdict(check('env-other-environment-wallet'), () => withData)).toBe('failed');
  });

  it('without the fixture: judges a 403 or a 400, skips a 404 (a server may look the payout up first)', async () => {
    expect(await verdict(check('env-other-environment-wallet'), () => 403, noFixture)).toBe('passed');
    expect(await verdict(check('env-other-environment-wallet'), () => 400, noFixture)).toBe('failed');
    expect(await verdict(check('env-other-environment-wallet'), () => 404, noFixture)).toMatch(
      /^skipped: answered 404 for a made-up payout id/,
    );
    expect(
      await verdict(
        check('env-other-environment-wallet'),
        () => 403,
        (c) => void delete c.otherEnvironment!.walletId,
      ),
    ).toMatch(/^skipped: needs otherEnvironment\.walletId/);
    expect(
      await verdict(
        check('env-other-environment-wallet'),
        () => 403,
        (c) => void delete c.otherEnvironment,
      ),
    ).toMatch(/^skipped: needs otherEnvironment\.walletId/);
  });

  it("asks for the SUCCESS fixture's payout on the other environment's wallet, or a made-up id without it", async () => {
    const sent: unknown[] = [];
    const ask = (o: { payload?: unknown }) => (sent.push(o.payload), 403);
    await verdict(check('env-other-environment-wallet'), ask);
    await verdict(check('env-other-environment-wallet'), ask, noFixture);
    const { otherEnvironment, fixtures } = madeUpConfig();
    const wallet = { svc_wallet_id: otherEnvironment!.walletId, debit_account_type: 'svc_wallet' };
    expect(sent[0]).toEqual({ ...wallet, payout_order_id: fixtures!.payouts!.SUCCESS });
    expect(sent[1]).toMatchObject(wallet);
    expect((sent[1] as { payout_order_id: string }).payout_order_id).not.toBe(fixtures!.payouts!.SUCCESS);
  });

  it('names which payout it asked for in the label, also with no fixtures at all or none for payouts', async () => {
    const labels: string[] = [];
    const ask = (o: { label: string }) => (labels.push(o.label), 403);
    await verdict(check('env-other-environment-wallet'), ask);
    await verdict(check('env-other-environment-wallet'), ask, (c) => void delete c.fixtures);
    await verdict(check('env-other-environment-wallet'), ask, (c) => void (c.fixtures = {}));
    expect(labels).toEqual([
      "Payout Status with the other environment's wallet (the SUCCESS fixture)",
      "Payout Status with the other environment's wallet (an unknown payout)",
      "Payout Status with the other environment's wallet (an unknown payout)",
    ]);
  });

  it('without the fixture, no answer at all is failed, not skipped as a 404', async () => {
    expect(await verdict(check('env-other-environment-wallet'), () => 'no answer', noFixture)).toBe('failed');
  });
});
