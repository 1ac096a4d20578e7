import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Level, Report, RequirementReport } from '../core/report.js';
import { coverageOf, decideVerdict, summarize } from '../core/verdict.js';
import { escapeCommandData, escapeCommandProperty, githubAnnotations, githubJobSummary, markdownText, workflowCommand } from './github.js';

function requirement(id: string, level: Level, status: RequirementReport['status'], message?: string): RequirementReport {
  return {
    id,
    title: `title of ${id}`,
    level,
    section: 'Duplicates',
    profile: ['P-DUP-1'],
    extension: false,
    status,
    checks: [],
    evidence: message === undefined ? [] : [{ check: id.toLowerCase(), message, exchanges: [] }],
  };
}

/** A report whose counts, coverage and verdict come from core/verdict.ts, as a run's do. */
function report(
  requirements: RequirementReport[],
  options: { strict?: boolean; leftOut?: string[]; couldNotJudge?: string[] } = {},
): Report {
  const summary = summarize(requirements);
  const coverage = coverageOf(requirements, options.leftOut);
  const strict = options.strict ?? false;
  return {
    tool: { name: 'svc-conformance', version: '0.1.0' },
    target: { baseUrl: 'https://pay.example', environment: 'sandbox', embeddedSandbox: false },
    seed: 1234,
    runNumber: 1,
    runs: 1,
    strict,
    startedAt: '2025-11-21T06:40:12.345Z',
    durationMs: 5321,
    ...decideVerdict({ summary, coverage, strict, requireAll: false, wholeRun: options.couldNotJudge ?? [] }),
    coverage,
    summary,
    requirements,
  };
}

/** What the runner does with a property value: the escapes undone, %25 last. */
function unescapeProperty(text: string): string {
  return text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
}

describe('workflow-command escaping', () => {
  it.each([
    ['50% done', '50%25 done', '50%25 done'],
    ['a literal %0A stays text', 'a literal %250A stays text', 'a literal %250A stays text'],
    ['two\r\nlines', 'two%0D%0Alines', 'two%0D%0Alines'],
    ['DUP-CONCURRENT: a, b', 'DUP-CONCURRENT: a, b', 'DUP-CONCURRENT%3A a%2C b'],
    ['::error::forged', '::error::forged', '%3A%3Aerror%3A%3Aforged'],
  ])('%j is %j as a message and %j as a property', (text, data, property) => {
    expect(escapeCommandData(text)).toBe(data);
    expect(escapeCommandProperty(text)).toBe(property);
  });

  it('a property always reads back as it was, and never holds what ends it (":", ",", a line break)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('%', '0', 'A', 'D', '3', '2', 'C', ':', ',', '\r', '\n', 'x') }), (text) => {
        const escaped = escapeCommandProperty(text);
        expect(escaped).not.toMatch(/[:,\r\n]/);
        expect(unescapeProperty(escaped)).toBe(text);
      }),
    );
  });

  it('builds one line: ::name key=value,…::message', () => {
    expect(workflowCommand('error', { title: 'A:B', file: 'x,y' }, 'line\nbreak')).toBe('::error title=A%3AB,file=x%2Cy::line%0Abreak');
    expect(workflowCommand('notice', {}, 'plain')).toBe('::notice::plain');
  });
});

describe('githubAnnotations', () => {
  const requirements = [
    requirement('DUP-CONCURRENT', 'MUST', 'failed', 'two concurrent creates with one order_id both got 201\n::warning::injected 100%'),
    requirement('DUP-GLOBAL', 'SHOULD', 'failed', 'order ids are not global'),
    requirement('DUP-HINT', 'MAY', 'failed', 'no hint'),
    requirement('DUP-SEQUENTIAL', 'MUST', 'passed'),
  ];

  it('one ::error per failed MUST, titled with its id, its message on one line with nothing it could inject', () => {
    expect(githubAnnotations(report(requirements))).toEqual([
      '::error title=DUP-CONCURRENT::MUST: two concurrent creates with one order_id both got 201\\x0a::warning::injected 100%25',
    ]);
  });

  it('with --strict a failed SHOULD fails the job too, and is annotated', () => {
    expect(githubAnnotations(report(requirements, { strict: true })).map((line) => line.split('::')[1])).toEqual([
      'error title=DUP-CONCURRENT',
      'error title=DUP-GLOBAL',
    ]);
  });

  it('an inconclusive run: one ::error naming its reason, and how many more there are', () => {
    const r = report([requirement('DUP-SEQUENTIAL', 'MUST', 'passed')], {
      couldNotJudge: ['the target could not be reached: ECONNREFUSED', 'the run had to stop: --max-time 900'],
    });
    expect(githubAnnotations(r)).toEqual([
      '::error title=svc-conformance%3A inconclusive::inconclusive: the target could not be reached: ECONNREFUSED (and 1 more reason: see the job summary)',
    ]);
  });

  it('a conformant run has none', () => {
    expect(githubAnnotations(report([requirement('DUP-SEQUENTIAL', 'MUST', 'passed')]))).toEqual([]);
  });
});

describe('githubJobSummary', () => {
  it("a partial conformant run: the verdict in verdictText's words, the counts and the coverage", () => {
    const summary = githubJobSummary(
      report([requirement('DUP-SEQUENTIAL', 'MUST', 'passed'), requirement('DUP-GLOBAL', 'SHOULD', 'passed')], {
        leftOut: ['AUTH-MISSING-KEY', 'AUTH-REPLAY', 'ORDER-CREATE'],
      }),
      'run',
    );
    expect(summary).toBe(
      [
        '### svc-conformance run',
        '',
        '**Verdict: conformant, partial: 2 of 5 requirements judged**',
        '',
        'Judged: https://pay.example (sandbox) · seed 1234',
        '',
        '| Passed | MUST failed | SHOULD warned | Skipped |',
        '| ---: | ---: | ---: | ---: |',
        '| 2 | 0 | 0 | 0 |',
        '',
        'Coverage: partial: 2 of 5 requirements judged',
        '',
        '',
      ].join('\n'),
    );
  });

  it('a not conformant run lists every failed requirement with its level and message, the message inert', () => {
    const summary = githubJobSummary(
      report([
        requirement('DUP-CONCURRENT', 'MUST', 'failed', 'both got 201 | <img src=x> [link](https://evil.example) $x$ `code`'),
        requirement('DUP-GLOBAL', 'SHOULD', 'failed', 'order ids are not global'),
      ]),
      'run',
    );
    expect(summary).toContain('**Verdict: not conformant**');
    expect(summary).toContain('| 0 | 1 | 1 | 0 |');
    expect(summary).toContain('Coverage: all 2 requirements judged');
    expect(summary).toContain(
      '| Requirement | Level | What failed |\n| --- | --- | --- |\n' +
        '| DUP-CONCURRENT | MUST | both got 201 \\| \\<img src=x\\> \\[link\\](https://evil.example) \\$x\\$ \\`code\\` |\n' +
        '| DUP-GLOBAL | SHOULD | order ids are not global |\n',
    );
  });

  // Before: a MAY that did not hold was a row of "Failed requirements".
  it('lists a MAY that does not hold apart, as information, never among the failed requirements', () => {
    const summary = githubJobSummary(
      report([requirement('DUP-CONCURRENT', 'MUST', 'failed', 'both got 201'), requirement('DUP-HINT', 'MAY', 'failed', 'no hint')]),
      'run',
    );
    const failed = summary.slice(summary.indexOf('#### Failed requirements'), summary.indexOf('#### Information'));
    expect(failed).toContain('| DUP-CONCURRENT | MUST | both got 201 |');
    expect(failed).not.toContain('DUP-HINT');
    expect(summary).toContain('#### Information: MAY not held (never fails the run)\n\n- DUP-HINT: no hint\n');
    const mayOnly = githubJobSummary(report([requirement('DUP-HINT', 'MAY', 'failed', 'no hint')]), 'run');
    expect(mayOnly).toContain('**Verdict: conformant**');
    expect(mayOnly).not.toContain('#### Failed requirements');
  });

  it('says, beside a failure resting on a point the interface leaves open, which profile rule decides it', () => {
    const cancel = {
      ...requirement('OPS-CANCEL-AGAIN', 'MUST', 'failed', 'expected HTTP 422, got 409'),
      profileDecides: { rule: 'P-OPS-1', decision: 'cancelling a CANCELLED order answers 422' },
    };
    expect(githubJobSummary(report([cancel]), 'run')).toContain(
      '| OPS-CANCEL-AGAIN | MUST | expected HTTP 422, got 409 — the interface does not say; profile rule P-OPS-1 decides: cancelling a CANCELLED order answers 422 |',
    );
    expect(githubAnnotations(report([cancel]))).toEqual([
      '::error title=OPS-CANCEL-AGAIN::MUST: expected HTTP 422, got 409 — the interface does not say; profile rule P-OPS-1 decides: cancelling a CANCELLED order answers 422',
    ]);
  });

  it('an inconclusive run says every reason it could not judge', () => {
    const summary = githubJobSummary(
      report([], { couldNotJudge: ['the target could not be reached: ECONNREFUSED', 'the run had to stop: --max-time 900'] }),
      'verify-receiver',
    );
    expect(summary).toContain('**Verdict: inconclusive: the target could not be reached: ECONNREFUSED**');
    expect(summary).toContain(
      '#### Could not judge\n\n- the target could not be reached: ECONNREFUSED\n- the run had to stop: --max-time 900\n',
    );
  });
});

describe('markdownText', () => {
  it('keeps text on one line, control characters shown, markup characters escaped, long text shortened', () => {
    expect(markdownText('a\nb\u001b[31m')).toBe('a\\\\x0ab\\\\x1b\\[31m');
    expect(markdownText('x'.repeat(600))).toBe(`${'x'.repeat(499)}…`);
  });
});
