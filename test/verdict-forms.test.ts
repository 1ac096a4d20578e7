// One verdict, every form: the console, report.json's --format json summary, the HTML headline,
// JUnit and the GitHub job summary and annotations all say what core/verdict.ts decided, with its
// reason, for each kind of verdict. And the narrowed runs of the issue, end to end.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult, Report, Requirement } from '../core/report.js';
import { requirementOf, resultOf } from '../core/report-test-support.js';
import { buildReport, verdictText } from '../core/verdict.js';
import { summaryJson } from '../reports/json-summary.js';
import { summaryLines } from '../reports/console.js';
import { githubAnnotations, githubJobSummary, markdownText } from '../reports/github.js';
import { renderHtml } from '../reports/html.js';
import { renderJUnit } from '../reports/junit.js';
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import { runCli } from './cli-harness.js';

const requirement = (id: string, level: Requirement['level'] = 'MUST') => requirementOf(id, level, { profile: ['P-AUTH-2'] });
const CATALOG = [requirement('AUTH-A'), requirement('AUTH-B'), requirement('AUTH-C', 'SHOULD')];
const result = resultOf;

function report(results: CheckResult[], couldNotJudge?: string[]): Report {
  return buildReport({
    results,
    catalog: CATALOG,
    target: { baseUrl: 'https://pay.example', environment: 'sandbox', embeddedSandbox: false },
    seed: 1,
    runNumber: 1,
    runs: 1,
    strict: false,
    startedAt: new Date(0),
    durationMs: 10,
    version: 'test',
    ...(couldNotJudge ? { couldNotJudge } : {}),
  });
}

const CASES: Array<[string, Report, { headline: RegExp; html: string; junit: RegExp; reason?: string }]> = [
  [
    'conformant',
    report([result('AUTH-A', 'passed'), result('AUTH-B', 'passed'), result('AUTH-C', 'passed')]),
    { headline: /^✓ CONFORMANT {2}/, html: '<h1>Conformant</h1>', junit: /<testsuites [^>]*failures="0" errors="0"/ },
  ],
  [
    'conformant, partial',
    report([result('AUTH-A', 'passed'), result('AUTH-C', 'passed')]),
    {
      headline: /^✓ CONFORMANT, PARTIAL: 2 OF 3 REQUIREMENTS JUDGED {2}/,
      html: '<h1>Conformant <span class="partial">· partial: 2 of 3 requirements judged</span></h1>',
      junit: /<property name="partial" value="partial: 2 of 3 requirements judged"\/>/,
    },
  ],
  [
    'not conformant',
    report([result('AUTH-A', 'failed'), result('AUTH-B', 'passed'), result('AUTH-C', 'passed')]),
    { headline: /^✗ NOT CONFORMANT {2}/, html: '<h1>Not conformant</h1>', junit: /<testsuites [^>]*failures="1" errors="0"/ },
  ],
  [
    'inconclusive',
    report([], ['the target could not be reached: connection refused by pay.example']),
    {
      headline: /^\? INCONCLUSIVE \(could not judge\) {2}/,
      html: '<h1>Inconclusive</h1>',
      junit: /<testsuites [^>]*tests="1" failures="0" errors="1"/,
      reason: 'the target could not be reached: connection refused by pay.example',
    },
  ],
];

describe('every form says the one verdict and its reason', () => {
  it.each(CASES)('%s', (_name, r, expected) => {
    const text = verdictText(r);
    const lines = summaryLines(r, ['out/report.json']);
    expect(lines.find((l) => /CONFORMANT|INCONCLUSIVE/.test(l))).toMatch(expected.headline);
    const json = JSON.parse(summaryJson(r, []));
    expect(json).toMatchObject({ verdict: r.verdict, verdictText: text, coverage: r.coverage });
    const html = renderHtml(r);
    expect(html).toContain(expected.html);
    expect(html).toContain(
      `<title>${text.replace(/^./, (c) => c.toUpperCase()).replace(/'/g, '&#39;')}: https://pay.example · svc-conformance</title>`,
    );
    const junit = renderJUnit(r);
    expect(junit).toMatch(expected.junit);
    expect(junit).toContain(`<property name="verdict" value="${r.verdict}"/>`);
    expect(junit).toContain(`<property name="verdict.text" value="${text}"/>`);
    const summary = githubJobSummary(r, 'run');
    expect(summary).toContain(`**Verdict: ${markdownText(text)}**`);
    if (expected.reason !== undefined) {
      expect(r.reasons).toEqual([expected.reason]);
      expect(lines).toContain(`  ! could not judge: ${expected.reason}`);
      expect(json.reasons).toEqual([expected.reason]);
      expect(html).toContain(`The run could not judge the target: ${expected.reason}.`);
      expect(junit).toContain(`<error type="inconclusive" message="inconclusive: ${expected.reason}">`);
      expect(summary).toContain(expected.reason);
      expect(githubAnnotations(r).join('\n')).toContain(expected.reason);
    } else {
      expect(r.reasons).toBeUndefined();
      expect(junit).not.toContain('type="inconclusive"');
    }
  });
});

describe('a narrowed run never passes for a full certificate', () => {
  let sandbox: RunningSandbox;
  let config = '';
  beforeAll(async () => {
    // The race's window is widened from 5 ms so that the concurrent creates overlap on a loaded machine
    // too (the race is the fault's, not timing luck); every create waits it out, so not to 300 ms.
    sandbox = await startSandbox({ port: 0, faults: ['dup-race'], raceWindowMs: 100, settleSeconds: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'svc-narrowed-'));
    config = join(dir, 'target.json');
    const { webhooks: _, ...rest } = sandbox.config;
    // Real time: the revisit reads at once rather than 12 real seconds later (revisit.test.ts waits).
    writeFileSync(config, JSON.stringify({ ...rest, profile: { ...rest.profile, revisitAfterSeconds: 0 } }));
  });
  afterAll(() => sandbox.close());

  // One after another: each narrowed run's verdict is the point, not runs at once (independent-runs).
  it.each([
    [['--skip', 'DUP-CONCURRENT'], 0, /^✓ CONFORMANT, PARTIAL: \d+ OF \d+ REQUIREMENTS JUDGED/m, 'DUP-CONCURRENT'],
    [['--only', 'DUP-SEQUENTIAL'], 0, /^✓ CONFORMANT, PARTIAL: 1 OF \d+ REQUIREMENTS JUDGED/m, 'AUTH-ACCEPT'],
    [['--only', 'DUP-SEQUENTIAL', '--require-all'], 2, /^\? INCONCLUSIVE \(could not judge\)/m, 'AUTH-ACCEPT'],
    [['--only', 'DUP-'], 1, /^✗ NOT CONFORMANT/m, 'AUTH-ACCEPT'],
  ] as const)(
    'against a server with a duplicate race, run %j: exit %i',
    async (args, code, headline, notJudged) => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-narrowed-out-'));
      const run = await runCli(['run', '--config', config, '--runs', '2', '--report-dir', dir, ...args]);
      expect(run.code, run.stdout + run.stderr).toBe(code);
      expect(run.stdout).toMatch(headline);
      const written = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
      expect(written.coverage.judged).toBeLessThan(written.coverage.total);
      expect(written.coverage.notJudged).toContain(notJudged);
      if (code === 0) expect(run.stdout).toMatch(/not judged: (.*; )?\d+ left out of this run by --(only|skip) /);
      if (code === 2) expect(written.reasons).toEqual([expect.stringMatching(/^--require-all: only 1 of \d+ requirements were judged/)]);
    },
    60_000,
  );
});
