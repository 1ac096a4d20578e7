// `svc-conformance/vitest`: the conformance checks as vitest tests in a team's own project, under
// their `vitest run`, their reporters and their CI. One test per check, one describe per section;
// a failure carries expected and actual, so vitest shows them as a diff. `run` uses the same
// checks and the same executeCheck through the kit's own small runner (suites/runner.ts).
import { afterAll, describe, test } from 'vitest';
import { thrownIn, whoFixes } from '../core/check-error.js';
import type { Level } from '../core/report.js';
import { ConfigError, type TargetConfig } from './config.js';
import { executeCheck, newMeta } from './context.js';
import { selected } from './runner.js';
import { fasterClockSaid, openSession } from './session.js';

export interface ConformanceSuiteOptions {
  /** A P-CFG config file (relative to the working directory), or the config itself. None: the kit's embedded reference sandbox. */
  config?: string | TargetConfig;
  /** Seed of every generated request (default: random, shown in each test's name of the suite). */
  seed?: number;
  /** Cases per property check (default 20). */
  runs?: number;
  /** Only requirements (or checks) whose id starts with one of these. */
  only?: readonly string[];
  /** A failed SHOULD fails its test too (as run --strict); otherwise it is annotated and passes. */
  strict?: boolean;
  /** Let checks that create records run against production (P-ENV-3). */
  allowProduction?: boolean;
  /** Per-request timeout, ms (default 10,000). */
  timeoutMs?: number;
  /** The environment SVC_* variables are read from (default process.env). */
  env?: Record<string, string | undefined>;
}

/** A check's failure as vitest shows it: the message, and expected/actual for its diff. */
class ConformanceFailure extends Error {
  override readonly name = 'CheckFailure';
  readonly showDiff: boolean;
  constructor(
    message: string,
    readonly expected?: string,
    readonly actual?: string,
  ) {
    super(message);
    this.showDiff = expected !== undefined && actual !== undefined;
  }
}

/**
 * Registers the conformance suites in the calling test file: `await conformanceSuite({ config })`.
 * It loads the config (and the team's checks it lists) before registering, so it is awaited at the
 * top level of the file. Checks run in order in that file; keep it to one call per file.
 */
export async function conformanceSuite(options: ConformanceSuiteOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const session = await openSession({
    target: typeof options.config === 'object' ? { config: options.config } : { configFile: options.config, env, cwd: process.cwd() },
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.runs !== undefined ? { runs: options.runs } : {}),
    ...(options.only !== undefined ? { only: options.only } : {}),
    ...(options.allowProduction !== undefined ? { allowProduction: options.allowProduction } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  }).catch((error: unknown) => {
    throw error instanceof ConfigError ? new Error(`svc-conformance/vitest: ${error.message}`) : error;
  });
  const { settings, state, sandbox, config } = session;
  const seed = settings.seed;
  const levels = new Map<string, Level>(session.requirements.map((r) => [r.id, r.level]));
  afterAll(() => session.close());

  const target = sandbox !== undefined ? `the kit's embedded sandbox${fasterClockSaid(settings.clock)}` : config.baseUrl;
  describe(`svc-conformance against ${target} (seed ${seed})`, () => {
    const sections = session.sections;
    // A check's ids come from its place among all checks, as in `run` (see idSource).
    const scopes = new Map(sections.flatMap((s) => s.checks).map((check, i) => [check, i]));
    for (const section of sections) {
      const checks = section.checks.filter((check) => selected(settings, check));
      if (checks.length === 0) continue;
      describe(section.name, () => {
        for (const check of checks) {
          test(
            `${check.requirement} ${check.title}`,
            async ({ skip, annotate }) => {
              const meta = newMeta(check);
              const outcome = await executeCheck(check, state, meta, scopes.get(check));
              if (outcome === 'skipped') skip(meta.skipped);
              if (outcome === 'error') {
                const thrown = {
                  check: check.id,
                  requirement: check.requirement,
                  message: meta.error?.message ?? 'unknown',
                  ...(check.module !== undefined ? { module: check.module } : {}),
                };
                const error = new Error(
                  check.module !== undefined
                    ? `${thrownIn(thrown)}; ${whoFixes(thrown)}`
                    : `kit error (not the target's fault): ${meta.error?.message}`,
                );
                // Where it was thrown, under this message: vitest shows the stack, whose first line would
                // otherwise be the bare exception, blaming no one.
                if (meta.error?.stack !== undefined)
                  error.stack = [
                    `Error: ${error.message}`,
                    ...meta.error.stack.split('\n').filter((line) => line.startsWith('    at ')),
                  ].join('\n');
                throw error;
              }
              const level = levels.get(check.requirement) ?? 'MUST';
              const broken = [
                ...(meta.failure ? [{ level, ...meta.failure }] : []),
                // An answer that broke another requirement (an error envelope seen while checking auth).
                ...meta.findings.map((f) => ({
                  level: levels.get(f.requirement) ?? 'MUST',
                  message: `${f.requirement}: ${f.message}`,
                  expected: undefined,
                  actual: undefined,
                })),
              ];
              const fatal = broken.find((b) => b.level === 'MUST' || (b.level === 'SHOULD' && options.strict));
              for (const b of broken.filter((x) => x !== fatal)) await annotate(`${b.level} not held: ${b.message}`, 'notice');
              if (fatal !== undefined) throw new ConformanceFailure(fatal.message, fatal.expected, fatal.actual);
            },
            Math.max(60_000, settings.timeoutMs * 20),
          );
        }
      });
    }
  });
}
