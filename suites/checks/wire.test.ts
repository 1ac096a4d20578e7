// The Wire checks (P-HTTP) and AUTH-WINDOW-AHEAD against the reference sandbox: each passes on the
// default sandbox and on the variants v1.2 added (another method answered 404; long ids refused), and
// each fails, naming its requirement, under the fault that breaks its rule. Conditions no sandbox fault
// breaks alone: against made-up servers at the end.
import { describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../../sandbox/faults.js';
import { authenticationChecks } from './authentication.js';
import { envelopeOf, judge, type Server } from './made-up-server-test-support.js';
import { wireChecks } from './wire.js';
import { outcomes, runAgainst } from './wire-edges-test-support.js';

const AHEAD = authenticationChecks.filter((c) => c.requirement === 'AUTH-WINDOW-AHEAD');
const CHECKS = [...wireChecks, ...AHEAD];
const ALL_PASSED = Object.fromEntries(CHECKS.map((c) => [c.id, 'passed']));

describe('no false alarm against the sandbox', () => {
  it.each([
    ['the default variant', {}],
    ['another method answered 404', { otherMethod: 404 as const }],
    ['long ids refused', { longIds: 'refuse' as const }],
    [
      'debit at settlement, 200 on create, replays allowed',
      { debitAt: 'settlement' as const, createStatus: 200 as const, replay: 'allow' as const },
    ],
  ])(
    '%s',
    async (_name, variant) => {
      const ended = await runAgainst(CHECKS, { variant });
      expect(ended.filter((e) => e.outcome !== 'passed')).toEqual([]);
      expect(outcomes(ended)).toEqual(ALL_PASSED);
    },
    30_000,
  );

  it('a server that verifies a re-canonicalized parse refuses a repeated key at authentication: not judged, never failed', async () => {
    const ended = await runAgainst(CHECKS, { variant: { verify: 'canonical' } });
    expect(outcomes(ended)).toEqual({ ...ALL_PASSED, 'http-repeated-keys': 'skipped' });
    expect(ended.find((e) => e.check === 'http-repeated-keys')?.why).toMatch(/^not judged: .*401/);
  }, 30_000);
});

const FAULTS_HERE: FaultName[] = [
  'http-method-html',
  'http-media-type-exact',
  'http-content-length-chars',
  'http-chunked-body-empty',
  'http-body-unread',
  'http-repeated-key-last-wins',
  'auth-window-past-only',
];

describe('each fault is caught by the check of its requirement', () => {
  it.each(FAULTS_HERE.map((f) => [f, FAULTS[f].requirement] as const))(
    '%s → %s',
    async (fault, requirement) => {
      const ended = await runAgainst(
        CHECKS.filter((c) => c.requirement === requirement),
        { faults: [fault] },
      );
      expect(ended.map((e) => `${e.requirement} ${e.outcome}`)).toEqual([`${requirement} failed`]);
    },
    30_000,
  );

  it('http-method-html is caught on the 404 variant too', async () => {
    const ended = await runAgainst(
      wireChecks.filter((c) => c.requirement === 'HTTP-OTHER-METHODS'),
      { variant: { otherMethod: 404 }, faults: ['http-method-html'] },
    );
    expect(ended.map((e) => e.outcome)).toEqual(['failed']);
    expect(ended[0]!.why).toMatch(/text\/html/);
  }, 30_000);
});

describe('what the wire checks try', () => {
  const otherMethodCheck = wireChecks.filter((c) => c.requirement === 'HTTP-OTHER-METHODS');
  const tried = async (edit?: Parameters<typeof runAgainst>[2]) => {
    const seen = new Set<string>();
    const ended = await runAgainst(
      otherMethodCheck,
      { record: (x) => void (x.method !== 'POST' && seen.add(`${x.method} ${x.path.replace(/\?.*$/, '')}`)) },
      edit,
    );
    expect(ended[0]!.outcome).toBe('passed');
    return seen;
  };

  it('HTTP-CHUNKED-BODY streams the Create Order in chunks, with no Content-Length, and it is read whole', async () => {
    const creates: Array<{ headers: Map<string, string>; body: string }> = [];
    const ended = await runAgainst(
      wireChecks.filter((c) => c.requirement === 'HTTP-CHUNKED-BODY'),
      { record: (x) => void creates.push({ headers: new Map(x.headers.map(([n, v]) => [n.toLowerCase(), v])), body: x.body }) },
    );
    expect(ended.map((e) => e.outcome)).toEqual(['passed']);
    expect(creates.map((c) => [c.headers.get('transfer-encoding'), c.headers.has('content-length')])).toEqual([['chunked', false]]);
    expect(JSON.parse(creates[0]!.body)).toHaveProperty('order_amount');
  }, 30_000);

  it("GET, PUT, PATCH and DELETE on every configured operation path (the interface's two and the four of P-OPS)", async () => {
    expect((await tried()).size).toBe(4 * 6);
  }, 30_000);

  it("an operation set to null in the config is not tried; the interface's two paths always are", async () => {
    const seen = await tried((config) => ({
      ...config,
      profile: {
        ...config.profile,
        operations: { orderStatus: null, orderCancel: null, balanceInquiry: null, transactionInitiation: null },
      },
    }));
    expect([...seen].sort()).toEqual(
      ['DELETE', 'GET', 'PATCH', 'PUT'].flatMap((m) => [`${m} /api/v3/banking/payment/status`, `${m} /api/v3/pg/order/create`]).sort(),
    );
  }, 30_000);
});

describe('against made-up servers', () => {
  const wireCheck = (id: string) => wireChecks.find((c) => c.id === id)!;
  /** Answers POST as the operation, any other method 405 with the error envelope, or `other` where it gives one. */
  const methods =
    (other: Server = () => 405): Server =>
    (options) =>
      (options.method ?? 'POST') === 'POST' ? 200 : other(options);

  it('HTTP-OTHER-METHODS sends a body with an order_id: a server that reads the body before the method still answers 405', async () => {
    const bodyFirst = methods((o) => ((o.payload as { order_id?: unknown } | undefined)?.order_id === undefined ? 400 : 405));
    expect((await judge(wireCheck('http-other-methods'), bodyFirst)).outcome).toBe('passed');
  });

  it('HTTP-OTHER-METHODS fails an envelope whose code is not the status, and names only what is wrong', async () => {
    const coded = (contentType: string) => methods(() => ({ status: 405, json: envelopeOf(404), contentType }));
    const why = "GET on Create Order's path (POST /api/v3/pg/order/create): the answer is not the JSON error envelope";
    expect((await judge(wireCheck('http-other-methods'), coded('application/json'))).failure?.message).toBe(
      `${why}: code is 404, not the HTTP status 405 (P-HTTP-1, P-ERR-1)`,
    );
    // Not JSON by its label: that alone is said, not the code the body gives.
    expect((await judge(wireCheck('http-other-methods'), coded('text/html'))).failure?.message).toBe(
      `${why}: Content-Type is "text/html", not application/json (P-HTTP-1, P-ERR-1)`,
    );
  });

  it('HTTP-REPEATED-KEYS fails a body that got no answer', async () => {
    expect((await judge(wireCheck('http-repeated-keys'), () => 'no answer')).failure?.message).toBe(
      'a body in which an object repeats a key must be refused with 400 (P-HTTP-4): expected HTTP 400, got no answer',
    );
  });
});
