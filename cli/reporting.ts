// How a judging command (run, verify-client, verify-receiver) reports: the options they share,
// declared once, its report folder and signing key, and the reporters the verdict is fed to.
import { relative, resolve } from 'node:path';
import { endRun, type Reporter } from '../core/reporter.js';
import type { Report } from '../core/report.js';
import { exitCodeOf, type BuildInput } from '../core/verdict.js';
import { judgementReport } from '../clients/judge.js';
import { SummaryReporter } from '../reports/console.js';
import { reportFolder, sealedFor } from '../reports/folder.js';
import { GitHubActionsReporter } from '../reports/github.js';
import { summaryJson } from '../reports/json-summary.js';
import { certification } from '../reports/seal.js';
import { readSigningKey, type ReportSigner } from '../reports/signature.js';
import { prepareReportDir, removeReports } from '../reports/write.js';
import { interruptsOf } from './interrupt.js';
import type { Io } from './io.js';
import { oneOf, type ParsedOptions } from './options.js';

type JudgingCommand = 'run' | 'verify-client' | 'verify-receiver' | 'judge' | 'proxy';

/** Where a command's reports go without --report-dir: a folder of its own, so one never overwrites another's. */
function defaultReportDir(command: JudgingCommand): string {
  return `svc-reports/${{ run: 'run', 'verify-client': 'client', 'verify-receiver': 'receiver', judge: 'traffic', proxy: 'proxy' }[command]}`;
}

/** The options every judging command takes, the same for each. */
export function reportOptions(command: JudgingCommand) {
  return [
    { name: 'report-dir', value: 'D', description: `where the reports go (default: ${defaultReportDir(command)})` },
    {
      name: 'format',
      value: 'text|json',
      description: 'json: print the summary as one JSON object on stdout, and progress on stderr (default text)',
    },
    { name: 'strict', description: 'a failed SHOULD fails the run too' },
    {
      name: 'require-all',
      description: 'a verdict that judged only part of the requirements (partial) is inconclusive (exit 2), not conformant',
    },
    {
      name: 'sign-key',
      value: 'FILE',
      description:
        'sign report.json with this Ed25519 private key (PKCS#8 PEM), writing report.json.sig beside it (verify-report --public-key checks it)',
    },
  ] as const;
}

type ReportOptions = ParsedOptions<ReturnType<typeof reportOptions>>;

/** What a judgement without seed or property cases (verify-client, verify-receiver) is reported with. */
type Judgement = Pick<BuildInput, 'results' | 'catalog' | 'target' | 'startedAt' | 'rerunCommand' | 'notes'> & {
  catalogs: string[];
  options: Record<string, unknown>;
};

export class Reporting {
  /** The console: with --format json its stdout is stderr, and stdout gets the summary object alone. */
  readonly io: Io;
  readonly reportDir: string;
  private readonly json: boolean;
  private key: ReportSigner | undefined;

  /** Checks --format at once: a usage error before anything else is done. */
  constructor(
    private readonly command: JudgingCommand,
    readonly options: ReportOptions,
    private readonly given: Io,
  ) {
    this.json = oneOf(command, 'format', options.format ?? 'text', ['text', 'json']) === 'json';
    this.io = this.json ? { ...given, stdout: given.stderr } : given;
    this.reportDir = resolve(given.cwd, options['report-dir'] ?? defaultReportDir(command));
  }

  /** Checks the report folder and --sign-key before anything is sent (exit 2 now, not 70 after the run),
   * and removes an earlier run's reports. */
  async prepare(): Promise<void> {
    await usableReportDir(this.reportDir, this.io);
    const keyFile = this.options['sign-key'];
    // A key that cannot sign is exit 2 (main), naming the problem, never the key.
    if (keyFile !== undefined) this.key = await readSigningKey(resolve(this.io.cwd, keyFile), keyFile);
  }

  /** How a reporter's file that could not be written is said: one line on stderr; the verdict stands. */
  failure(what: string): (error: unknown) => void {
    return (error) =>
      this.io.stderr(
        `svc-conformance ${this.command}: could not write ${what}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`,
      );
  }

  /** The certification block: what judged, by which catalogs, with which options, and the key that signs. */
  certification(catalogs: string[], options: Record<string, unknown>, config?: unknown): NonNullable<Report['certification']> {
    return certification({
      catalogs,
      options,
      ...(config !== undefined ? { config } : {}),
      ...(this.key !== undefined ? { signedBy: this.key.signedBy } : {}),
    });
  }

  /** The report of a judgement that has no seed or property cases, and the command that judges it again. */
  judgement({ catalogs, options, ...rest }: Judgement): Report {
    return {
      ...judgementReport({ ...rest, strict: this.options.strict, requireAll: this.options['require-all'] }, Date.now()),
      certification: this.certification(catalogs, { strict: this.options.strict, requireAll: this.options['require-all'], ...options }),
    };
  }

  /** Feeds the report to every form in order and returns the exit status; once interrupted, tells nothing. */
  async end(report: Report, more: readonly Reporter[] = []): Promise<0 | 1 | 2> {
    const { signal } = interruptsOf(this.io);
    const command = this.command;
    const summary = this.json
      ? new SummaryReporter({ stdout: this.given.stdout, stderr: this.io.stderr }, command, summaryJson)
      : new SummaryReporter(this.io, command);
    const reporters = [
      ...reportFolder(this.reportDir, this.key, this.failure(`the reports to ${this.reportDir}`)),
      ...more,
      summary,
      new GitHubActionsReporter(this.io, this.io, command),
    ];
    await endRun(reporters, sealedFor(report, this.key), signal);
    return signal.aborted ? 2 : exitCodeOf(report);
  }
}

/** Makes the report folder usable and removes an earlier run's reports; an interrupt removes what a racing write left. */
async function usableReportDir(dir: string, io: Io): Promise<void> {
  await prepareReportDir(dir);
  const removed = await removeReports(dir);
  const fromCwd = relative(io.cwd, dir);
  const shown = fromCwd === '' ? '.' : fromCwd.startsWith('..') ? dir : fromCwd;
  const done = removed.length > 0 ? `removed the previous reports in ${shown}` : `left no reports in ${shown}`;
  interruptsOf(io).hold({ done, failed: `could not remove the reports in ${shown}` }, () => removeReports(dir));
}
