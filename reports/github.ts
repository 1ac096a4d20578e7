// The GitHub Actions forms of a report: a job summary (Markdown for the file GITHUB_STEP_SUMMARY
// names) and error annotations (workflow commands the runner reads from the step's output).
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { plural } from '../common/plural.js';
import { visible } from '../common/visible.js';
import type { Reporter, RunEnd } from '../core/reporter.js';
import type { Report, RequirementReport } from '../core/report.js';
import { isFailure, isMayNotHeld, isPartial, partialText, verdictText } from '../core/verdict.js';
import { decidedText, firstMessage, hasSeed, judged, type ConsoleOut } from './console.js';

/** The job summary and annotations; annotations go to stderr under --format json (the runner reads them there too). */
export class GitHubActionsReporter implements Reporter {
  constructor(
    private readonly out: ConsoleOut,
    private readonly where: { env: Record<string, string | undefined>; cwd: string },
    private readonly command: string,
  ) {}

  onRunEnd({ report }: RunEnd): void {
    const { env, cwd } = this.where;
    if (env.GITHUB_ACTIONS !== 'true') return;
    if (env.GITHUB_STEP_SUMMARY) {
      try {
        appendFileSync(resolve(cwd, env.GITHUB_STEP_SUMMARY), githubJobSummary(report, this.command));
      } catch (error) {
        this.out.stderr(
          `svc-conformance ${this.command}: could not append the job summary to GITHUB_STEP_SUMMARY: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`,
        );
      }
    }
    for (const line of githubAnnotations(report)) this.out.stdout(line + '\n');
  }
}

/** Longest message shown in one annotation or summary row; report.json keeps the whole of it. */
const MAX_MESSAGE = 500;

/** A workflow command's message (its "data"), escaped as GitHub's toolkit does: %, CR and LF. */
export function escapeCommandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value (title=…): the data escapes, and ':' and ',' that would end it. */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::name key=value,…::message`, every part escaped, on one line. */
export function workflowCommand(name: 'error' | 'warning' | 'notice', properties: Record<string, string>, message: string): string {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeCommandProperty(value)}`)
    .join(',');
  return `::${name}${props === '' ? '' : ` ${props}`}::${escapeCommandData(message)}`;
}

/** Report text made inert in GitHub Markdown: one line, control characters escaped, markup characters backslashed. */
export function markdownText(text: string): string {
  return visible(shortened(text)).replace(/[\\`*_[\]<>&|~$]/g, '\\$&');
}

function shortened(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}

/** The requirements whose failure fails the job: every MUST, and with --strict every SHOULD. */
function failing(report: Report): RequirementReport[] {
  return report.requirements.filter((r) => r.status === 'failed' && (r.level === 'MUST' || (r.level === 'SHOULD' && report.strict)));
}

/** One `::error` per failing requirement, and one for an inconclusive run's reason. GitHub shows only a step's
 * first few; the job summary lists them all. */
export function githubAnnotations(report: Report): string[] {
  const lines = failing(report).map((r) =>
    workflowCommand('error', { title: r.id }, `${r.level}: ${visible(shortened(firstMessage(r)))}${decidedText(r)}`),
  );
  if (report.verdict === 'inconclusive') {
    const more = (report.reasons?.length ?? 0) - 1;
    lines.push(
      workflowCommand(
        'error',
        { title: 'svc-conformance: inconclusive' },
        visible(shortened(verdictText(report))) + (more > 0 ? ` (and ${plural(more, 'more reason')}: see the job summary)` : ''),
      ),
    );
  }
  return lines;
}

/** The job summary of one command, its verdict in verdictText's words. */
export function githubJobSummary(report: Report, command: string): string {
  const { summary, coverage } = report;
  const lines = [
    `### svc-conformance ${markdownText(command)}`,
    '',
    `**Verdict: ${markdownText(verdictText(report))}**`,
    '',
    `Judged: ${markdownText(judged(report))}${hasSeed(report) ? ` · seed ${report.seed}` : ''}`,
    '',
    '| Passed | MUST failed | SHOULD warned | Skipped |',
    '| ---: | ---: | ---: | ---: |',
    `| ${summary.passed} | ${summary.failed} | ${summary.warned} | ${summary.skipped} |`,
    '',
    `Coverage: ${isPartial(coverage) ? partialText(coverage) : `all ${plural(coverage.total, 'requirement')} judged`}`,
  ];
  if (report.reasons?.length) lines.push('', '#### Could not judge', '', ...report.reasons.map((reason) => `- ${markdownText(reason)}`));
  if (report.hints?.length) lines.push('', ...report.hints.map((hint) => `> ${markdownText(hint)}`));
  // A MAY that does not hold fails nothing: listed apart, as information, never among the failed.
  const failed = report.requirements.filter(isFailure);
  if (failed.length > 0) {
    lines.push('', '#### Failed requirements', '', '| Requirement | Level | What failed |', '| --- | --- | --- |');
    for (const r of failed)
      lines.push(`| ${markdownText(r.id)} | ${r.level} | ${markdownText(firstMessage(r))}${markdownText(decidedText(r))} |`);
  }
  const notHeld = report.requirements.filter(isMayNotHeld);
  if (notHeld.length > 0) {
    lines.push('', '#### Information: MAY not held (never fails the run)', '');
    for (const r of notHeld) lines.push(`- ${markdownText(r.id)}: ${markdownText(firstMessage(r))}`);
  }
  return lines.join('\n') + '\n\n';
}
