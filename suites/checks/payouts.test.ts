// The Payout Status checks (P-PAYOUT-1…5, P-ERR-4), each condition broken alone by a made-up server
// that answers the configured fixtures as the interface says but for one thing. The missing-field and
// made-up-wallet answers of a server that looks the payout up first: fair-verdicts.test.ts.
import { describe, expect, it } from 'vitest';
import { PAYOUT_STATES } from '../../schemas/types.js';
import { judge, madeUpConfig, verdict, type Reply, type Server } from './made-up-server-test-support.js';
import { payoutStatusChecks } from './payouts.js';

type Json = Record<string, unknown>;
const check = (id: string) => payoutStatusChecks.find((c) => c.id === id)!;
const config = madeUpConfig();
const FIXTURES = config.fixtures!.payouts!;
const stateOf = (id: unknown) => PAYOUT_STATES.find((s) => FIXTURES[s] === id);

function recordOf(id: string, state: string): Json {
  return {
    payout_id: `PAY-${id}`,
    payout_order_id: id,
    wallet_id: 'WTX-1',
    status: state,
    amount: '10.00',
    currency: 'INR',
    utr_number: state === 'FAILED' ? 'NA' : 'UTR1',
    message: state === 'FAILED' ? 'insufficient balance' : 'ok',
    amount_debited: state === 'FAILED' ? 'NO' : 'YES',
    created_at: '21-11-2026',
  };
}

/** A server that answers each fixture of the merchant's wallet with its record (changed by `edit`), 404 for any other id, 403 for any other wallet. */
function fixturesServer(edit: (record: Json) => void = () => {}): Server {
  return (options) => {
    const body = options.payload as Json;
    if (body.svc_wallet_id === undefined || body.debit_account_type === undefined || body.payout_order_id === undefined) return 400;
    if (body.svc_wallet_id !== config.merchant.walletId) return 403;
    const state = stateOf(body.payout_order_id);
    if (state === undefined) return 404;
    const record = recordOf(body.payout_order_id as string, state);
    edit(record);
    return { status: 200, json: { status: true, code: 200, message: 'ok', data: record } };
  };
}
const editing = (edit: (record: Json) => void) => fixturesServer(edit);

describe('PAYOUT-STATE-*: each fixture answers 200 with its record in its state', () => {
  it.each(PAYOUT_STATES.map((s) => [s] as const))('%s passes its record, fails another state or another id', async (state) => {
    const c = check(`payout-status-${state.toLowerCase()}`);
    expect(await verdict(c, fixturesServer())).toBe('passed');
    expect(
      await verdict(
        c,
        editing((r) => void (r.status = state === 'SUCCESS' ? 'PENDING' : 'SUCCESS')),
      ),
    ).toBe('failed');
    expect(
      await verdict(
        c,
        editing((r) => void (r.payout_order_id = `${String(r.payout_order_id)}-X`)),
      ),
    ).toBe('failed');
  });

  it('fails a record that does not match the envelope, and an answer other than 200', async () => {
    expect(
      await verdict(
        check('payout-status-success'),
        editing((r) => void delete r.amount),
      ),
    ).toBe('failed');
    const created: Server = (o) => {
      const reply = fixturesServer()(o);
      return typeof reply === 'object' && reply.status === 200 ? { ...reply, status: 201 } : reply;
    };
    expect(await verdict(check('payout-status-success'), created)).toBe('failed');
  });
});

describe('PAYOUT-RECORD-FORMAT: every fixture configured, a well-formed record of its own id', () => {
  it('passes well-formed records, and fails an amount as a number or another id', async () => {
    expect(await verdict(check('payout-record-format'), fixturesServer())).toBe('passed');
    expect(
      await verdict(
        check('payout-record-format'),
        editing((r) => void (r.amount = 10)),
      ),
    ).toBe('failed');
    expect(
      await verdict(
        check('payout-record-format'),
        editing((r) => void (r.payout_order_id = 'PO-OTHER')),
      ),
    ).toBe('failed');
  });

  it('reads each fixture configured, the last too, and is skipped without any', async () => {
    const lastBroken = editing((r) => void (r.payout_order_id === FIXTURES.REVERSED && (r.amount = 10)));
    expect(await verdict(check('payout-record-format'), lastBroken)).toBe('failed');
    expect(await verdict(check('payout-record-format'), fixturesServer(), (c) => void (c.fixtures!.payouts = {}))).toMatch(
      /^skipped: needs at least one of fixtures\.payouts\.<STATE>/,
    );
    // An empty id is no fixture.
    expect(await verdict(check('payout-record-format'), fixturesServer(), (c) => void (c.fixtures!.payouts = { SUCCESS: '' }))).toMatch(
      /^skipped/,
    );
  });
});

describe('PAYOUT-FAILED-INVARIANTS: FAILED, amount_debited NO, utr_number NA, a non-empty message', () => {
  it.each([
    ['as the interface says', () => {}, 'passed'],
    ['another state', (r: Json) => void (r.status = 'SUCCESS'), 'failed'],
    ['amount_debited YES', (r: Json) => void (r.amount_debited = 'YES'), 'failed'],
    ['utr_number empty', (r: Json) => void (r.utr_number = ''), 'failed'],
    ['an empty message', (r: Json) => void (r.message = ''), 'failed'],
    ['no message', (r: Json) => void delete r.message, 'failed'],
  ] satisfies Array<[string, (record: Json) => void, 'passed' | 'failed']>)('%s: %s', async (_, edit, outcome) => {
    expect(await verdict(check('payout-failed-invariants'), editing(edit))).toBe(outcome);
  });
});

describe('PAYOUT-UNKNOWN and PAYOUT-OTHER-MERCHANT: 404 with the error envelope and no data', () => {
  it.each(['payout-status-unknown', 'payout-status-other-merchant'])('%s', async (id) => {
    expect(await verdict(check(id), fixturesServer())).toBe('passed');
    expect(await verdict(check(id), () => ({ status: 404, json: { status: false, code: 404, message: 'no', data: {} } }))).toBe('failed');
    expect(await verdict(check(id), () => ({ status: 200, json: { status: false, code: 200, message: 'none' } }))).toBe('failed');
  });
});

describe('PAYOUT-UNKNOWN-WALLET and PAYOUT-OTHER-MERCHANT-WALLET: 403 with the error envelope and no data', () => {
  const withData: Reply = { status: 403, json: { status: false, code: 403, message: 'no', data: {} } };

  it('passes 403, and fails 404 for the fixture payout or a 403 with data', async () => {
    for (const id of ['payout-status-unknown-wallet', 'payout-status-other-merchant-wallet']) {
      expect(await verdict(check(id), fixturesServer()), id).toBe('passed');
      expect(await verdict(check(id), () => 404), id).toBe('failed');
      expect(await verdict(check(id), () => withData), id).toBe('failed');
    }
  });

  it('asks with the first fixture, and without one judges a 403 but skips a 404', async () => {
    const ids: unknown[] = [];
    await verdict(check('payout-status-unknown-wallet'), (o) => (ids.push((o.payload as Json).payout_order_id), 403));
    expect(ids).toEqual([FIXTURES.SUCCESS]);
    const none = (c: typeof config) => void (c.fixtures!.payouts = {});
    expect(await verdict(check('payout-status-unknown-wallet'), () => 403, none)).toBe('passed');
    expect(await verdict(check('payout-status-unknown-wallet'), () => 404, none)).toMatch(/^skipped: answered 404 for a made-up payout id/);
    expect(await verdict(check('payout-status-unknown-wallet'), () => 400, none)).toBe('failed');
  });

  it("asks for the merchant's SUCCESS fixture from the other merchant's wallet", async () => {
    const asked: Json[] = [];
    const judged = await judge(check('payout-status-other-merchant-wallet'), (o) => (asked.push(o.payload as Json), 403));
    expect(judged.outcome).toBe('passed');
    expect(asked).toEqual([
      { svc_wallet_id: config.otherMerchant!.walletId, debit_account_type: 'svc_wallet', payout_order_id: FIXTURES.SUCCESS },
    ]);
  });
});

describe('Payout Status: the evidence, and configs and answers a check must judge without throwing', () => {
  it('a fixture in the wrong state shows the state and id expected', async () => {
    const judged = await judge(
      check('payout-status-pending'),
      editing((r) => void (r.status = 'SUCCESS')),
    );
    expect(judged.failure?.details.expected).toBe(`status PENDING, payout_order_id ${JSON.stringify(FIXTURES.PENDING)}`);
  });

  it('PAYOUT-RECORD-FORMAT is skipped when the config has no fixtures at all', async () => {
    expect(await verdict(check('payout-record-format'), fixturesServer(), (c) => void delete c.fixtures)).toMatch(
      /^skipped: needs at least one/,
    );
  });

  it('PAYOUT-UNKNOWN-WALLET names a wallet of its own, which a server that refuses an empty one still answers 403', async () => {
    const emptyIs400: Server = (o) => ((o.payload as Json).svc_wallet_id === '' ? 400 : fixturesServer()(o));
    expect(await verdict(check('payout-status-unknown-wallet'), emptyIs400)).toBe('passed');
  });

  it('PAYOUT-UNKNOWN-WALLET fails no answer for a made-up payout id', async () => {
    const none = (c: typeof config) => void (c.fixtures!.payouts = {});
    expect(await verdict(check('payout-status-unknown-wallet'), () => 'no answer', none)).toBe('failed');
  });
});
