// Payout Status (interface: Endpoints / Payout Status, Payout record; P-PAYOUT-1..5, P-ERR-4): the
// record of each configured fixture payout, and the refusals. Nothing here creates a record.
import { PAYOUT_STATES, type PayoutState } from '../../schemas/types.js';
import { CheckSkipped, expectSchema, expectStatus, expectThat, type Check, type CheckContext } from '../check.js';
import type { Exchange } from '../http.js';
import { expectData, expectRecord, payoutStatus, payoutStatusBody, PAYOUT_STATUS_PATH, withoutField } from '../requests.js';
import { check } from './shared-auth.js';
import { shown } from './shown.js';

function fixtures(ctx: CheckContext): Array<[PayoutState, string]> {
  const payouts = ctx.config.fixtures?.payouts ?? {};
  return PAYOUT_STATES.flatMap((state) => (payouts[state] ? [[state, payouts[state]] as [PayoutState, string]] : []));
}

/** A payout_order_id for requests whose subject is something else: a fixture when there is one, so the
 *  request's only defect is the one under test; else a made-up id (`fixture` false). */
function somePayoutOrderId(ctx: CheckContext): { id: string; fixture: boolean } {
  const configured = fixtures(ctx)[0]?.[1];
  return configured === undefined ? { id: ctx.ids.payoutOrderId(), fixture: false } : { id: configured, fixture: true };
}

function payoutInState(state: PayoutState): Check {
  return check(
    `payout-status-${state.toLowerCase()}`,
    `PAYOUT-STATE-${state}`,
    `the ${state} fixture answers 200 with a complete payout record in state ${state}`,
    async (ctx) => {
      const id = ctx.config.fixtures!.payouts![state]!;
      const exchange = await payoutStatus(ctx, id, `Payout Status of the ${state} fixture`);
      expectStatus(exchange, [200], `Payout Status of an existing payout must answer 200 (P-PAYOUT-1)`);
      const body = expectSchema(exchange, 'payout-status-envelope', `Payout Status of the ${state} fixture (P-PAYOUT-1)`);
      const details = shown(exchange, `status ${state}, payout_order_id ${JSON.stringify(id)}`);
      expectThat(
        body.data.status === state,
        `the ${state} fixture ${JSON.stringify(id)} is reported ${JSON.stringify(body.data.status)} (P-PAYOUT-2)`,
        details,
      );
      expectThat(
        body.data.payout_order_id === id,
        `payout_order_id came back as ${JSON.stringify(body.data.payout_order_id)}, not ${JSON.stringify(id)} (P-PAYOUT-2)`,
        details,
      );
    },
    [`fixtures.payouts.${state}`],
  );
}

async function recordFormat(ctx: CheckContext): Promise<void> {
  const configured = fixtures(ctx);
  if (configured.length === 0) throw new CheckSkipped('needs at least one of fixtures.payouts.<STATE> in the config');
  for (const [state, id] of configured) {
    const exchange = await payoutStatus(ctx, id, `Payout Status of the ${state} fixture`);
    const record = expectData(exchange, `Payout Status of the ${state} fixture must answer its record`);
    expectRecord(exchange, record, 'payout-record', `the ${state} fixture's record (P-PAYOUT-1, P-PAYOUT-2)`);
    expectThat(
      record.payout_order_id === id,
      `payout_order_id came back as ${JSON.stringify(record.payout_order_id)}, not ${JSON.stringify(id)} (P-PAYOUT-2)`,
      shown(exchange),
    );
  }
}

/** What a FAILED payout's record says besides its reason (P-PAYOUT-3): nothing debited, no bank reference. */
const FAILED_SAYS = { amount_debited: 'NO', utr_number: 'NA' };

async function failedInvariants(ctx: CheckContext): Promise<void> {
  const id = ctx.config.fixtures!.payouts!.FAILED!;
  const exchange = await payoutStatus(ctx, id, 'Payout Status of the FAILED fixture');
  const record = expectData(exchange, 'Payout Status of the FAILED fixture must answer its record');
  const details = shown(exchange, 'amount_debited "NO", utr_number "NA", a non-empty message');
  expectThat(record.status === 'FAILED', `the FAILED fixture is reported ${JSON.stringify(record.status)}`, details);
  for (const [field, value] of Object.entries(FAILED_SAYS)) {
    const said = JSON.stringify(record[field]);
    expectThat(record[field] === value, `a FAILED payout must say ${field} "${value}", not ${said} (P-PAYOUT-3)`, details);
  }
  expectThat(
    typeof record.message === 'string' && record.message !== '',
    'a FAILED payout must give its reason in a non-empty message (P-PAYOUT-3)',
    details,
  );
}

/** A refusal answers `status` with the error envelope of Payout Status, which holds no data. */
function expectRefusal(exchange: Exchange, status: 403 | 404, why: string, rule: string): void {
  expectStatus(exchange, [status], why);
  expectSchema(exchange, 'payout-status-error-envelope', `the ${status} of Payout Status carries the error envelope and no data (${rule})`);
}

async function unknownPayout(ctx: CheckContext): Promise<void> {
  const exchange = await payoutStatus(ctx, ctx.ids.payoutOrderId('PO-NEVER-MADE'), 'Payout Status of a payout_order_id never used');
  expectRefusal(exchange, 404, 'an unknown payout_order_id must answer 404 (P-PAYOUT-4)', 'P-PAYOUT-4');
}

async function otherMerchantsPayout(ctx: CheckContext): Promise<void> {
  const exchange = await payoutStatus(ctx, ctx.config.fixtures!.otherMerchantPayoutOrderId!, "Payout Status of another merchant's payout");
  expectRefusal(exchange, 404, "another merchant's payout must answer 404, as if it did not exist (P-PAYOUT-4)", 'P-PAYOUT-4');
}

/** PAYOUT-UNKNOWN-WALLET (P-ERR-4): 403. Needs a fixture payout: with a made-up payout id a server may
 *  fairly look the payout up first and answer 404. */
async function unknownWallet(ctx: CheckContext): Promise<void> {
  const walletId = `WAL-UNKNOWN-${ctx.ids.nonce()}`;
  const payout = somePayoutOrderId(ctx);
  const exchange = await payoutStatus(
    ctx,
    payout.id,
    `Payout Status from a made-up wallet ${walletId} (${payout.fixture ? 'a fixture payout' : 'an unknown payout'})`,
    { walletId },
  );
  if (!payout.fixture && exchange.response?.status === 404) {
    throw new CheckSkipped(
      'answered 404 for a made-up payout id; needs one of fixtures.payouts.<STATE> in the config to tell a wallet refusal from an unknown payout',
    );
  }
  expectRefusal(exchange, 403, 'an unknown wallet must answer 403 (P-ERR-4)', 'P-ERR-1');
}

/** PAYOUT-OTHER-MERCHANT-WALLET (P-ERR-4): the merchant's own SUCCESS fixture asked for from the other
 *  merchant's wallet answers 403. The payout exists and is the merchant's, so the wallet is the only defect. */
async function otherMerchantsWallet(ctx: CheckContext): Promise<void> {
  const walletId = ctx.config.otherMerchant!.walletId!;
  const label = "Payout Status of the SUCCESS fixture from another merchant's wallet";
  const exchange = await payoutStatus(ctx, ctx.config.fixtures!.payouts!.SUCCESS!, label, { walletId });
  expectRefusal(exchange, 403, "another merchant's wallet must answer 403 (P-ERR-4)", 'P-ERR-1');
}

function missingField(field: 'svc_wallet_id' | 'debit_account_type' | 'payout_order_id', requirement: string): Check {
  const run = async (ctx: CheckContext) => {
    // A missing field is a 400 whatever the id (P-PAYOUT-5), so a 404 is a failure even for a made-up
    // id; a fixture id, when configured, keeps the missing field the request's only defect all the same.
    const body = withoutField(payoutStatusBody(ctx, somePayoutOrderId(ctx).id), field);
    const exchange = await ctx.send({ label: `Payout Status without ${field}`, path: PAYOUT_STATUS_PATH, payload: body });
    expectStatus(exchange, [400], `a Payout Status request without ${field} must answer 400 (P-PAYOUT-5)`);
  };
  return check(`payout-status-without-${field.replaceAll('_', '-')}`, requirement, `Payout Status without ${field} answers 400`, run);
}

export const payoutStatusChecks: Check[] = [
  ...PAYOUT_STATES.map(payoutInState),
  check('payout-record-format', 'PAYOUT-RECORD-FORMAT', "every fixture's record has well-formed values, all strings", recordFormat),
  check(
    'payout-failed-invariants',
    'PAYOUT-FAILED-INVARIANTS',
    'the FAILED fixture says amount_debited NO, utr_number NA and why',
    failedInvariants,
    ['fixtures.payouts.FAILED'],
  ),
  check('payout-status-unknown', 'PAYOUT-UNKNOWN', 'an unknown payout_order_id answers 404 with no data', unknownPayout),
  check('payout-status-other-merchant', 'PAYOUT-OTHER-MERCHANT', "another merchant's payout answers 404", otherMerchantsPayout, [
    'fixtures.otherMerchantPayoutOrderId',
  ]),
  check('payout-status-unknown-wallet', 'PAYOUT-UNKNOWN-WALLET', 'a made-up wallet answers 403', unknownWallet),
  check(
    'payout-status-other-merchant-wallet',
    'PAYOUT-OTHER-MERCHANT-WALLET',
    "the SUCCESS fixture asked for from another merchant's wallet answers 403",
    otherMerchantsWallet,
    ['otherMerchant.walletId', 'fixtures.payouts.SUCCESS'],
  ),
  missingField('svc_wallet_id', 'PAYOUT-MISSING-WALLET'),
  missingField('debit_account_type', 'PAYOUT-MISSING-ACCOUNT-TYPE'),
  missingField('payout_order_id', 'PAYOUT-MISSING-ORDER-ID'),
];
