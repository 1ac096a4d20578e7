import { relative, resolve } from 'node:path';
import { readPackageJson } from '../../common/package-root.js';
import { plural } from '../../common/plural.js';
import { HarReporter } from '../../reports/har.js';
import { ProgressReporter } from '../../reports/progress.js';
import { checkTargetEnv, isProduction, type TargetConfig } from '../../suites/config.js';
import { fasterClockSaid } from '../../suites/embedded.js';
import { preflight } from '../../suites/preflight.js';
import { redactor } from '../../suites/redact.js';
import { ConformanceRun, type ReportFields } from '../../suites/run.js';
import { RUN_NUMBERS, type RunInput } from '../../suites/settings.js';
import { configFileOf } from '../config-file.js';
import { embeddedSandboxAgain } from '../embedded-again.js';
import { interruptsOf } from '../interrupt.js';
import { usableOutputFile, UsageError } from '../io.js';
import { defineCommand, type ParsedOptions, wholeNumber } from '../options.js';
import { Reporting, reportOptions } from '../reporting.js';

export const runCommand = defineCommand({
  name: 'run',
  summary: 'Runs the conformance suites against a target and writes report.json, junit.xml and report.html.',
  usage:
    'svc-conformance run [--config F] [--report-dir D] [--seed N] [--runs N] [--strict] [--require-all] [--only PREFIX[,PREFIX…]]… [--skip PREFIX[,PREFIX…]]… [--concurrency N] [--timeout S] [--max-time S] [--har FILE] [--sign-key FILE]',
  options: [
    {
      name: 'config',
      value: 'F',
      description: 'P-CFG config file (default: ./svc-conformance.json if there is one); SVC_* environment variables override it',
    },
    ...reportOptions('run'),
    { name: 'seed', value: 'N', description: 'seed of every generated request (default: random, printed)' },
    { name: 'runs', value: 'N', description: `cases per property check (default ${RUN_NUMBERS.runs.default})` },
    {
      name: 'har',
      value: 'FILE',
      description: 'also write every exchange of the run to FILE as HAR 1.2 (redacted), for dev tools and proxies',
    },
    {
      name: 'only',
      value: 'PREFIX',
      multiple: true,
      description: 'only requirements (or checks) whose id starts with PREFIX, e.g. AUTH- or DUP-CONCURRENT; repeat it, or comma-separate',
    },
    {
      name: 'skip',
      value: 'PREFIX',
      multiple: true,
      description: 'leave out requirements (or checks) whose id starts with PREFIX, e.g. HOOK-; repeat it, or comma-separate',
    },
    {
      name: 'replay-path',
      value: 'PATH',
      description:
        "with --seed and --only: replay exactly the shrunk counterexample of a property (fast-check's path, as the report gives it)",
    },
    {
      name: 'allow-checks',
      description:
        'run the team check modules ("checks") of a ./svc-conformance.json found, not named with --config: they are code, run with your environment',
    },
    {
      name: 'allow-drivers',
      description:
        'run the drivers (shell commands) of a ./svc-conformance.json found, not named with --config: they run with your environment',
    },
    { name: 'allow-production', description: 'let checks that create records run against production (P-ENV-3)' },
    {
      name: 'concurrency',
      value: 'N',
      description: `requests in flight at most (default the config's profile.concurrency, else ${RUN_NUMBERS.concurrency.default}); 1 runs the checks one at a time, in order`,
    },
    { name: 'timeout', value: 'SECONDS', description: `per-request timeout (default ${RUN_NUMBERS.timeoutSeconds.default})` },
    {
      name: 'max-time',
      value: 'SECONDS',
      description: `time budget of the whole run (default ${RUN_NUMBERS.maxTimeSeconds.default}); nothing is sent after it`,
    },
  ],
  details: [
    'With no --config and no SVC_* variable it starts the embedded reference sandbox on a free loopback port and certifies that, saying so in the verdict and the reports.',
    "P-CFG's variables override the config file's keys: SVC_BASE_URL, SVC_ENVIRONMENT, SVC_API_KEY, SVC_SECRET_KEY, SVC_WALLET_ID (merchant), SVC_OTHER_API_KEY, SVC_OTHER_SECRET_KEY, SVC_OTHER_WALLET_ID (otherMerchant), SVC_OTHER_ENV_API_KEY, SVC_OTHER_ENV_SECRET_KEY, SVC_OTHER_ENV_WALLET_ID (otherEnvironment).",
    'An SVC_* variable set but empty (a CI secret that did not reach the job), or one without a base URL, is exit 2: never a silent certification of the embedded sandbox.',
    'The run stops (exit 2, one line naming the cause, reports written) when its --max-time is spent, after 3 answers in a row that came near the --timeout or not at all, or when one request is answered 429 (rate limited) four times in a row, its three retries included.',
    "Checks run side by side, at most --concurrency requests in flight; the checks that compare the wallet's balance run one after another (those that only make payouts together, after them), and the concurrent-duplicate race runs with nothing else in flight. A seed gives the same requests and the same report at any concurrency.",
    'A team\'s own checks, listed under "checks" in the config, run after the kit\'s and appear in every report; `svc-conformance list` shows every requirement and check.',
    "A team's check modules are code run with your environment (secrets included): each is named as it loads, and those of a ./svc-conformance.json found rather than named with --config run only with --allow-checks.",
    "An exception in a check's own code is not the target's fault: shown apart (! kit error, or ! team check … in its module), the requirement is not judged, and the run exits 2.",
    'With --sign-key KEY.pem (an Ed25519 private key, PKCS#8 PEM: `openssl genpkey -algorithm ed25519 -out key.pem`) report.json names the key and report.json.sig beside it is its signature; `svc-conformance verify-report DIR --public-key pub.pem` (or openssl) checks it.',
    'A run that judged only part of the catalog (--only, --skip, or a config key missing) is "conformant, partial: N of M requirements judged"; --require-all makes it inconclusive.',
    "Ctrl-C or SIGTERM (exit 130), a closed terminal (SIGHUP, 129) or a closed output pipe (141): one line saying what was cleaned up (the webhook registration the run replaced put back, its receiver and the embedded sandbox closed). The kit's previous reports in the report folder (recognised by their content; files of other tools are left alone) are removed when the command starts: one that ends without its own leaves none that verify.",
    'Exit status: 0 conformant (no MUST failed; with --strict, no SHOULD either), 1 not conformant, 2 bad usage or config, or inconclusive: the run could not judge the target (unreachable, it had to stop, its webhook receiver could not listen, no correctly signed request taken (the keys or the base URL, named), a kit error inside a check), said in every report.',
  ],
  examples: [
    'svc-conformance run',
    'svc-conformance run --config staging.json --strict --report-dir out',
    'SVC_BASE_URL=https://sbx.example.test SVC_API_KEY=… SVC_SECRET_KEY=… SVC_WALLET_ID=… svc-conformance run',
  ],
  async run(options, io) {
    const reporting = new Reporting('run', options, io);
    const out = reporting.io;
    const given = runInputOf(options);
    const configFile = configFileOf('run', options, out);
    checkTargetEnv(out.env, configFile);
    await reporting.prepare();
    const harFile = options.har !== undefined ? resolve(out.cwd, options.har) : undefined;
    if (harFile !== undefined) await usableOutputFile('run', 'har', { path: harFile, shown: harFile, example: 'run.har' });
    const startedAt = new Date();
    const interrupts = interruptsOf(out);
    const run = await ConformanceRun.open({
      target: { configFile, env: out.env, cwd: out.cwd },
      teamChecks: {
        cwd: out.cwd,
        say: (line) => out.stdout(`svc-conformance run: ${line}\n`),
        // Found in the working directory, not named: the code it lists ("checks") does not run unasked.
        ...(configFile !== undefined && options.config === undefined ? { discoveredConfig: configFile } : {}),
        allowChecks: options['allow-checks'],
        allowDrivers: options['allow-drivers'],
      },
      ...given,
      startedAt: startedAt.getTime(),
      maxTimeName: '--max-time',
      hold: (what, undo) => interrupts.hold(what, undo),
      interrupted: interrupts.signal,
    });
    try {
      const fields = await reportFieldsOf(run, reporting, { options, configFile, startedAt });
      const har = harFile !== undefined ? new HarReporter(harFile, reporting.failure(`--har ${harFile}`)) : undefined;
      return await judge(run, reporting, fields, har);
    } finally {
      await run.close();
    }
  },
});

type RunOptions = ParsedOptions<(typeof runCommand)['options']>;

/** Judges the target and feeds the verdict to the reporters; an unreachable one gets an inconclusive report, never a pass. */
async function judge(run: ConformanceRun, reporting: Reporting, fields: ReportFields, har: HarReporter | undefined): Promise<number> {
  const { config, settings } = run;
  const out = reporting.io;
  const unreachable = await preflight(config.baseUrl, settings.timeoutMs);
  if (unreachable !== undefined)
    return reporting.end(run.report([], { ...fields, couldNotJudge: [`the target could not be reached: ${unreachable}`] }));
  if (isProduction(config) && !settings.allowProduction) {
    out.stdout('Target is production: checks that create records are skipped (P-ENV-3); --allow-production runs them.\n');
  }
  const { only, skip, concurrency } = settings;
  out.stdout(
    `svc-conformance run: ${redactor(config)(config.baseUrl)} (${config.environment}), seed ${settings.seed}, ${plural(settings.runs, 'case')} per property, ${concurrency === 1 ? 'one request at a time' : `up to ${concurrency} requests in flight`}${only ? `, only ${only.join(',')}` : ''}${skip ? `, skipping ${skip.join(',')}` : ''}${run.teamCheckCount > 0 ? `, ${run.teamCheckCount} team checks` : ''}\n`,
  );
  const levels = new Map(run.requirements.map((r) => [r.id, r.level]));
  const progress = new ProgressReporter(
    (line) => out.stdout(line + '\n'),
    (id) => levels.get(id),
  );
  const results = await run.run(har !== undefined ? [progress, har] : [progress]);
  if (results.length === 0 && (only !== undefined || skip !== undefined)) {
    const chosen = [only ? `--only ${only.join(',')}` : '', skip ? `--skip ${skip.join(',')}` : ''].filter(Boolean).join(' with ');
    throw new UsageError(
      `run: ${chosen} leaves no requirement or check to run (ids look like AUTH-MISSING-KEY, DUP-; svc-conformance list shows them)`,
    );
  }
  return reporting.end(run.report(results, fields), har !== undefined ? [har] : []);
}

/** What the reports say besides results: the options, and for sign-off what judged against which configuration. */
async function reportFieldsOf(
  run: ConformanceRun,
  reporting: Reporting,
  { options, configFile, startedAt }: { options: RunOptions; configFile: string | undefined; startedAt: Date },
): Promise<ReportFields> {
  const { config, sandbox, settings } = run;
  const out = reporting.io;
  let configPath = configFile;
  let sandboxCommand: string | undefined;
  if (sandbox !== undefined) {
    const again = await embeddedSandboxAgain(out, 'run', reporting.reportDir, { baseUrl: sandbox.baseUrl, config });
    configPath = again.configPath;
    sandboxCommand = again.command;
    out.stdout(
      `No target given (no --config, no ./svc-conformance.json, no SVC_* variable): certifying the kit's own embedded reference sandbox at ${sandbox.baseUrl}, not a deployment${fasterClockSaid(settings.clock)} (it stops with the run; \`${again.command}\` runs it again, standalone).\n`,
    );
  }
  const strict = options.strict;
  const requireAll = options['require-all'];
  const certification = reporting.certification(
    ['suites/catalog.json'],
    {
      seed: settings.seed,
      runs: settings.runs,
      strict,
      requireAll,
      concurrency: settings.concurrency,
      only: settings.only ?? null,
      skip: settings.skip ?? null,
      allowProduction: settings.allowProduction,
      timeoutSeconds: settings.timeoutMs / 1000,
      maxTimeSeconds: settings.maxTimeSeconds,
      embeddedSandbox: sandbox !== undefined,
    },
    certifiedConfig(config, out.cwd),
  );
  return {
    strict,
    requireAll,
    startedAt,
    version: readPackageJson<{ version: string }>('package.json').version,
    ...(configPath !== undefined ? { configPath } : {}),
    ...(sandboxCommand !== undefined ? { sandboxCommand } : {}),
    certification,
  };
}

/** The config as the certification fingerprints it: redacted, team modules by their path from the working directory. */
function certifiedConfig(config: TargetConfig, cwd: string): unknown {
  const checks = config.checks ? { checks: config.checks.map((p) => relative(cwd, p)) } : {};
  return JSON.parse(redactor(config)(JSON.stringify({ ...config, ...checks })));
}

/** The run's settings given on the command line, each checked (suites/settings.ts fills the rest). */
function runInputOf(options: RunOptions): RunInput {
  const only = prefixList(options.only);
  const skip = prefixList(options.skip);
  return {
    ...readNumbers(options),
    allowProduction: options['allow-production'],
    ...(only !== undefined ? { only } : {}),
    ...(skip !== undefined ? { skip } : {}),
    ...(options['replay-path'] !== undefined ? { replayPath: replayPathOf(options['replay-path'], options) } : {}),
  };
}

/** --only or --skip as given: repeated, comma-separated, or both; undefined when absent or empty. */
function prefixList(given: string[]): string[] | undefined {
  const prefixes = given
    .flatMap((v) => v.split(','))
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return prefixes.length > 0 ? prefixes : undefined;
}

/** fast-check's replay path: numbers joined by ':' (e.g. "3:0:1"). Meaningful only for one seed and one property. */
function replayPathOf(path: string, options: RunOptions): string {
  if (!/^\d+(:\d+)*$/.test(path))
    throw new UsageError(
      `run: --replay-path ${JSON.stringify(path)} is not a fast-check path; copy it from the report, e.g. --replay-path 3:0:1`,
    );
  if (options.seed === undefined || prefixList(options.only)?.length !== 1)
    throw new UsageError(
      'run: --replay-path replays one shrunk case: give it with the --seed and --only of the failure, as the report shows',
    );
  return path;
}

/** The run's numbers given on the command line, each within its bounds (suites/settings.ts fills the rest). */
function readNumbers(options: RunOptions): RunInput {
  type Name = 'seed' | 'runs' | 'timeout' | 'max-time' | 'concurrency';
  const read = (name: Name, key: 'seed' | 'runs' | 'timeoutMs' | 'maxTimeSeconds' | 'concurrency', scale = 1) => {
    const bounds = RUN_NUMBERS[key === 'timeoutMs' ? 'timeoutSeconds' : key];
    const value = options[name];
    return value === undefined ? {} : { [key]: wholeNumber('run', name, value, bounds.min, bounds.max) * scale };
  };
  return {
    ...read('seed', 'seed'),
    ...read('runs', 'runs'),
    ...read('timeout', 'timeoutMs', 1000),
    ...read('max-time', 'maxTimeSeconds'),
    ...read('concurrency', 'concurrency'),
  };
}
