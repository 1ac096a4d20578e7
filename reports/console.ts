import { memo } from '../common/memo.js';
import { plural } from '../common/plural.js';
import { visible } from '../common/visible.js';
import { thrownIn, whoFixes } from '../core/check-error.js';
import type { Reporter, RunEnd } from '../core/reporter.js';
import type { Report, RequirementReport } from '../core/report.js';
import { isFailure, isMayNotHeld, isPartial, leftOutOf, partialText, verdictText } from '../core/verdict.js';
import { profileDecisionText, ruleReference } from './rule-text.js';

// The console's forms of a report: the summary after a run (SummaryReporter), and the words the
// other forms share with it (what was judged, the verdict's headline, why not all was judged).

/** Where a command's console lines go. */
export interface ConsoleOut {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The summary after a run on stdout (`render`: as text lines, or another form); an inconclusive run also says
 * why in one line on stderr, as a usage problem does. */
export class SummaryReporter implements Reporter {
  constructor(
    private readonly out: ConsoleOut,
    private readonly command: string,
    private readonly render = (report: Report, files: readonly string[]) => summaryLines(report, files).join('\n') + '\n',
  ) {}

  onRunEnd({ report, files }: RunEnd): void {
    this.out.stdout(this.render(report, files));
    if (report.verdict === 'inconclusive') this.out.stderr(`svc-conformance ${this.command}: ${visible(verdictText(report))}\n`);
  }
}

/** What the verdict is about, in words that cannot be mistaken for a deployment when it is not one. */
export function judged(report: Report): string {
  if (report.client)
    return `client \`${report.client.command}\` (${plural(report.client.requests, 'request')}${report.receiver ? `; its webhook receiver at ${report.receiver.url}, ${plural(report.receiver.deliveries, 'delivery', 'deliveries')}` : ''})`;
  if (report.receiver)
    return `the webhook receiver at ${report.receiver.url} (${plural(report.receiver.deliveries, 'delivery', 'deliveries')})`;
  if (report.target.embeddedSandbox) return `the kit's own embedded reference sandbox at ${report.target.baseUrl}, not a deployment`;
  return `${report.target.baseUrl} (${report.target.environment})`;
}

/** Whether the report judged a run of generated requests, which has a seed (a judgement of a client, a receiver or traffic has none). */
export function hasSeed(report: Report): boolean {
  return !report.client && !report.receiver && !report.sides;
}

/** What a requirement's first evidence says, or its title when it has none. */
export function firstMessage(r: RequirementReport): string {
  return r.evidence[0]?.message ?? r.title;
}

/** " — the interface does not say; profile rule P-… decides: …", when the requirement rests on a point the interface leaves open. */
export function decidedText(r: RequirementReport): string {
  return r.profileDecides !== undefined ? ` — ${profileDecisionText(r.profileDecides)}` : '';
}

/** The requirements by their interface section, in the order they come. */
export function bySection(requirements: readonly RequirementReport[]): Map<string, RequirementReport[]> {
  const sections = new Map<string, RequirementReport[]>();
  for (const r of requirements) sections.set(r.section, [...(sections.get(r.section) ?? []), r]);
  return sections;
}

/** A value as two-space JSON, or as text when it cannot be (a cycle, a BigInt). */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The verdict line's mark and words: the same verdict as every other form (core/verdict.ts decides it). */
function verdictHeadline(report: Report): string {
  if (report.verdict === 'inconclusive') return '? INCONCLUSIVE (could not judge)';
  if (report.verdict === 'not-conformant') return '✗ NOT CONFORMANT';
  return isPartial(report.coverage) ? `✓ CONFORMANT, ${partialText(report.coverage).toUpperCase()}` : '✓ CONFORMANT';
}

/** The requirements not judged (the not applicable aside) by why: the skip reason in `reasonOf`'s words, or how the run was narrowed. */
export function notJudgedByReason(report: Report, reasonOf: (r: RequirementReport) => string): Map<string, string[]> {
  const byReason = new Map<string, string[]>();
  for (const r of report.requirements)
    if (r.status === 'skipped' && r.notApplicable !== true) memo(byReason, reasonOf(r), () => []).push(r.id);
  const leftOut = leftOutOf(report);
  if (leftOut.length > 0) byReason.set(`left out of this run by ${selectionText(report)}`, leftOut);
  return byReason;
}

/** Why requirements were not judged, the commonest reasons first: "30 left out by --only AUTH-; 6 need otherMerchant in the config". */
function notJudgedLine(report: Report): string | undefined {
  const reasons = notJudgedByReason(report, (r) => {
    // The reason's head: the details (each try of a wallet rule, say) are in the report.
    const full = (r.skipReason ?? 'skipped').replace(/^not judged: /, '');
    return full.length > 90 ? `${full.slice(0, 90).replace(/[\s,;:(]+\S*$/, '')}…` : full;
  });
  if (reasons.size === 0) return undefined;
  const parts = [...reasons].map(([why, ids]) => [why, ids.length] as const).sort((a, b) => b[1] - a[1]);
  const top = parts.slice(0, 3).map(([why, n]) => `${n} ${why}`);
  // The rest counted too, so the line's numbers add up to the counts line's "not judged".
  const rest = parts.slice(3);
  const restText = rest.length > 0 ? `; ${rest.reduce((sum, [, n]) => sum + n, 0)} for ${plural(rest.length, 'other reason')}` : '';
  return `not judged: ${top.join('; ')}${restText}`;
}

/** How a run was narrowed, from its recorded options: "--only AUTH- and --skip AUTH-REPLAY". */
export function selectionText(report: Pick<Report, 'certification'>): string {
  const options = report.certification?.options ?? {};
  const list = (value: unknown) => (Array.isArray(value) && value.length > 0 ? value.join(',') : undefined);
  const only = list(options.only);
  const skip = list(options.skip);
  return [only ? `--only ${only}` : '', skip ? `--skip ${skip}` : ''].filter(Boolean).join(' and ') || 'its options';
}

/** The counts line; "not judged" is the coverage's, so the parts add up to its total. */
function countsLine(report: Report): string {
  const { summary, coverage } = report;
  const mayNotHeld = report.requirements.filter(isMayNotHeld).length;
  const notApplicable = report.requirements.filter((r) => r.status === 'skipped' && r.notApplicable === true).length;
  const parts = [
    `${summary.passed} passed`,
    `${summary.failed} MUST failed`,
    `${summary.warned} SHOULD warned`,
    ...(mayNotHeld > 0 ? [`${mayNotHeld} MAY not held`] : []),
    ...(notApplicable > 0 ? [`${notApplicable} not applicable`] : []),
    `${coverage.notJudged.length} not judged`,
  ];
  return `requirements: ${parts.join(', ')} (${coverage.judged} of ${coverage.total} judged)`;
}

/** Failed requirements listed on the console at most; the rest are in the report files. */
const MAX_LISTED = 20;
/** MAY results that do not hold, listed at most (information, never a failure). */
const MAX_MAY_LISTED = 5;

/** Where the requirements the console leaves out are: the HTML report and report.json, as written. */
function whereTheRestAre(files: readonly string[]): string {
  const shown = files.filter((f) => /(?:^|[/\\])(?:report\.html|report\.json)$/.test(f));
  return shown.length > 0 ? `: see ${shown.join(' or ')}` : ' (no report file was written: see the error above)';
}

/** One listed requirement: its mark, its first message, the profile rule behind it, and a property's replay line. */
function requirementLines(r: RequirementReport, mark: string): string[] {
  const lines = [`  ${mark} ${r.id} (${r.level}) ${firstMessage(r)}`];
  // A message read off a schema ("/order_amount: must be string") does not say whose rule it is: this does.
  if (r.profileDecides !== undefined)
    lines.push(`      ${profileDecisionText(r.profileDecides)} (${ruleReference(r.profileDecides.rule)})`);
  for (const step of r.evidence[0]?.steps ?? []) lines.push(`      ${step}`);
  // A property's shrunk case: the command that replays exactly it (seed + fast-check path).
  const replay = r.evidence[0]?.reproduce?.run;
  if (replay !== undefined && replay.includes('--replay-path')) lines.push(`      replay this case: ${replay}`);
  return lines;
}

/** The short summary after a run: the verdict, the counts, each failed requirement, then each MAY not held. */
export function summaryLines(report: Report, files: readonly string[]): string[] {
  const notJudged = notJudgedLine(report);
  const lines = [
    '',
    `${verdictHeadline(report)}  ${judged(report)}`,
    ...(report.reasons ?? []).map((reason) => `  ! could not judge: ${reason}`),
    ...(report.kitErrors ?? []).slice(0, 5).map((e) => `  ! ${thrownIn(e)} (${e.requirement}); ${whoFixes(e)}`),
    ...(report.hints ?? []).map((hint) => `  ! ${hint}`),
    ...(report.notes ?? []).map((note) => `  i ${note}`),
    `  ${countsLine(report)}`,
    ...(notJudged !== undefined
      ? [`  ${notJudged}${report.verdict === 'conformant' && !report.requireAll ? '; --require-all makes a partial run inconclusive' : ''}`]
      : []),
  ];
  // A MAY that does not hold fails nothing: it is listed apart, as information, never among the failures.
  const broken = report.requirements.filter(isFailure);
  const mayNotHeld = report.requirements.filter(isMayNotHeld);
  if (report.verdict === 'inconclusive' && broken.length > 0)
    lines.push('  seen before the run could not judge (not a verdict about the target):');
  for (const r of broken.slice(0, MAX_LISTED)) lines.push(...requirementLines(r, r.level === 'MUST' ? '✗' : '!'));
  if (broken.length > MAX_LISTED) lines.push(`  …and ${broken.length - MAX_LISTED} more${whereTheRestAre(files)}`);
  if (mayNotHeld.length > 0) lines.push('  information (a MAY that does not hold fails nothing):');
  for (const r of mayNotHeld.slice(0, MAX_MAY_LISTED)) lines.push(...requirementLines(r, 'i'));
  if (mayNotHeld.length > MAX_MAY_LISTED) lines.push(`  …and ${mayNotHeld.length - MAX_MAY_LISTED} more${whereTheRestAre(files)}`);
  if (hasSeed(report)) lines.push(`  seed ${report.seed}: rerun the same requests with --seed ${report.seed}`);
  lines.push(files.length > 0 ? `  reports: ${files.join(', ')}` : '  reports: none written (see the error above)');
  // Messages quote what the target answered: no control or bidi character reaches the terminal.
  return lines.map((line) => visible(line));
}
