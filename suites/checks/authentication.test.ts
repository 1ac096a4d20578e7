// The Authentication checks' own conditions (P-AUTH-1…5), each broken alone by a made-up server:
// what each sends and which answers it takes. Each refusal against the sandbox's faults:
// test/auth-area-faults.test.ts; the https rule: auth-checks.test.ts.
import { describe, expect, it } from 'vitest';
import type { TargetConfig } from '../config.js';
import type { SendOptions } from '../http.js';
import { authenticationChecks } from './authentication.js';
import { envelopeOf, judge, verdict, type Reply, type Server } from './made-up-server-test-support.js';
import { CREATE_ORDER_PATH, PAYOUT_STATUS_PATH } from '../requests.js';

const check = (id: string) => authenticationChecks.find((c) => c.id === id)!;
const NOW = 1_795_255_200;
const at = { nowSeconds: () => NOW };

/** The requests a check sends to a server answering `reply`, as the options it sent them with. */
async function sent(id: string, reply: Server = () => 401, edit?: Parameters<typeof judge>[2]) {
  const options: SendOptions[] = [];
  const judged = await judge(check(id), (o) => (options.push(o), reply(o)), edit, at);
  return { options, outcome: judged.outcome };
}

describe('the timestamps the refusals send', () => {
  it.each([
    ['auth-timestamp-not-digits', [`${NOW}abc`, `+${NOW}`, `0x${NOW.toString(16)}`]],
    ['auth-timestamp-fractional', [`${NOW}.5`, `${NOW}.0`]],
    ['auth-timestamp-milliseconds', [`${NOW * 1000 + 250}`]],
    ['auth-timestamp-empty', ['']],
  ])('%s sends %j, each refused 401', async (id, texts) => {
    const { options, outcome } = await sent(id);
    expect(options.map((o) => o.timestamp)).toEqual(texts);
    expect(outcome).toBe('passed');
  });

  it('names each malformed timestamp in its label', async () => {
    expect((await sent('auth-timestamp-empty')).options.map((o) => o.label)).toEqual([
      'Payout Status with an empty X-TIMESTAMP "", signed with it',
    ]);
  });

  it('fails on the first text let through, sending no more', async () => {
    const { options, outcome } = await sent('auth-timestamp-not-digits', () => 404);
    expect([options.length, outcome]).toEqual([1, 'failed']);
  });

  it.each([
    ['auth-window-recent', NOW - 30],
    ['auth-window-ahead', NOW + 30],
    ['auth-window-expired', NOW - 300 - 600],
    ['auth-window-future', NOW + 300 + 600],
  ])('%s sends X-TIMESTAMP %i (a 300 s window)', async (id, timestamp) => {
    expect((await sent(id, () => 404)).options.map((o) => o.timestamp)).toEqual([timestamp]);
  });

  it.each([
    ['auth-window-expired', 'Payout Status with a timestamp 900 s old'],
    ['auth-window-future', 'Payout Status with a timestamp 900 s ahead'],
  ])('%s says which side of the window in its label', async (id, label) => {
    expect((await sent(id)).options.map((o) => o.label)).toEqual([label]);
  });

  it('a timestamp changed after signing: sent 5 s earlier than signed', async () => {
    expect((await sent('auth-timestamp-changed')).options.map((o) => [o.timestamp, o.signedTimestamp])).toEqual([[NOW - 5, String(NOW)]]);
  });

  it('judges the 30 s window in a window of 30 s, and not in one of 29', async () => {
    const window = (seconds: number) => (c: Parameters<NonNullable<Parameters<typeof judge>[2]>>[0]) =>
      void (c.profile!.timestampToleranceSeconds = seconds);
    expect((await sent('auth-window-recent', () => 404, window(30))).outcome).toBe('passed');
    expect((await sent('auth-window-recent', () => 404, window(29))).outcome).toBe(
      'skipped: the configured window is 29 s, narrower than 30 s',
    );
    expect((await sent('auth-window-expired', () => 401, window(29))).options.map((o) => o.timestamp)).toEqual([NOW - 629]);
    // Not applicable, so judged: a deployment whose window is that narrow breaks nothing by it.
    expect((await judge(check('auth-window-ahead'), () => 404, window(29), at)).skip?.options).toEqual({ notApplicable: true });
  });
});

describe('AUTH-REPLAY (MAY): the same request twice, the second refused 401', () => {
  it('passes a replay refused, fails one let through, and needs the original let through first', async () => {
    let n = 0;
    const replayRefused: Server = () => (n++ === 0 ? 404 : 401);
    const { options, outcome } = await sent('auth-replay', replayRefused);
    expect(outcome).toBe('passed');
    expect(options.map((o) => [o.timestamp, o.reuse])).toEqual([
      [NOW, true],
      [NOW, true],
    ]);
    expect(options[0]!.payload).toEqual(options[1]!.payload);
    const letThrough = (await judge(check('auth-replay'), () => 404, undefined, at)).failure;
    expect(letThrough?.details).toMatchObject({
      expected: 'HTTP 401',
      actual: expect.stringMatching(/404/),
      exchange: { label: expect.stringMatching(/re-sent/) },
    });
    expect(await verdict(check('auth-replay'), () => 401)).toBe('failed');
    let m = 0;
    const unanswered = await judge(check('auth-replay'), () => (m++ === 0 ? 404 : 'no answer'), undefined, at);
    expect(unanswered.failure?.message).toMatch(/^a re-sent request with the same timestamp and signature was not refused/);
  });
});

describe('AUTH-FAILURE-ENVELOPE: every refusal is the error envelope of its operation, code 401', () => {
  const refusing =
    (body: (o: SendOptions) => unknown): Server =>
    (o) => ({ status: 401, json: body(o) });

  it('passes the envelopes, and fails a code other than 401', async () => {
    expect(await verdict(check('auth-failure-envelope'), () => 401)).toBe('passed');
    const code403 = await judge(
      check('auth-failure-envelope'),
      refusing(() => ({ status: false, code: 403, message: 'no' })),
    );
    expect([code403.outcome, code403.failure?.details.expected]).toEqual(['failed', 'code 401']);
  });

  it('holds a Payout Status refusal to the envelope without data, a Create Order one to the general envelope', async () => {
    const withData = refusing((o) => ({ ...(envelopeOf(401) as object), ...(o.path === PAYOUT_STATUS_PATH ? { data: {} } : {}) }));
    expect(await verdict(check('auth-failure-envelope'), withData)).toBe('failed');
    const createWithData = refusing((o) => ({ ...(envelopeOf(401) as object), ...(o.path === CREATE_ORDER_PATH ? { data: null } : {}) }));
    expect(await verdict(check('auth-failure-envelope'), createWithData)).toBe('passed');
  });

  it('fails a refusal that is not 401', async () => {
    expect(await verdict(check('auth-failure-envelope'), (o) => (o.path === CREATE_ORDER_PATH ? 403 : 401))).toBe('failed');
  });
});

describe('AUTH-FAILURE-NO-EFFECT: the order refused for its signature, then created when signed right', () => {
  it('passes 201 for the second, fails 409 (the refused one was stored) and a first one let through', async () => {
    const second =
      (reply: Reply): Server =>
      (o) =>
        typeof o.signature === 'function' ? 401 : reply;
    expect(await verdict(check('auth-failure-no-effect'), second(201))).toBe('passed');
    expect(await verdict(check('auth-failure-no-effect'), second(409))).toBe('failed');
    expect(await verdict(check('auth-failure-no-effect'), () => 201)).toBe('failed');
    const { options } = await sent('auth-failure-no-effect', second(201));
    expect(options[0]!.payload).toEqual(options[1]!.payload);
  });
});

describe('AUTH-BEFORE-BODY: a Create Order signed wrong, with a bad body, refused 401 all the same', () => {
  const payload = (o: SendOptions) => o.payload as Record<string, unknown> | undefined;
  it('sends three bad bodies, each signed wrong, and passes when all three are refused 401', async () => {
    const { options, outcome } = await sent('auth-before-body');
    expect(outcome).toBe('passed');
    expect(options.map((o) => [o.path, typeof o.signature])).toEqual(Array(3).fill([CREATE_ORDER_PATH, 'function']));
    expect(options[0]!.raw).toMatch(/^\{"/);
    expect(() => JSON.parse(options[0]!.raw!)).toThrow();
    expect(payload(options[1]!)).not.toHaveProperty('order_amount');
    expect(payload(options[2]!)?.order_amount).toBe(-5);
  });

  it('fails a 400 to any one of the three: the body read before the signature', async () => {
    const bodyFirst =
      (which: (o: SendOptions) => boolean): Server =>
      (o) =>
        which(o) ? 400 : 401;
    expect(
      await verdict(
        check('auth-before-body'),
        bodyFirst((o) => o.raw !== undefined),
      ),
    ).toBe('failed');
    expect(
      await verdict(
        check('auth-before-body'),
        bodyFirst((o) => o.payload !== undefined && payload(o)?.order_amount === undefined),
      ),
    ).toBe('failed');
    expect(
      await verdict(
        check('auth-before-body'),
        bodyFirst((o) => payload(o)?.order_amount === -5),
      ),
    ).toBe('failed');
  });
});

describe('AUTH-ACCEPT: a correctly signed read of the SUCCESS fixture, and a correctly signed Create Order', () => {
  it('reads the fixture of the merchant wallet, and is skipped without one', async () => {
    const { options, outcome } = await sent('auth-accept-payout-status', () => 200);
    expect(outcome).toBe('passed');
    expect(options[0]!.payload).toMatchObject({ debit_account_type: 'svc_wallet', payout_order_id: expect.stringMatching(/SUCCESS/) });
    expect(await verdict(check('auth-accept-payout-status'), () => 404)).toBe('failed');
    expect(
      await verdict(
        check('auth-accept-payout-status'),
        () => 200,
        (c) => void delete c.fixtures!.payouts!.SUCCESS,
      ),
    ).toBe('skipped: needs fixtures.payouts.SUCCESS in the config');
    for (const edit of [(c: TargetConfig) => void delete c.fixtures!.payouts, (c: TargetConfig) => void delete c.fixtures])
      expect(await verdict(check('auth-accept-payout-status'), () => 200, edit)).toBe(
        'skipped: needs fixtures.payouts.SUCCESS in the config',
      );
  });

  it('fails a Create Order refused', async () => {
    expect(await verdict(check('auth-accept-create-order'), () => 201)).toBe('passed');
    expect(await verdict(check('auth-accept-create-order'), () => 401)).toBe('failed');
  });
});

describe('what the refusals change about the probe', () => {
  it.each([
    ['auth-missing-key', { omit: ['X-API-KEY'] }],
    ['auth-missing-signature', { omit: ['X-SIGNATURE'] }],
    ['auth-missing-timestamp', { omit: ['X-TIMESTAMP'], signBodyOnly: true }],
    ['auth-header-case', { headerCase: 'lower' }],
  ])('%s', async (id, options) => {
    expect((await sent(id)).options[0]).toMatchObject(options);
  });

  it('a truncated signature keeps its first 32 characters; a changed body is signed as the original', async () => {
    const truncate = (await sent('auth-signature-truncated')).options[0]!.signature as (s: string) => string;
    expect(truncate('a'.repeat(32) + 'b'.repeat(32))).toBe('a'.repeat(32));
    const changed = (await sent('auth-payload-changed')).options[0]!;
    expect(changed.signedBody).not.toBe(JSON.stringify(changed.payload));
  });

  it('a changed body re-uses the timestamp and signature of a request let through first', async () => {
    let n = 0;
    const { options, outcome } = await sent('auth-payload-changed-reused', () => (n++ === 0 ? 404 : 401));
    expect(outcome).toBe('passed');
    expect(options.map((o) => [o.timestamp, o.reuse ?? false])).toEqual([
      [NOW, false],
      [NOW, true],
    ]);
    expect(JSON.parse(options[1]!.signedBody!)).toEqual(options[0]!.payload);
    expect(await verdict(check('auth-payload-changed-reused'), () => 401)).toBe('failed');
  });
});
