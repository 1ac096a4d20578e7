// Environments are separate (P-ENV-1, P-ENV-2). The suite never holds the other environment's
// secret, so its key is signed with the merchant's: either way it must be refused.
import { CheckSkipped, expectSchema, expectStatus, type Check, type CheckContext } from '../check.js';
import { payoutStatus } from '../requests.js';
import { check, sendProbe } from './shared-auth.js';

/** ENV-PRODUCTION-KEY (P-ENV-1): the other environment's API key is refused with 401 or 403. */
async function refusesOtherEnvironmentKey(ctx: CheckContext): Promise<void> {
  const apiKey = ctx.config.otherEnvironment?.apiKey;
  if (apiKey === undefined) throw new CheckSkipped('needs otherEnvironment.apiKey in the config');
  const exchange = await sendProbe(ctx, "Payout Status with the other environment's API key, signed with the merchant's secret", {
    as: { apiKey, secretKey: ctx.config.merchant.secretKey },
  });
  expectStatus(exchange, [401, 403], 'a key of the other environment must be refused');
}

/** ENV-WALLET-OTHER-ENVIRONMENT (P-ENV-2). Needs the SUCCESS fixture: with a made-up payout id a server
 *  may fairly look the payout up first and answer 404. */
async function refusesOtherEnvironmentWallet(ctx: CheckContext): Promise<void> {
  const walletId = ctx.config.otherEnvironment?.walletId;
  if (walletId === undefined) throw new CheckSkipped('needs otherEnvironment.walletId in the config');
  const fixture = ctx.config.fixtures?.payouts?.SUCCESS;
  const payoutOrderId = fixture ?? ctx.ids.payoutOrderId('ENV');
  const which = fixture === undefined ? 'an unknown payout' : 'the SUCCESS fixture';
  const exchange = await payoutStatus(ctx, payoutOrderId, `Payout Status with the other environment's wallet (${which})`, { walletId });
  if (fixture === undefined && exchange.response?.status === 404) {
    throw new CheckSkipped(
      'answered 404 for a made-up payout id; needs fixtures.payouts.SUCCESS to tell a wallet refusal from an unknown payout',
    );
  }
  expectStatus(exchange, [403], 'a wallet of the other environment');
  expectSchema(exchange, 'payout-status-error-envelope', 'the 403 of Payout Status is the error envelope without data');
}

export const environmentChecks: Check[] = [
  check('env-other-environment-key', 'ENV-PRODUCTION-KEY', "the other environment's API key: 401 or 403", refusesOtherEnvironmentKey, [
    'otherEnvironment.apiKey',
  ]),
  check(
    'env-other-environment-wallet',
    'ENV-WALLET-OTHER-ENVIRONMENT',
    "Payout Status with the other environment's wallet: 403, no data",
    refusesOtherEnvironmentWallet,
    ['otherEnvironment.walletId'],
  ),
];
