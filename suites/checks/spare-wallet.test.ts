// The wallet the drain checks may empty (P-MONEY-2/3, P-CFG): the config's fixture when it names one,
// else one the reference sandbox's control request opens for the run, else not judged, saying why.
import { describe, expect, it } from 'vitest';
import { CONTROL_PATHS } from '../../core/operations.js';
import { CheckSkipped } from '../check.js';
import { madeUpConfig, madeUpContext, type Reply } from './made-up-server-test-support.js';
import { spareWallet } from './spare-wallet.js';

/** The spare wallet a made-up reference sandbox gives, answering its control request with `reply`. */
async function spareFrom(reply: Reply, fixture?: string | null) {
  const config = madeUpConfig();
  if (fixture === null) delete config.fixtures;
  else config.fixtures = { ...config.fixtures, ...(fixture === undefined ? {} : { spareWallet: fixture }) };
  const asked: string[] = [];
  const ctx = madeUpContext(config, (options) => (asked.push(options.path), reply));
  try {
    return { ...(await spareWallet(ctx)), asked };
  } catch (error) {
    if (error instanceof CheckSkipped) return { skipped: error.message, asked };
    throw error;
  }
}

const opened = (walletId: unknown, status = 201): Reply => ({
  status,
  json: { status: true, code: status, data: { wallet_id: walletId } },
});
const refused = expect.stringMatching(/^needs fixtures\.spareWallet in the config: .*the target did not open one/);

describe('the spare wallet', () => {
  it('is the configured fixture, asking nothing', async () => {
    expect(await spareFrom(opened('W-NEW'), 'W-FIXED')).toEqual({ walletId: 'W-FIXED', source: 'fixtures.spareWallet', asked: [] });
  });

  it('is opened for the run when the config names none (no fixtures, or an empty one)', async () => {
    for (const fixture of [null, undefined, '']) {
      expect(await spareFrom(opened('W-NEW'), fixture)).toEqual({
        walletId: 'W-NEW',
        source: 'opened for this run',
        asked: [CONTROL_PATHS.spareWallet],
      });
    }
  });

  it.each([
    ['no answer', 'no answer' as const],
    ['a 200, not 201', opened('W-NEW', 200)],
    ['a 201 without JSON', { status: 201, text: 'created' }],
    ['a 201 without a wallet_id', { status: 201, json: { status: true, code: 201, data: {} } }],
    ['a 201 with an empty wallet_id', opened('')],
    ['a 201 with a numeric wallet_id', opened(7)],
  ] as const)('is not judged when the control request gets %s', async (_, reply) => {
    expect(await spareFrom(reply)).toEqual({ skipped: refused, asked: [CONTROL_PATHS.spareWallet] });
  });
});
