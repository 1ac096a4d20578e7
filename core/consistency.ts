// Recomputes a report's counts, coverage and verdict from its own requirements: a report edited to pass
// is found here even without a key, which a digest cannot do.
import { isJsonObject } from './json-of.js';
import type { Report } from './report.js';
import { coverageOf, decideVerdict, isConformant, isPartial, leftOutOf, summarize } from './verdict.js';

const STATUSES = new Set(['passed', 'failed', 'skipped']);
const LEVELS = new Set(['MUST', 'SHOULD', 'MAY']);
const VERDICTS = new Set(['conformant', 'not-conformant', 'inconclusive']);
const COUNTS = ['passed', 'failed', 'warned', 'skipped'] as const;

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');
/** Each id again after its first time, in the order met. */
const repeats = (ids: readonly string[]) => ids.filter((id, at) => ids.indexOf(id) !== at);

/** What in a report does not follow from its requirements; empty when consistent. The report comes from a file,
 * so nothing about its shape is taken for granted. */
export function inconsistencies(report: Report): string[] {
  const shape = shapeProblems(report);
  if (shape.length > 0) return shape;
  const problems: string[] = [];
  const { requirements } = report;

  for (const id of repeats(requirements.map((r) => r.id))) problems.push(`requirements list ${id} more than once`);

  const summary = summarize(requirements);
  for (const key of COUNTS) {
    if (report.summary[key] !== summary[key])
      problems.push(`summary.${key} says ${report.summary[key]}, the requirements give ${summary[key]}`);
  }

  for (const id of repeats(report.coverage.notJudged)) problems.push(`coverage.notJudged names ${id} more than once`);
  const notJudged = new Set(report.coverage.notJudged);
  const leftOut = [...new Set(leftOutOf(report))];
  const coverage = coverageOf(requirements, leftOut);
  if (report.coverage.judged !== coverage.judged)
    problems.push(
      `coverage.judged says ${report.coverage.judged}, the requirements give ${coverage.judged} (passed, failed or not applicable)`,
    );
  if (report.coverage.total !== coverage.total)
    problems.push(
      `coverage.total says ${report.coverage.total}, the requirements give ${coverage.total} (${requirements.length} listed, ${leftOut.length} left out)`,
    );
  for (const r of requirements) {
    const judged = r.status !== 'skipped' || r.notApplicable === true;
    if (!judged && !notJudged.has(r.id)) problems.push(`${r.id} is skipped, but coverage.notJudged does not name it`);
    if (judged && notJudged.has(r.id))
      problems.push(`${r.id} is ${r.notApplicable === true ? 'not applicable' : r.status}, but coverage.notJudged names it`);
  }

  const requireAll = report.requireAll ?? false;
  const options = isJsonObject(report.certification) && isJsonObject(report.certification.options) ? report.certification.options : {};
  if (typeof options.strict === 'boolean' && options.strict !== report.strict)
    problems.push(`strict says ${report.strict}, certification.options.strict says ${options.strict}`);
  if (typeof options.requireAll === 'boolean' && options.requireAll !== requireAll)
    problems.push(`requireAll says ${requireAll}, certification.options.requireAll says ${options.requireAll}`);

  if (report.verdict === 'inconclusive') {
    // Why a run could not judge comes from what happened during it: only its presence can be checked.
    if (report.reasons === undefined || report.reasons.length === 0) problems.push('verdict says inconclusive, but no reasons say why');
  } else {
    if (report.reasons !== undefined)
      problems.push(`verdict says ${report.verdict}, but reasons are given (they belong to an inconclusive verdict only)`);
    const expected = decideVerdict({ summary, coverage, strict: report.strict, requireAll }).verdict;
    if (expected !== report.verdict)
      problems.push(
        `verdict says ${report.verdict}, the requirements give ${expected} (${verdictGround(summary, coverage, report.strict, requireAll)})`,
      );
  }
  return problems;
}

/** Why the requirements give the verdict they give, in a few words. */
function verdictGround(summary: Report['summary'], coverage: Report['coverage'], strict: boolean, requireAll: boolean): string {
  const failed = [`${summary.failed} MUST failed`, ...(strict ? [`${summary.warned} SHOULD failed under --strict`] : [])].join(', ');
  if (requireAll && isPartial(coverage) && isConformant(summary, strict)) {
    return `${failed}, and --require-all with ${coverage.judged} of ${coverage.total} judged`;
  }
  return failed;
}

/** The fields the recomputation reads, each of the type the kit writes; what is not is said. */
function shapeProblems(report: Report): string[] {
  const problems: string[] = [];
  const r = report as unknown as Record<string, unknown>;
  if (!Array.isArray(r.requirements)) return ['requirements is missing or not a list'];
  (r.requirements as unknown[]).forEach((entry, at) => {
    if (!isJsonObject(entry) || typeof entry.id !== 'string') problems.push(`requirements[${at}] has no id`);
    else {
      if (!STATUSES.has(entry.status as string))
        problems.push(`${entry.id}'s status is ${JSON.stringify(entry.status)}, not passed, failed or skipped`);
      if (!LEVELS.has(entry.level as string))
        problems.push(`${entry.id}'s level is ${JSON.stringify(entry.level)}, not MUST, SHOULD or MAY`);
      if (entry.notApplicable !== undefined && typeof entry.notApplicable !== 'boolean')
        problems.push(`${entry.id}'s notApplicable is not true or false`);
    }
  });
  if (!isJsonObject(r.summary) || !COUNTS.every((key) => isCount((r.summary as Record<string, unknown>)[key])))
    problems.push('summary is missing or not four counts (passed, failed, warned, skipped)');
  if (!isJsonObject(r.coverage) || !isCount(r.coverage.judged) || !isCount(r.coverage.total) || !isStringList(r.coverage.notJudged))
    problems.push('coverage is missing or not {judged, total, notJudged}');
  if (!VERDICTS.has(r.verdict as string))
    problems.push(`verdict is ${JSON.stringify(r.verdict)}, not conformant, not-conformant or inconclusive`);
  if (r.reasons !== undefined && !isStringList(r.reasons)) problems.push('reasons is not a list of sentences');
  if (typeof r.strict !== 'boolean') problems.push('strict is missing or not true or false');
  if (r.requireAll !== undefined && typeof r.requireAll !== 'boolean') problems.push('requireAll is not true or false');
  return problems;
}
