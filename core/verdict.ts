import { thrownIn, whoFixes } from './check-error.js';
import { misconfiguration, runHints } from './misconfiguration.js';
import type { CheckResult, Level, Report, Requirement, RequirementReport, Verdict } from './report.js';
import { byRequirement, codeError, requirementReport, type ReproduceInput } from './requirement-report.js';

export interface BuildInput extends ReproduceInput {
  results: readonly CheckResult[];
  catalog: readonly Requirement[];
  target: Report['target'];
  runNumber: number;
  runs: number;
  concurrency?: number;
  strict: boolean;
  /** --require-all: a verdict that judged only part of the catalog is inconclusive. */
  requireAll?: boolean;
  /** Why the run could not judge the target, found outside the checks (the target unreachable). */
  couldNotJudge?: readonly string[];
  /** What the command saw that is no verdict (foreign requests at the recording sandbox, ignored). */
  notes?: readonly string[];
  startedAt: Date;
  durationMs: number;
  version: string;
}

/** The one place where check results become requirement statuses and the verdict. A finding elsewhere fails
 * a requirement too; a kit error in one of its checks keeps it from passing. */
export function buildReport(input: BuildInput): Report {
  const judged = byRequirement(input, input.results);
  const requirements: RequirementReport[] = [];
  // Not run at all (left out by --only/--skip): not in the list, but counted and named by the coverage.
  const leftOut: string[] = [];
  for (const requirement of input.catalog) {
    const e = judged.get(requirement.id);
    if (e === undefined || e.results.length === 0) leftOut.push(requirement.id);
    else requirements.push(requirementReport(input, requirement, e));
  }

  const summary = summarize(requirements);
  const coverage = coverageOf(requirements, leftOut);
  const kitErrors = input.results.filter((r) => r.state === 'error').map(codeError);
  const decided = decideVerdict({
    summary,
    coverage,
    strict: input.strict,
    requireAll: input.requireAll ?? false,
    ...couldNotJudge(input, kitErrors),
  });
  const hints = runHints(input.results).filter((hint) => !(decided.reasons ?? []).includes(hint));
  // With keys or paths wrong, every 401 is theirs: the resends say nothing of other runs.
  const resent = misconfiguration(input.results, input.target.baseUrl).length > 0 ? [] : resendNote(input.results);
  const notes = [...new Set([...(input.notes ?? []), ...input.results.flatMap((r) => r.meta.notes ?? []), ...resent])];
  return {
    tool: { name: 'svc-conformance', version: input.version },
    target: input.target,
    seed: input.seed,
    runNumber: input.runNumber,
    runs: input.runs,
    ...(input.concurrency !== undefined ? { concurrency: input.concurrency } : {}),
    strict: input.strict,
    ...(input.requireAll ? { requireAll: true } : {}),
    startedAt: input.startedAt.toISOString(),
    durationMs: input.durationMs,
    verdict: decided.verdict,
    ...(decided.reasons !== undefined ? { reasons: decided.reasons } : {}),
    coverage,
    summary,
    ...(hints.length > 0 ? { hints } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    ...(kitErrors.length > 0 ? { kitErrors } : {}),
    requirements,
  };
}

/** Every reason the run could not judge, each said once: `wholeRun` taints everything (unreachable, stopped,
 * misconfigured); `part` leaves some unjudged (a kit error, a section that could not be judged). */
function couldNotJudge(input: BuildInput, kitErrors: NonNullable<Report['kitErrors']>): { wholeRun: string[]; part: string[] } {
  const wholeRun = [...(input.couldNotJudge ?? [])];
  const stopped = input.results.find((r) => r.meta.stopped !== undefined)?.meta.stopped;
  if (stopped !== undefined) {
    const ran = input.results.filter((r) => r.state !== 'skipped').length;
    wholeRun.push(`the run had to stop: ${stopped} (${ran} of ${input.results.length} checks ran before it)`);
  }
  // A run that had to stop says why; what it answered before says nothing more of the configuration.
  if (stopped === undefined) wholeRun.push(...misconfiguration(input.results, input.target.baseUrl));
  const part: string[] = [];
  const kits = kitErrors.filter((e) => e.module === undefined);
  const teams = kitErrors.filter((e) => e.module !== undefined);
  const unjudged = (n: number) => (n === 1 ? 'its requirement was' : 'their requirements were');
  if (kits.length > 0) {
    part.push(
      `the kit failed inside ${kits.length === 1 ? 'a check' : `${kits.length} checks`} (first: ${kits[0]!.check}: ${kits[0]!.message}); ${unjudged(kits.length)} not judged: this is the kit's fault, not the target's`,
    );
  }
  if (teams.length > 0) {
    part.push(
      `${teams.length === 1 ? 'a team check' : `${teams.length} team checks`} threw (first: ${thrownIn(teams[0]!)}); ${unjudged(teams.length)} not judged: ${whoFixes(teams[0]!)}`,
    );
  }
  for (const r of input.results) if (r.meta.inconclusive !== undefined) part.push(r.meta.inconclusive);
  return { wholeRun: [...new Set(wholeRun)], part: [...new Set(part)] };
}

/** Judged: passed, failed or not applicable. Not judged: skipped, then left out by --only/--skip (unlisted in the report). */
export function coverageOf(
  requirements: ReadonlyArray<{ id: string; status: RequirementReport['status']; notApplicable?: boolean }>,
  leftOut: readonly string[] = [],
): Report['coverage'] {
  const skipped = requirements.filter((r) => r.status === 'skipped' && r.notApplicable !== true).map((r) => r.id);
  return { judged: requirements.length - skipped.length, total: requirements.length + leftOut.length, notJudged: [...skipped, ...leftOut] };
}

/** The requirements a run left out (by --only/--skip): not judged, and not in its list. */
export function leftOutOf(report: Pick<Report, 'coverage' | 'requirements'>): string[] {
  const listed = new Set(report.requirements.map((r) => r.id));
  return report.coverage.notJudged.filter((id) => !listed.has(id));
}

/** P-CLI's verdict. A whole-run reason wins over failures (they may be its effect); a part left unjudged
 * cannot undo a failed MUST elsewhere. verify-report recomputes it from a report. */
export function decideVerdict(input: {
  summary: Report['summary'];
  coverage: Report['coverage'];
  strict: boolean;
  requireAll: boolean;
  wholeRun?: readonly string[];
  part?: readonly string[];
}): { verdict: Verdict; reasons?: string[] } {
  const conformant = isConformant(input.summary, input.strict);
  const reasons = [...(input.wholeRun ?? []), ...(conformant ? (input.part ?? []) : [])];
  if (reasons.length === 0 && conformant && input.requireAll && isPartial(input.coverage)) {
    reasons.push(
      `--require-all: only ${input.coverage.judged} of ${input.coverage.total} requirements were judged (${notJudgedText(input.coverage)})`,
    );
  }
  if (reasons.length > 0) return { verdict: 'inconclusive', reasons };
  return { verdict: conformant ? 'conformant' : 'not-conformant' };
}

export function isPartial(coverage: Report['coverage']): boolean {
  return coverage.judged < coverage.total;
}

function notJudgedText(coverage: Report['coverage']): string {
  const ids = coverage.notJudged;
  return `not judged: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}`;
}

/** The verdict in words, the same in every form ("conformant, partial: 59 of 95 requirements judged"). */
export function verdictText(report: Pick<Report, 'verdict' | 'coverage' | 'reasons'>): string {
  if (report.verdict === 'inconclusive') return `inconclusive: ${report.reasons?.[0] ?? 'the run could not judge the target'}`;
  if (report.verdict === 'not-conformant') return 'not conformant';
  return isPartial(report.coverage) ? `conformant, ${partialText(report.coverage)}` : 'conformant';
}

/** "partial: 59 of 95 requirements judged". */
export function partialText(coverage: Report['coverage']): string {
  return `partial: ${coverage.judged} of ${coverage.total} requirement${coverage.total === 1 ? '' : 's'} judged`;
}

/** The P-CLI counts: a SHOULD that fails is warned; a MAY that does not hold is counted under neither. */
export function summarize(requirements: ReadonlyArray<{ status: RequirementReport['status']; level: Level }>): Report['summary'] {
  const summary = { passed: 0, failed: 0, warned: 0, skipped: 0 };
  for (const r of requirements) {
    if (r.status === 'passed') summary.passed += 1;
    else if (r.status === 'skipped') summary.skipped += 1;
    else if (r.level === 'MUST') summary.failed += 1;
    else if (r.level === 'SHOULD') summary.warned += 1;
  }
  return summary;
}

type LevelStatus = Pick<RequirementReport, 'status' | 'level'>;
/** A failed MUST or SHOULD; a MAY that does not hold is information, never a failure (P-CLI). */
export const isFailure = (r: LevelStatus): boolean => r.status === 'failed' && r.level !== 'MAY';
export const isMayNotHeld = (r: LevelStatus): boolean => r.status === 'failed' && r.level === 'MAY';

/** No MUST failed (and, with --strict, no SHOULD). */
export function isConformant(summary: Report['summary'], strict: boolean): boolean {
  return summary.failed === 0 && (!strict || summary.warned === 0);
}

/** The exit status of every command that judges (P-CLI): 0 conformant, 1 not conformant, 2 inconclusive. */
export function exitCodeOf(report: Pick<Report, 'verdict'>): 0 | 1 | 2 {
  return report.verdict === 'conformant' ? 0 : report.verdict === 'not-conformant' ? 1 : 2;
}

/** A section's line on the console: its tally and its mark. A MAY that does not hold fails nothing. */
interface SectionTally {
  passed: number;
  failed: number;
  mayNotHeld: number;
  skipped: number;
  errors: number;
  /** ✗ something failed, ! the kit failed, – nothing passed (all skipped), ✓ otherwise. */
  mark: '✗' | '!' | '–' | '✓';
}

export function tallySection(results: readonly CheckResult[], levelOf: (requirement: string) => Level | undefined): SectionTally {
  const t = { passed: 0, failed: 0, mayNotHeld: 0, skipped: 0, errors: 0 };
  for (const r of results) {
    if (r.state === 'passed') t.passed++;
    else if (r.state === 'error') t.errors++;
    else if (r.state === 'failed' && levelOf(r.meta.requirement) === 'MAY') t.mayNotHeld++;
    else if (r.state === 'failed') t.failed++;
    else t.skipped++;
  }
  const mark = t.failed ? '✗' : t.errors ? '!' : t.passed + t.mayNotHeld === 0 ? '–' : '✓';
  return { ...t, mark };
}

/** Said once: how many correctly signed requests were sent again after a 401, and how many were then taken. */
function resendNote(results: readonly CheckResult[]): string[] {
  const sent = results.reduce((n, r) => n + (r.meta.resent?.sent ?? 0), 0);
  const accepted = results.reduce((n, r) => n + (r.meta.resent?.accepted ?? 0), 0);
  if (sent === 0) return [];
  return [
    `${sent} correctly signed request${sent === 1 ? ' was' : 's were'} refused 401 and sent again with a fresh X-TIMESTAMP, as a target refuses a replay of another run's identical request ` +
      `(a fixture read, a Balance Inquiry); ${accepted} ${accepted === 1 ? 'was' : 'were'} then accepted${accepted < sent ? ', and a request still refused after all its resends leaves its requirement not judged (the replay window used up by other runs)' : ''}`,
  ];
}
