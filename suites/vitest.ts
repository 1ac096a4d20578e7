// `svc-conformance/vitest`: the checks as vitest tests in a team's own project. The run is `run`'s
// (suites/run.ts), its verdict decided once; a first test fails when the run could not judge the target.
import { afterAll, describe, test } from 'vitest';
import { thrownIn, whoFixes } from '../core/check-error.js';
import { codeError as codeErrorOf } from '../core/requirement-report.js';
import type { CheckResult, Level, Report } from '../core/report.js';
import { verdictText } from '../core/verdict.js';
import { ConfigError, type TargetConfig } from './config.js';
import { fasterClockSaid } from './embedded.js';
import { ConformanceRun, selected } from './run.js';

export interface ConformanceSuiteOptions {
  /** A P-CFG config file (relative to the working directory), or the config itself. None: the kit's embedded reference sandbox. */
  config?: string | TargetConfig;
  /** Seed of every generated request (default: random, shown in each test's name of the suite). */
  seed?: number;
  /** Cases per property check (default RUN_NUMBERS.runs, suites/settings.ts: 20). */
  runs?: number;
  /** Only requirements (or checks) whose id starts with one of these. */
  only?: readonly string[];
  /** A failed SHOULD fails its test too (as run --strict); otherwise it is annotated and passes. */
  strict?: boolean;
  /** Let checks that create records run against production (P-ENV-3). */
  allowProduction?: boolean;
  /** Per-request timeout, ms (default DEFAULT_TIMEOUT_MS, suites/settings.ts: 10 s). */
  timeoutMs?: number;
  /** The environment SVC_* variables are read from (default process.env). */
  env?: Record<string, string | undefined>;
}

/** A check's failure as vitest shows it: the message, and expected/actual for its diff. */
class ConformanceFailure extends Error {
  override readonly name = 'CheckFailure';
  readonly code = 'SVC_CHECK_FAILED';
  readonly showDiff: boolean;
  constructor(
    readonly requirement: string,
    message: string,
    readonly expected?: string,
    readonly actual?: string,
  ) {
    super(message);
    this.showDiff = expected !== undefined && actual !== undefined;
  }
}

/** Registers the suites in the calling test file, once, at its top level: `await conformanceSuite({ config })`. */
export async function conformanceSuite(options: ConformanceSuiteOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const run = await ConformanceRun.open({
    target: typeof options.config === 'object' ? { config: options.config } : { configFile: options.config, env, cwd: process.cwd() },
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.runs !== undefined ? { runs: options.runs } : {}),
    ...(options.only !== undefined ? { only: options.only } : {}),
    ...(options.allowProduction !== undefined ? { allowProduction: options.allowProduction } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  }).catch((error: unknown) => {
    throw error instanceof ConfigError ? new Error(`svc-conformance/vitest: ${error.message}`) : error;
  });
  const { settings, sandbox, config } = run;
  const levels = new Map<string, Level>(run.requirements.map((r) => [r.id, r.level]));
  afterAll(() => run.close());
  // The run as `run` makes it, its verdict decided once (core/verdict.ts): each test then shows its check.
  let judged: Promise<{ report: Report; byCheck: Map<string, CheckResult> }> | undefined;
  const judge = () =>
    (judged ??= (async () => {
      const startedAt = new Date();
      const results = await run.run();
      const report = run.report(results, { strict: options.strict ?? false, startedAt, version: 'vitest' });
      return { report, byCheck: new Map(results.map((r) => [r.meta.check, r])) };
    })());

  const target = sandbox !== undefined ? `the kit's embedded sandbox${fasterClockSaid(settings.clock)}` : config.baseUrl;
  describe(`svc-conformance against ${target} (seed ${settings.seed})`, () => {
    // One test for the verdict's reasons: an inconclusive run fails it, naming why, and blames no check.
    test(
      'the run could judge the target',
      async () => {
        const { report } = await judge();
        if (report.verdict === 'inconclusive') throw new Error(`svc-conformance: ${verdictText(report)}`);
      },
      RUN_TIMEOUT_MS,
    );
    for (const section of run.sections) {
      const checks = section.checks.filter((check) => selected(settings, check));
      if (checks.length === 0) continue;
      describe(section.name, () => {
        for (const check of checks) {
          test(
            `${check.requirement} ${check.title}`,
            async ({ skip, annotate }) => {
              const { report, byCheck } = await judge();
              const result = byCheck.get(check.id);
              if (result === undefined || result.state === 'skipped') return skip(result?.meta.skipped ?? 'not run');
              if (result.state === 'error') throw codeError(result);
              // What an inconclusive run saw is no verdict about the target: said, never failed.
              if (report.verdict === 'inconclusive' && result.state === 'failed')
                return skip(`not judged: the run could not judge the target (${report.reasons?.[0] ?? 'see its first test'})`);
              await judgeResult(result, levels, options.strict ?? false, annotate);
            },
            RUN_TIMEOUT_MS,
          );
        }
      });
    }
  });
}

/** A whole run of the checks, awaited by the first test: remote targets take minutes. */
const RUN_TIMEOUT_MS = 30 * 60_000;

/** The exception a check's own code threw, blaming its module (a team's) or the kit. */
function codeError(result: CheckResult): Error {
  const { meta } = result;
  const thrown = codeErrorOf(result);
  const error = new Error(
    thrown.module !== undefined ? `${thrownIn(thrown)}; ${whoFixes(thrown)}` : `kit error (not the target's fault): ${meta.error?.message}`,
  );
  // Where it was thrown, under this message: vitest shows the stack, whose first line would otherwise
  // be the bare exception, blaming no one.
  if (meta.error?.stack !== undefined)
    error.stack = [`Error: ${error.message}`, ...meta.error.stack.split('\n').filter((line) => line.startsWith('    at '))].join('\n');
  return error;
}

/** A check's failure and findings: a MUST (or, strict, a SHOULD) fails its test; the rest are annotated. */
async function judgeResult(
  result: CheckResult,
  levels: ReadonlyMap<string, Level>,
  strict: boolean,
  annotate: (message: string, type: string) => Promise<unknown>,
): Promise<void> {
  const meta = result.meta;
  const level = levels.get(meta.requirement) ?? 'MUST';
  const broken = [
    ...(meta.failure ? [{ level, requirement: meta.requirement, ...meta.failure }] : []),
    // An answer that broke another requirement (an error envelope seen while checking auth).
    ...meta.findings.map((f) => ({
      level: levels.get(f.requirement) ?? 'MUST',
      requirement: f.requirement,
      message: `${f.requirement}: ${f.message}`,
      expected: undefined,
      actual: undefined,
    })),
  ];
  const fatal = broken.find((b) => b.level === 'MUST' || (b.level === 'SHOULD' && strict));
  for (const b of broken.filter((x) => x !== fatal)) await annotate(`${b.level} not held: ${b.message}`, 'notice');
  if (fatal !== undefined) throw new ConformanceFailure(fatal.requirement, fatal.message, fatal.expected, fatal.actual);
  // A check stopped by the runner (its time budget ran out) has no failure of its own.
  if (result.state === 'failed' && broken.length === 0)
    throw new ConformanceFailure(meta.requirement, 'the check did not finish within its time budget');
}
