import { lstat, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { readPackageJson } from '../common/package-root.js';
import type { CheckResult, Report, Requirement } from '../core/report.js';
import { buildReport, exitCodeOf, verdictText } from '../core/verdict.js';
import { visible } from '../common/visible.js';
import { summaryLines } from '../reports/console.js';
import { certification, digestOf } from '../reports/seal.js';
import type { OptionSpec, ParsedOptions } from './options.js';
import { prepareReportDir, removeReports, ReportDirError, writeAtomically, writeReports } from '../reports/write.js';
import { shellQuote } from '../core/reproduce.js';
import type { TargetConfig } from '../suites/config.js';
import { redactor } from '../suites/redact.js';
import { KeyFileError, readSigningKey, type ReportSigner } from '../reports/signature.js';
import { interruptsOf } from './interrupt.js';
import { UsageError, type Io } from './io.js';
import { publishToGitHubActions } from './github-actions.js';

/** Where a command's reports go without --report-dir: a folder of its own, so one never overwrites another's. */
export function defaultReportDir(command: 'run' | 'verify-client' | 'verify-receiver'): string {
  return `svc-reports/${{ run: 'run', 'verify-client': 'client', 'verify-receiver': 'receiver' }[command]}`;
}

/**
 * The report folder must take the reports before anything is sent: exit 2 now, not exit 70 after
 * the run. An earlier run's reports are removed from it then: a run that ends without its own
 * (interrupted, killed, an error) must not leave the last verdict there, still verifying.
 */
export async function usableReportDir(command: string, dir: string, io: Io): Promise<void> {
  try {
    await prepareReportDir(dir);
  } catch (error) {
    if (error instanceof ReportDirError) throw new UsageError(`${command}: ${error.message}`);
    throw error;
  }
  const removed = await removeReports(dir);
  // Interrupted: also remove whatever reports a write racing the interrupt left.
  const fromCwd = relative(io.cwd, dir);
  const shown = fromCwd === '' ? '.' : fromCwd.startsWith('..') ? dir : fromCwd;
  const done = removed.length > 0 ? `removed the previous reports in ${shown}` : `left no reports in ${shown}`;
  interruptsOf(io).hold({ done, failed: `could not remove the reports in ${shown}` }, () => removeReports(dir));
}

/**
 * The embedded sandbox stops with the run, so reproduce lines cannot cite it as it was: the config
 * the run used goes into the report folder as sandbox.json, and the lines first start a sandbox on
 * the same port with `serve --config-out` that same file, which writes it again whole. Its secret
 * keys are the sandbox's public demo keys, but a report folder is uploaded and scanned like any
 * report, so they are written redacted: serve puts them back. Returns the path to cite, as given
 * from the working directory, and that command.
 */
export async function embeddedSandboxAgain(
  io: Io,
  command: string,
  dir: string,
  sandbox: { baseUrl: string; config: TargetConfig },
): Promise<{ configPath: string; command: string }> {
  const file = join(dir, 'sandbox.json');
  const configPath = relative(io.cwd, file) || file;
  // A sandbox.json the kit did not write (a --report-dir . holding the project's own) is refused, not
  // replaced, nor dodged by another name: the reproduce lines' `serve --config-out` would replace
  // whatever file they cite, and another folder is one option away.
  const notTheKits = await whyNotTheKits(file, sandbox.config);
  if (notTheKits !== undefined)
    throw new UsageError(
      `${command}: ${configPath} ${notTheKits}, and the run writes the embedded sandbox's config there for its reproduce lines; move it, or choose another folder with --report-dir`,
    );
  try {
    await writeAtomically(file, redactor(sandbox.config)(JSON.stringify(sandbox.config, null, 2)) + '\n');
  } catch (error) {
    io.stderr(
      `svc-conformance ${command}: could not write ${configPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; the serve line of each reproduce writes it\n`,
    );
  }
  return { configPath, command: `svc-conformance serve --port ${new URL(sandbox.baseUrl).port} --config-out ${shellQuote(configPath)}` };
}

/**
 * Why the file at `path` is not one the kit may replace with the sandbox's config; undefined when
 * it may: absent, or a config of the kit's sandbox (its demo merchant), written by a run or by serve.
 */
async function whyNotTheKits(path: string, config: TargetConfig): Promise<string | undefined> {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) return undefined;
  if (info.isDirectory()) return 'is a folder';
  if (!info.isFile()) return 'is not a plain file';
  // A sandbox config is a few kilobytes; anything far larger is not one.
  if (info.size > 1024 * 1024) return 'is not a config the kit wrote';
  try {
    const merchant = (JSON.parse(await readFile(path, 'utf8')) as { merchant?: { apiKey?: unknown; walletId?: unknown } } | null)?.merchant;
    if (merchant?.apiKey === config.merchant.apiKey && merchant?.walletId === config.merchant.walletId) return undefined;
  } catch {
    // Unreadable or not JSON: not the kit's.
  }
  return 'is not a config the kit wrote';
}

/**
 * Writes the reports; when that fails after all (a full disk, a folder removed during the run) the
 * verdict still reaches the console, with one line on stderr saying why there are no report files.
 */
export async function writeReportsOrSay(io: Io, command: string, report: Report, dir: string, signer?: ReportSigner): Promise<string[]> {
  // An interrupted command's verdict is not written: main() has already ended it with 130.
  if (interruptsOf(io).signal.aborted) return [];
  try {
    return await writeReports(report, dir, signer);
  } catch (error) {
    io.stderr(
      `svc-conformance ${command}: could not write the reports to ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`,
    );
    return [];
  }
}

/**
 * The report of a judgement that has no seed or property cases (verify-client, verify-receiver):
 * what was judged, by which catalog, started when, and the command that judges it again.
 */
export function judgementReport(input: {
  results: CheckResult[];
  catalog: Requirement[];
  target: Report['target'];
  strict: boolean;
  requireAll: boolean;
  startedAt: Date;
  rerunCommand: string;
  catalogs: string[];
  options: Record<string, unknown>;
  notes?: readonly string[];
  signer?: ReportSigner | undefined;
}): Report {
  const { catalogs, options, signer, ...rest } = input;
  return {
    ...buildReport({
      ...rest,
      seed: 0,
      runNumber: 0,
      runs: 0,
      durationMs: Date.now() - input.startedAt.getTime(),
      version: readPackageJson<{ version: string }>('package.json').version,
    }),
    certification: certification({
      catalogs,
      options: { strict: input.strict, requireAll: input.requireAll, ...options },
      ...(signer !== undefined ? { signedBy: signer.signedBy } : {}),
    }),
  };
}

/** --sign-key, the same for every command that judges. */
export const SIGN_KEY_OPTION = {
  name: 'sign-key',
  type: 'string',
  value: 'FILE',
  description:
    'sign report.json with this Ed25519 private key (PKCS#8 PEM), writing report.json.sig beside it (verify-report --public-key checks it)',
} as const satisfies OptionSpec;

/**
 * The --sign-key key, read and checked before anything is run: a key that cannot sign is exit 2 with
 * one line naming the problem and how to make a key, never the key itself. Undefined without the option.
 */
export async function signerOf(
  command: string,
  options: ParsedOptions<[typeof SIGN_KEY_OPTION]>,
  io: Io,
): Promise<ReportSigner | undefined> {
  const given = options['sign-key'];
  if (given === undefined) return undefined;
  try {
    return await readSigningKey(resolve(io.cwd, given), given);
  } catch (error) {
    if (error instanceof KeyFileError) throw new UsageError(`${command}: ${error.message}`);
    throw error;
  }
}

/**
 * Prints the summary (text or --format json) and returns the exit status: the one ending of every
 * command that judges. An inconclusive run also says why in one line on stderr, as a usage problem does.
 * In a GitHub Actions job it also writes the job summary and the annotations (cli/github-actions.ts);
 * `io` is the console Io, so with --format json those go to stderr and stdout keeps the JSON alone.
 */
export function finish(
  io: Io,
  print: (text: string) => void,
  json: boolean,
  command: string,
  report: Report,
  files: readonly string[],
): 0 | 1 | 2 {
  // Interrupted: main() has ended the command with 130; its verdict goes nowhere, the job summary included.
  if (interruptsOf(io).signal.aborted) return 2;
  if (json) print(summaryJson(report, files));
  else io.stdout(summaryLines(report, files).join('\n') + '\n');
  if (report.verdict === 'inconclusive') io.stderr(`svc-conformance ${command}: ${visible(verdictText(report))}\n`);
  publishToGitHubActions(io, command, report);
  return exitCodeOf(report);
}

/** --require-all, the same for every command that judges. */
export const REQUIRE_ALL_OPTION = {
  name: 'require-all',
  type: 'boolean',
  description: 'a verdict that judged only part of the requirements (partial) is inconclusive (exit 2), not conformant',
} as const satisfies OptionSpec;

/** --format: text (the console summary) or json (one JSON object on stdout; everything else on stderr). */
export const FORMAT_OPTION = {
  name: 'format',
  type: 'string',
  value: 'text|json',
  description: 'json: print the summary as one JSON object on stdout, and progress on stderr (default text)',
} as const satisfies OptionSpec;

/** The chosen format, and the Io the rest of the command writes its console lines to. */
export function formatOf(command: string, options: ParsedOptions<[typeof FORMAT_OPTION]>, io: Io): { json: boolean; console: Io } {
  const format = options.format ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`${command}: --format takes text or json, not ${JSON.stringify(format)}`);
  return format === 'json' ? { json: true, console: { ...io, stdout: io.stderr } } : { json: false, console: io };
}

/**
 * The summary as one JSON object: the verdict, the counts, each failed requirement (with the profile
 * rule that decides it, when the interface leaves it open), each MAY not held apart (information,
 * never a failure), the report files and the report's digest.
 */
export function summaryJson(report: Report, files: readonly string[]): string {
  const entry = (r: Report['requirements'][number]) => ({
    id: r.id,
    level: r.level,
    title: r.title,
    message: r.evidence[0]?.message ?? r.title,
    ...(r.profileDecides !== undefined ? { profileDecides: r.profileDecides } : {}),
  });
  const failed = report.requirements.filter((r) => r.status === 'failed' && r.level !== 'MAY').map(entry);
  const mayNotHeld = report.requirements.filter((r) => r.status === 'failed' && r.level === 'MAY').map(entry);
  return (
    JSON.stringify({
      tool: report.tool,
      verdict: report.verdict,
      verdictText: verdictText(report),
      ...(report.reasons !== undefined ? { reasons: report.reasons } : {}),
      coverage: report.coverage,
      target: report.target,
      ...(report.client ? { client: report.client } : {}),
      ...(report.receiver ? { receiver: report.receiver } : {}),
      ...(report.client || report.receiver ? {} : { seed: report.seed }),
      summary: report.summary,
      ...(report.notes !== undefined ? { notes: report.notes } : {}),
      failed,
      ...(mayNotHeld.length > 0 ? { mayNotHeld } : {}),
      reports: files,
      digest: digestOf(report),
    }) + '\n'
  );
}
