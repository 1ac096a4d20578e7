// What verify-report finds without a key: a report whose counts, coverage or verdict do not follow
// from its own requirements. One report built by buildReport, then edited as a forger might, row by
// row; each row names exactly what no longer follows.
import { describe, expect, it } from 'vitest';
import { inconsistencies } from './consistency.js';
import type { CheckMeta, CheckResult, Report, Requirement } from './report.js';
import { buildReport, coverageOf, leftOutOf, summarize } from './verdict.js';

const requirement = (id: string, level: Requirement['level']): Requirement => ({
  id,
  title: id,
  level,
  section: 'S',
  profile: [],
  extension: false,
});
const result = (id: string, state: CheckResult['state'], meta: Partial<CheckMeta> = {}): CheckResult => ({
  meta: { check: id.toLowerCase(), requirement: id, title: id, evidence: [], findings: [], ...meta },
  state,
  durationMs: 1,
});

/** A passed MUST, a failed SHOULD (warned), a skipped MUST, one not applicable, one left out: conformant, partial. */
function genuine(options: { strict?: boolean; requireAll?: boolean } = {}): Report {
  return buildReport({
    results: [
      result('A', 'passed'),
      result('B', 'failed', { failure: { message: 'broken' } }),
      result('C', 'skipped', { skipped: 'needs fixtures.x' }),
      result('E', 'skipped', { notApplicable: true, skipped: 'http target' }),
    ],
    catalog: [
      requirement('A', 'MUST'),
      requirement('B', 'SHOULD'),
      requirement('C', 'MUST'),
      requirement('D', 'MUST'),
      requirement('E', 'MUST'),
    ],
    target: { baseUrl: 'http://127.0.0.1:1', environment: 'sandbox', embeddedSandbox: false },
    seed: 1,
    runNumber: 1,
    runs: 1,
    strict: options.strict ?? false,
    requireAll: options.requireAll ?? false,
    startedAt: new Date(0),
    durationMs: 1,
    version: '0.0.0',
  });
}

/** The forger's second step: counts and coverage recomputed from the edited requirements. */
function recount(report: Report): void {
  report.summary = summarize(report.requirements);
  report.coverage = coverageOf(report.requirements, leftOutOf(report));
}

const status = (report: Report, id: string, to: Report['requirements'][number]['status']) => {
  report.requirements.find((r) => r.id === id)!.status = to;
};

const ROWS: Array<{ description: string; edit: (report: Report) => void; problems: string[] }> = [
  { description: 'the genuine report', edit: () => {}, problems: [] },
  {
    description: 'a failed SHOULD turned passed, counts left',
    edit: (r) => status(r, 'B', 'passed'),
    problems: ['summary.passed says 1, the requirements give 2', 'summary.warned says 1, the requirements give 0'],
  },
  {
    description: 'a passed MUST turned failed, counts recomputed, verdict left conformant',
    edit: (r) => (status(r, 'A', 'failed'), recount(r)),
    problems: ['verdict says conformant, the requirements give not-conformant (1 MUST failed)'],
  },
  {
    description: 'verdict alone flipped',
    edit: (r) => (r.verdict = 'not-conformant'),
    problems: ['verdict says not-conformant, the requirements give conformant (0 MUST failed)'],
  },
  {
    description: 'a skipped requirement claimed judged',
    edit: (r) => (r.coverage = { ...r.coverage, judged: 4, notJudged: ['D'] }),
    problems: [
      'coverage.judged says 4, the requirements give 3 (passed, failed or not applicable)',
      'C is skipped, but coverage.notJudged does not name it',
    ],
  },
  {
    description: 'a total that is not the listed and left-out requirements',
    edit: (r) => (r.coverage = { ...r.coverage, total: 4 }),
    problems: ['coverage.total says 4, the requirements give 5 (4 listed, 1 left out)'],
  },
  // What the report alone cannot show: a left-out requirement removed from notJudged and the total
  // alike (only the catalog knows it existed). A signature shows that edit; consistency cannot.
  {
    description: 'a left-out requirement removed from notJudged and total alike',
    edit: (r) => (r.coverage = { ...r.coverage, total: 4, notJudged: ['C'] }),
    problems: [],
  },
  {
    description: 'a judged requirement named not judged',
    edit: (r) => r.coverage.notJudged.push('A'),
    problems: ['A is passed, but coverage.notJudged names it'],
  },
  {
    description: 'an id named twice in notJudged',
    edit: (r) => r.coverage.notJudged.push('D'),
    problems: ['coverage.notJudged names D more than once'],
  },
  {
    description: 'a requirement listed twice',
    edit: (r) => (r.requirements.push({ ...r.requirements[0]! }), recount(r)),
    problems: ['requirements list A more than once'],
  },
  {
    description: 'reasons on a conformant verdict',
    edit: (r) => (r.reasons = ['x']),
    problems: ['verdict says conformant, but reasons are given (they belong to an inconclusive verdict only)'],
  },
  {
    description: 'inconclusive without reasons',
    edit: (r) => (r.verdict = 'inconclusive'),
    problems: ['verdict says inconclusive, but no reasons say why'],
  },
  {
    description: 'inconclusive with reasons',
    edit: (r) => ((r.verdict = 'inconclusive'), (r.reasons = ['the run had to stop'])),
    problems: [],
  },
  {
    description: '--strict dropped to pass a failed SHOULD, certification left',
    edit: (r) => ((r.strict = false), (r.certification = { profile: 'v1.1', catalogs: [], options: { strict: true } })),
    problems: ['strict says false, certification.options.strict says true'],
  },
  {
    description: 'a status that is none',
    edit: (r) => status(r, 'A', 'ok' as 'passed'),
    problems: ['A\'s status is "ok", not passed, failed or skipped'],
  },
  {
    description: 'no summary',
    edit: (r) => delete (r as Partial<Report>).summary,
    problems: ['summary is missing or not four counts (passed, failed, warned, skipped)'],
  },
  {
    description: 'no requirements',
    edit: (r) => delete (r as Partial<Report>).requirements,
    problems: ['requirements is missing or not a list'],
  },
];

describe('inconsistencies', () => {
  it('the genuine report is conformant, partial, with one of each status', () => {
    expect(genuine()).toMatchObject({
      verdict: 'conformant',
      summary: { passed: 1, failed: 0, warned: 1, skipped: 2 },
      coverage: { judged: 3, total: 5, notJudged: ['C', 'D'] },
    });
  });

  for (const row of ROWS) {
    it(`${row.description}: ${row.problems.length === 0 ? 'consistent' : row.problems.join('; ')}`, () => {
      const report = structuredClone(genuine());
      row.edit(report);
      expect(inconsistencies(report)).toEqual(row.problems);
    });
  }

  it('follows --strict and --require-all as the run decided them', () => {
    expect(genuine({ strict: true })).toMatchObject({ verdict: 'not-conformant' });
    expect(inconsistencies(genuine({ strict: true }))).toEqual([]);
    const flipped = { ...genuine({ strict: true }), verdict: 'conformant' as const };
    expect(inconsistencies(flipped)).toEqual([
      'verdict says conformant, the requirements give not-conformant (0 MUST failed, 1 SHOULD failed under --strict)',
    ]);
    const requireAll = genuine({ requireAll: true });
    expect(requireAll.verdict).toBe('inconclusive');
    expect(inconsistencies(requireAll)).toEqual([]);
    const { reasons: _reasons, ...withoutReasons } = requireAll;
    const passed = { ...withoutReasons, verdict: 'conformant' as const };
    expect(inconsistencies(passed)).toEqual([
      'verdict says conformant, the requirements give inconclusive (0 MUST failed, and --require-all with 3 of 5 judged)',
    ]);
  });
});
