// The verdict's decision table, row by row: each input written here, each expected verdict too.
import { describe, expect, it } from 'vitest';
import { buildReport, decideVerdict, exitCodeOf, verdictText } from './verdict.js';
import type { CheckMeta, CheckResult, PlainlySigned, Requirement } from './report.js';

const requirement = (id: string, level: Requirement['level'] = 'MUST'): Requirement => ({
  id,
  title: id,
  level,
  section: 'S',
  profile: [],
  extension: false,
});
const CATALOG = [requirement('A'), requirement('B'), requirement('C', 'SHOULD'), requirement('D')];

function result(req: string, state: CheckResult['state'], meta: Partial<CheckMeta> = {}): CheckResult {
  return {
    meta: {
      check: req.toLowerCase(),
      requirement: req,
      title: req,
      evidence: [],
      findings: [],
      ...(state === 'failed' ? { failure: { message: `${req} broke` } } : {}),
      ...(state === 'error' ? { error: { message: 'boom' } } : {}),
      ...meta,
    },
    state,
    durationMs: 0,
  };
}

function build(results: CheckResult[], options: { strict?: boolean; requireAll?: boolean; couldNotJudge?: string[] } = {}) {
  return buildReport({
    results,
    catalog: CATALOG,
    target: { baseUrl: 'http://t', environment: 'sandbox', embeddedSandbox: false },
    seed: 1,
    runNumber: 1,
    runs: 1,
    strict: options.strict ?? false,
    startedAt: new Date(0),
    durationMs: 0,
    version: 'test',
    ...(options.requireAll !== undefined ? { requireAll: options.requireAll } : {}),
    ...(options.couldNotJudge !== undefined ? { couldNotJudge: options.couldNotJudge } : {}),
  });
}

const allPass = () => CATALOG.map((r) => result(r.id, 'passed'));
/** A check's plainly signed requests: those neither refused 401 nor 404 were taken, unless `more` says otherwise. */
const signed = (answered: number, refused401: number, more: Partial<PlainlySigned> = {}) => ({
  plainlySigned: { answered, refused401, accepted: answered - refused401 - (more.notFound ?? 0), notFound: 0, notJson: 0, ...more },
});
const KEYS_WRONG =
  "check that merchant.apiKey and merchant.secretKey (SVC_API_KEY, SVC_SECRET_KEY) are this merchant's, of this environment, copied whole";

describe('buildReport decides the verdict once', () => {
  it.each<[string, () => CheckResult[], Parameters<typeof build>[1], string, 0 | 1 | 2]>([
    ['everything passed', allPass, {}, 'conformant', 0],
    ['a MUST failed', () => [...allPass().slice(1), result('A', 'failed')], {}, 'not conformant', 1],
    [
      'a SHOULD failed, not strict',
      () => [...allPass().filter((r) => r.meta.requirement !== 'C'), result('C', 'failed')],
      {},
      'conformant',
      0,
    ],
    [
      'a SHOULD failed, strict',
      () => [...allPass().filter((r) => r.meta.requirement !== 'C'), result('C', 'failed')],
      { strict: true },
      'not conformant',
      1,
    ],
    [
      'one requirement skipped for a config key',
      () => [...allPass().slice(1), result('A', 'skipped', { skipped: 'needs otherMerchant in the config' })],
      {},
      'conformant, partial: 3 of 4 requirements judged',
      0,
    ],
    [
      'one requirement whose rule does not apply here',
      () => [...allPass().slice(1), result('A', 'skipped', { skipped: 'not applicable: the base URL is not https', notApplicable: true })],
      { requireAll: true },
      'conformant',
      0,
    ],
    ['one requirement left out (--only)', () => allPass().slice(1), {}, 'conformant, partial: 3 of 4 requirements judged', 0],
    [
      'partial under --require-all',
      () => allPass().slice(1),
      { requireAll: true },
      'inconclusive: --require-all: only 3 of 4 requirements were judged (not judged: A)',
      2,
    ],
    ['complete under --require-all', allPass, { requireAll: true }, 'conformant', 0],
    [
      'the target unreachable',
      () => [],
      { couldNotJudge: ['the target could not be reached: connection refused'] },
      'inconclusive: the target could not be reached: connection refused',
      2,
    ],
    [
      'the run had to stop, after a MUST failed',
      () => [result('A', 'failed'), result('B', 'skipped', { stopped: 'it reached its time budget', skipped: 'not run' })],
      {},
      'inconclusive: the run had to stop: it reached its time budget (1 of 2 checks ran before it)',
      2,
    ],
    [
      'a kit error',
      () => [...allPass().slice(1), result('A', 'error')],
      {},
      "inconclusive: the kit failed inside a check (first: a: boom); its requirement was not judged: this is the kit's fault, not the target's",
      2,
    ],
    [
      'a kit error, and a MUST failed elsewhere',
      () => [result('A', 'error'), result('B', 'failed'), result('C', 'passed'), result('D', 'passed')],
      {},
      'not conformant',
      1,
    ],
    [
      'a configured section could not be judged',
      () => [
        ...allPass().slice(1),
        result('A', 'skipped', { inconclusive: "the kit's webhook receiver cannot listen", skipped: 'not judged' }),
      ],
      {},
      "inconclusive: the kit's webhook receiver cannot listen",
      2,
    ],
    [
      'a configured section could not be judged, and a MUST failed elsewhere',
      () => [
        result('A', 'skipped', { inconclusive: "the kit's webhook receiver cannot listen", skipped: 'not judged' }),
        result('B', 'failed'),
        result('C', 'passed'),
        result('D', 'passed'),
      ],
      {},
      'not conformant',
      1,
    ],
    [
      'every correctly signed request refused 401',
      () => [result('A', 'failed', signed(2, 2)), result('B', 'failed', signed(3, 3)), result('C', 'passed'), result('D', 'passed')],
      {},
      `inconclusive: no correctly signed request was taken by the target (5 answered: 5 refused 401), so it could not be judged: the configured keys are likely wrong, not the target: ${KEYS_WRONG}; \`svc-conformance diagnose\` explains a captured request`,
      2,
    ],
    [
      'none taken: 401s, and 405s and 404s of the wire checks, which answer before authentication',
      () => [
        result('A', 'failed', signed(4, 4)),
        result('B', 'failed', signed(3, 0, { accepted: 0 })),
        result('C', 'failed', signed(1, 0, { notFound: 1 })),
        result('D', 'passed', { credentialClues: ['merchant.secretKey is the same as otherMerchant.secretKey'] }),
      ],
      {},
      `inconclusive: no correctly signed request was taken by the target (8 answered: 4 refused 401, 1 answered 404, 3 answered otherwise), so it could not be judged: the configured keys are likely wrong, not the target: ${KEYS_WRONG} (merchant.secretKey is the same as otherMerchant.secretKey); \`svc-conformance diagnose\` explains a captured request`,
      2,
    ],
    [
      'none taken: every operation path answered 404, or a page that is no JSON',
      () => [
        result('A', 'failed', signed(4, 0, { notFound: 4, notJson: 4 })),
        result('B', 'failed', signed(3, 0, { notFound: 2, accepted: 0, notJson: 1 })),
        result('C', 'passed'),
        result('D', 'passed'),
      ],
      {},
      "inconclusive: no correctly signed request was taken by the target (7 answered: 6 answered 404, 1 answered otherwise; 5 not the interface's JSON), so it could not be judged: the base URL or the operation paths are likely wrong, not the target: check baseUrl (http://t; each operation's path, such as /api/v3/pg/order/create, is appended to it) and profile.operations",
      2,
    ],
    [
      'none taken, but a 5xx answered: no configuration explains that',
      () => [
        result('A', 'failed', signed(2, 2)),
        result('B', 'failed', { ...signed(3, 3), serverErrors: 1 }),
        result('C', 'passed'),
        result('D', 'passed'),
      ],
      {},
      'not conformant',
      1,
    ],
    [
      'every one refused 401, but a wrong scheme accepted',
      () => [
        result('A', 'failed', signed(2, 2)),
        result('B', 'failed', signed(3, 3)),
        result('C', 'passed'),
        result('D', 'failed', { acceptedVariant: 'timestamp-omitted' }),
      ],
      {},
      'not conformant',
      1,
    ],
    [
      'every one refused 401, but an unsigned request taken past authentication',
      () => [
        result('A', 'failed', signed(2, 2)),
        result('B', 'failed', signed(3, 3)),
        result('C', 'passed'),
        result('D', 'failed', { wronglySignedAccepted: 1 }),
      ],
      {},
      'not conformant',
      1,
    ],
    [
      'one correctly signed request accepted among them',
      () => [result('A', 'failed', signed(2, 2)), result('B', 'passed', signed(3, 2)), result('C', 'passed'), result('D', 'passed')],
      {},
      'not conformant',
      1,
    ],
    [
      'too few correctly signed requests to say',
      () => [result('A', 'failed', signed(2, 2)), result('B', 'passed'), result('C', 'passed'), result('D', 'passed')],
      {},
      'not conformant',
      1,
    ],
  ])('%s', (_name, results, options, text, exit) => {
    const report = build(results(), options);
    expect(verdictText(report)).toBe(text);
    expect(exitCodeOf(report)).toBe(exit);
    expect(report.reasons !== undefined).toBe(report.verdict === 'inconclusive');
  });

  it('counts what it judged, and names what it did not, left out or skipped', () => {
    const report = build([result('B', 'passed'), result('C', 'failed'), result('D', 'skipped', { skipped: 'needs x' })]);
    expect(report.coverage).toEqual({ judged: 2, total: 4, notJudged: ['D', 'A'] });
    expect(report.requirements.map((r) => r.id)).toEqual(['B', 'C', 'D']);
  });

  it('decides from counts alone: verify-report recomputes it', () => {
    const summary = { passed: 3, failed: 0, warned: 1, skipped: 0 };
    const coverage = { judged: 4, total: 4, notJudged: [] };
    expect(decideVerdict({ summary, coverage, strict: false, requireAll: false })).toEqual({ verdict: 'conformant' });
    expect(decideVerdict({ summary, coverage, strict: true, requireAll: false })).toEqual({ verdict: 'not-conformant' });
    expect(decideVerdict({ summary, coverage, strict: false, requireAll: false, wholeRun: ['x'] })).toEqual({
      verdict: 'inconclusive',
      reasons: ['x'],
    });
    // A part left unjudged cannot undo a failure elsewhere; a cause that taints the whole run can.
    expect(decideVerdict({ summary, coverage, strict: true, requireAll: false, part: ['x'] })).toEqual({ verdict: 'not-conformant' });
    expect(decideVerdict({ summary, coverage, strict: false, requireAll: false, part: ['x'] })).toEqual({
      verdict: 'inconclusive',
      reasons: ['x'],
    });
    expect(decideVerdict({ summary, coverage, strict: true, requireAll: false, wholeRun: ['x'] })).toEqual({
      verdict: 'inconclusive',
      reasons: ['x'],
    });
  });
});

// How one requirement's check results become its status, the counts and the verdict: each row is
// requirement A's checks (B, C, D pass), and what the report says of A and of the run.
describe("buildReport: a requirement's checks decide its status, the counts decide the verdict", () => {
  const finding = (requirement: string) => ({ findings: [{ requirement, message: `${requirement} broke, seen by another check` }] });
  const rest = () => allPass().filter((r) => r.meta.requirement !== 'A' && r.meta.requirement !== 'MAYBE');
  const withMay = [...CATALOG, requirement('MAYBE', 'MAY')];
  it.each<
    [
      string,
      CheckResult[],
      Partial<{ strict: boolean; catalog: Requirement[] }>,
      string,
      string | undefined,
      Record<string, number>,
      string,
    ]
  >([
    [
      'passed and skipped: not wholly judged, so not passed (v1.3)',
      [result('A', 'passed'), result('A', 'skipped', { skipped: 'needs x' })],
      {},
      'skipped',
      'not judged: check a: needs x',
      { passed: 3, skipped: 1 },
      'conformant',
    ],
    [
      'passed, and a check whose rule does not apply here: passed',
      [result('A', 'passed'), result('A', 'skipped', { skipped: 'not applicable: http', notApplicable: true })],
      {},
      'passed',
      undefined,
      { passed: 4 },
      'conformant',
    ],
    [
      'passed and failed',
      [result('A', 'passed'), result('A', 'failed')],
      {},
      'failed',
      undefined,
      { passed: 3, failed: 1 },
      'not-conformant',
    ],
    [
      'every check skipped',
      [result('A', 'skipped', { skipped: 'needs x' })],
      {},
      'skipped',
      'needs x',
      { passed: 3, skipped: 1 },
      'conformant',
    ],
    [
      'passed, and a kit error in another of its checks',
      [result('A', 'passed'), result('A', 'error')],
      {},
      'skipped',
      "not judged: the kit's own error in check a (boom)",
      { passed: 3, skipped: 1 },
      'inconclusive',
    ],
    [
      'a team check that threw',
      [result('A', 'error', { error: { message: 'boom', module: './checks/a.mjs' } })],
      {},
      'skipped',
      'not judged: team check a in ./checks/a.mjs threw: boom',
      { passed: 3, skipped: 1 },
      'inconclusive',
    ],
    [
      'passed, but another check saw it broken',
      [result('A', 'passed'), result('B', 'passed', finding('A'))],
      {},
      'failed',
      undefined,
      { passed: 3, failed: 1 },
      'not-conformant',
    ],
    [
      'not judgeable here',
      [result('A', 'skipped', { inconclusive: 'the receiver cannot listen', skipped: 'not judged' })],
      {},
      'skipped',
      'not judged: the receiver cannot listen',
      { passed: 3, skipped: 1 },
      'inconclusive',
    ],
    [
      'a MAY that does not hold: counted under neither',
      [result('A', 'passed'), result('MAYBE', 'failed')],
      { catalog: withMay },
      'passed',
      undefined,
      { passed: 4 },
      'conformant',
    ],
    [
      'a MAY that does not hold, strict',
      [result('A', 'passed'), result('MAYBE', 'failed')],
      { catalog: withMay, strict: true },
      'passed',
      undefined,
      { passed: 4 },
      'conformant',
    ],
  ])('%s', (_name, results, options, status, skipReason, counts, verdict) => {
    const report = buildReport({
      results: [...rest(), ...results],
      catalog: options.catalog ?? CATALOG,
      target: { baseUrl: 'http://t', environment: 'sandbox', embeddedSandbox: false },
      seed: 1,
      runNumber: 1,
      runs: 1,
      strict: options.strict ?? false,
      startedAt: new Date(0),
      durationMs: 0,
      version: 'test',
    });
    const a = report.requirements.find((r) => r.id === 'A')!;
    expect({ status: a.status, skipReason: a.skipReason }).toEqual({ status, skipReason });
    expect(report.summary).toEqual({ passed: 0, failed: 0, warned: 0, skipped: 0, ...counts });
    expect(report.verdict).toBe(verdict);
  });
});

describe('notes: said once', () => {
  it('says once how many requests were sent again after a 401, and how many were then taken', () => {
    const report = build([
      result('A', 'passed', { resent: { sent: 2, accepted: 2 } }),
      result('B', 'passed', { resent: { sent: 1, accepted: 0 } }),
      result('C', 'passed'),
      result('D', 'passed'),
    ]);
    expect(report.notes).toEqual([
      "3 correctly signed requests were refused 401 and sent again with a fresh X-TIMESTAMP, as a target refuses a replay of another run's identical request (a fixture read, a Balance Inquiry); 2 were then accepted, and a request still refused after all its resends leaves its requirement not judged (the replay window used up by other runs)",
    ]);
  });

  it('says nothing of resends when no correctly signed request was taken: the keys are the cause', () => {
    const report = build([
      result('A', 'failed', { ...signed(3, 3), resent: { sent: 3, accepted: 0 } }),
      result('B', 'failed', signed(2, 2)),
      result('C', 'passed'),
      result('D', 'passed'),
    ]);
    expect(report.verdict).toBe('inconclusive');
    expect(report.notes).toBeUndefined();
  });
});

describe('the reproduce lines of a failure follow what its first exchange was', () => {
  const request = {
    method: 'POST',
    url: 'http://127.0.0.1:4010/api/v3/banking/payment/status',
    headers: { 'X-API-KEY': 'pk_test_a', 'X-TIMESTAMP': '100', 'X-SIGNATURE': '[redacted]' },
    body: '{}',
  };
  const answered = { response: { status: 200, headers: {}, body: '{}' }, ms: 1 };
  const signing = (deliberate: boolean) => ({ sentAt: 100, timestamp: '100', secret: 'merchant' as const, deliberate });
  const lines = (exchange: CheckMeta['evidence'][number], input: { configPath?: string; sandboxCommand?: string } = {}) =>
    buildReport({
      results: [result('A', 'failed', { evidence: [exchange] })],
      catalog: CATALOG,
      target: { baseUrl: 'http://127.0.0.1:4010', environment: 'sandbox', embeddedSandbox: input.sandboxCommand !== undefined },
      seed: 7,
      runNumber: 1,
      runs: 1,
      strict: false,
      startedAt: new Date(0),
      durationMs: 0,
      version: 'test',
      ...input,
    }).requirements.find((r) => r.id === 'A')!.evidence[0]!.reproduce!;

  it('a request signed right: curl and replay', () => {
    expect(Object.keys(lines({ label: 'read', request, ...answered, signing: signing(false) }))).toEqual(['curl', 'replay', 'run']);
  });
  it('a request sent wrong on purpose: curl only, no replay that would sign it right', () => {
    expect(Object.keys(lines({ label: 'cut signature', request, ...answered, signing: signing(true) }))).toEqual(['curl', 'run']);
  });
  it("a webhook delivery: the trigger of its event, no curl to the kit's closed listener", () => {
    const reproduce = lines(
      { label: 'delivery #1', request, ...answered, delivery: { event: 'payout.failed' } },
      { configPath: 'out/sandbox.json' },
    );
    expect(reproduce).toEqual({
      trigger: expect.stringMatching(
        /^svc-conformance trigger payout\.failed --config out\/sandbox\.json --to http:\/\/127\.0\.0\.1:\d+\//m,
      ),
      run: 'svc-conformance run --config out/sandbox.json --seed 7 --only A',
    });
  });
  it('a webhook event that never came: the trigger of that event, not the requests that should have fired it', () => {
    const reproduce = buildReport({
      results: [
        result('A', 'failed', {
          evidence: [{ label: 'initiate', request, ...answered, signing: signing(false) }],
          failure: { message: 'no payout.failed', webhookEvent: 'payout.failed' },
        }),
      ],
      catalog: CATALOG,
      target: { baseUrl: 'http://127.0.0.1:4010', environment: 'sandbox', embeddedSandbox: false },
      seed: 7,
      runNumber: 1,
      runs: 1,
      strict: false,
      startedAt: new Date(0),
      durationMs: 0,
      version: 'test',
      configPath: 'c.json',
    }).requirements.find((r) => r.id === 'A')!.evidence[0]!.reproduce!;
    expect(reproduce).toEqual({
      trigger: expect.stringMatching(/^svc-conformance trigger payout\.failed --config c\.json --to http:\/\/127\.0\.0\.1:\d+\//m),
      run: 'svc-conformance run --config c.json --seed 7 --only A',
    });
  });
  it('the embedded sandbox: the line that starts it again comes first, and every line cites the config it writes', () => {
    const reproduce = lines(
      { label: 'read', request, ...answered, signing: signing(false) },
      { configPath: 'out/sandbox.json', sandboxCommand: 'svc-conformance serve --port 4010 --config-out out/sandbox.json' },
    );
    expect(Object.keys(reproduce)[0]).toBe('sandbox');
    expect(reproduce.replay).toContain('--config out/sandbox.json');
    expect(reproduce.run).toContain('--config out/sandbox.json');
  });
});
