import { describe, expect, it } from 'vitest';
import type { CheckResult, Report, Requirement } from '../core/report.js';
import { requirementOf, resultOf } from '../core/report-test-support.js';
import { buildReport } from '../core/verdict.js';
import { judged, summaryLines } from './console.js';

describe('judged', () => {
  const base = { target: { baseUrl: 'http://127.0.0.1:4010', environment: 'sandbox', embeddedSandbox: false } } as Report;

  it('counts in the singular for one: "1 request", "1 delivery"', () => {
    expect(
      judged({
        ...base,
        client: { command: 'node c.mjs', exitCode: 0, requests: 1, scenarios: [] },
        receiver: { url: 'http://127.0.0.1:4020/hooks', deliveries: 1 },
      }),
    ).toBe('client `node c.mjs` (1 request; its webhook receiver at http://127.0.0.1:4020/hooks, 1 delivery)');
    expect(judged({ ...base, receiver: { url: 'http://127.0.0.1:4020/hooks', deliveries: 1 } })).toBe(
      'the webhook receiver at http://127.0.0.1:4020/hooks (1 delivery)',
    );
    expect(judged({ ...base, receiver: { url: 'http://127.0.0.1:4020/hooks', deliveries: 2 } })).toBe(
      'the webhook receiver at http://127.0.0.1:4020/hooks (2 deliveries)',
    );
  });
});

describe('summaryLines', () => {
  const requirement = requirementOf;
  const result = resultOf;
  /** A report as a run builds it (core/verdict.ts): a catalog entry with no result was left out of the run. */
  const report = (catalog: Requirement[], results: CheckResult[]): Report =>
    buildReport({
      results,
      catalog,
      target: { baseUrl: 'https://pay.example', environment: 'sandbox', embeddedSandbox: false },
      seed: 7,
      runNumber: 1,
      runs: 1,
      strict: false,
      startedAt: new Date(0),
      durationMs: 1,
      version: 'test',
    });
  const numbers = (line: string) => [...line.matchAll(/(?<![\w-])(\d+) /g)].map((m) => Number(m[1]));

  // Before: "requirements: 1 passed, 1 MUST failed, 1 SHOULD warned, 2 skipped" beside "not judged: 2 left out …; 1 needs …".
  it('counts what was not judged as the coverage does: the counts add up to the total, and the not-judged line to its count', () => {
    const catalog = [
      requirement('A-PASS'),
      requirement('A-FAIL'),
      requirement('A-WARN', 'SHOULD'),
      requirement('A-MAY', 'MAY'),
      requirement('A-NEEDS-KEY'),
      requirement('A-HTTPS', 'SHOULD'),
      requirement('A-OUT-1'),
      requirement('A-OUT-2'),
    ];
    const r = report(catalog, [
      result('A-PASS', 'passed'),
      result('A-FAIL', 'failed'),
      result('A-WARN', 'failed'),
      result('A-MAY', 'failed'),
      result('A-NEEDS-KEY', 'skipped', { skipped: 'needs otherMerchant in the config' }),
      result('A-HTTPS', 'skipped', { skipped: 'the base URL is http: nothing to judge', notApplicable: true }),
    ]);
    const lines = summaryLines(r, ['out/report.json']);
    const counts = lines.find((l) => l.startsWith('  requirements: '))!;
    expect(counts).toBe(
      '  requirements: 1 passed, 1 MUST failed, 1 SHOULD warned, 1 MAY not held, 1 not applicable, 3 not judged (5 of 8 judged)',
    );
    const parts = numbers(counts.slice(0, counts.indexOf('(')));
    expect(parts.reduce((a, b) => a + b, 0)).toBe(r.coverage.total);
    expect(parts.at(-1)).toBe(r.coverage.notJudged.length);
    const notJudged = lines.find((l) => l.startsWith('  not judged: '))!;
    expect(numbers(notJudged).reduce((a, b) => a + b, 0)).toBe(r.coverage.notJudged.length);
  });

  it('adds up the reasons it does not name one by one', () => {
    const catalog = ['K1', 'K2', 'K3', 'K4', 'K5'].map((id) => requirement(id));
    const r = report(
      catalog,
      catalog.map((c, i) => result(c.id, 'skipped', { skipped: `needs key${i} in the config` })),
    );
    expect(summaryLines(r, [])).toContain(
      '  not judged: 1 needs key0 in the config; 1 needs key1 in the config; 1 needs key2 in the config; 2 for 2 other reasons; --require-all makes a partial run inconclusive',
    );
  });

  // Before: "…and 13 more", and nothing said where they were.
  it('says where the failures it does not list are: the report files written', () => {
    const catalog = Array.from({ length: 23 }, (_, i) => requirement(`F-${i}`));
    const r = report(
      catalog,
      catalog.map((c) => result(c.id, 'failed')),
    );
    const files = ['out/report.json', 'out/junit.xml', 'out/report.html'];
    expect(summaryLines(r, files)).toContain('  …and 3 more: see out/report.json or out/report.html');
    expect(summaryLines(r, [])).toContain('  …and 3 more (no report file was written: see the error above)');
  });

  // Before: AUTH-REPLAY (MAY) was listed among the failures.
  it('lists a MAY that does not hold apart, as information, after the failures and never marked as one', () => {
    const r = report([requirement('A-FAIL'), requirement('A-MAY', 'MAY')], [result('A-FAIL', 'failed'), result('A-MAY', 'failed')]);
    const lines = summaryLines(r, []);
    const may = lines.indexOf('  i A-MAY (MAY) A-MAY broke');
    expect(may).toBeGreaterThan(lines.indexOf('  ✗ A-FAIL (MUST) A-FAIL broke'));
    expect(lines[may - 1]).toBe('  information (a MAY that does not hold fails nothing):');
    expect(lines.filter((l) => l.includes('A-MAY') && /[✗!]/.test(l))).toEqual([]);
  });

  // Before: "✗ OPS-ORDER-STATUS (MUST) …: /order_amount: must be string", and no word that the rule is the profile's.
  it('says under a failure resting on a point the interface leaves open which profile rule decides it, and where to read it', () => {
    const decided = requirement('OPS-ORDER-STATUS', 'MUST', {
      profileDecides: { rule: 'P-OPS-1', decision: 'order_amount is decimal text' },
    });
    const r = report(
      [decided, requirement('AUTH-MISSING-KEY')],
      [
        result('OPS-ORDER-STATUS', 'failed', {
          failure: { message: 'Order Status: the record does not match order-status-record: /order_amount: must be string' },
        }),
        result('AUTH-MISSING-KEY', 'failed'),
      ],
    );
    const lines = summaryLines(r, []);
    const at = lines.indexOf(
      '  ✗ OPS-ORDER-STATUS (MUST) Order Status: the record does not match order-status-record: /order_amount: must be string',
    );
    expect(lines[at + 1]).toBe(
      '      the interface does not say; profile rule P-OPS-1 decides: order_amount is decimal text (docs/profile.md#P-OPS-1)',
    );
    expect(lines[lines.indexOf('  ✗ AUTH-MISSING-KEY (MUST) AUTH-MISSING-KEY broke') + 1]).not.toContain('profile rule');
  });
});
