import type { Exchange } from './exchange.js';
import { curlLine, replayLine } from './reproduce.js';
import type { CheckResult, Evidence, Level, Report, Requirement, RequirementReport } from './report.js';

const MAX_EVIDENCE_PER_REQUIREMENT = 5;

export interface BuildInput {
  results: readonly CheckResult[];
  catalog: readonly Requirement[];
  target: Report['target'];
  seed: number;
  runNumber: number;
  runs: number;
  concurrency?: number;
  strict: boolean;
  startedAt: Date;
  durationMs: number;
  version: string;
  /** How the run was pointed at its target, for reproduce lines: the config file, if any. */
  configPath?: string;
  /** A client judgement: evidence is the client's own requests, reproduced by this command. */
  rerunCommand?: string;
}

/**
 * The one place where check results become requirement verdicts. A requirement fails when one of
 * its checks failed or any check saw it broken (an envelope slip noticed elsewhere); it passes when
 * a check passed and nothing broke it and no check of it met a kit error; otherwise it is skipped
 * (every check skipped, or one could not be judged because the kit itself failed).
 */
export function buildReport(input: BuildInput): Report {
  const byRequirement = new Map<string, { results: CheckResult[]; findings: Evidence[]; findingCount: number }>();
  const entry = (id: string) => {
    let e = byRequirement.get(id);
    if (e === undefined) byRequirement.set(id, (e = { results: [], findings: [], findingCount: 0 }));
    return e;
  };
  for (const result of input.results) {
    entry(result.meta.requirement).results.push(result);
    for (const finding of result.meta.findings) {
      const e = entry(finding.requirement);
      e.findingCount += 1;
      if (e.findings.length < MAX_EVIDENCE_PER_REQUIREMENT) {
        e.findings.push(evidence(input, finding.requirement, result.meta.check, finding.message, finding.exchange ? [finding.exchange] : []));
      }
    }
  }

  const requirements: RequirementReport[] = [];
  for (const requirement of input.catalog) {
    const e = byRequirement.get(requirement.id);
    if (e === undefined || e.results.length === 0) continue; // not selected by --only
    const failed = e.results.filter((r) => r.state === 'failed');
    const passed = e.results.some((r) => r.state === 'passed');
    const errored = e.results.find((r) => r.state === 'error');
    const status = failed.length > 0 || e.findingCount > 0 ? 'failed' : passed && errored === undefined ? 'passed' : 'skipped';
    const evidenceList = [
      ...failed.map((r) => {
        // A check stopped by the runner (its time budget ran out) has no failure of its own.
        const f = r.meta.failure ?? { message: 'the check did not finish within its time budget: the target answers too slowly' };
        return {
          ...evidence(input, requirement.id, r.meta.check, f.message, r.meta.evidence, f.replayPath),
          ...(f.expected !== undefined ? { expected: f.expected } : {}),
          ...(f.actual !== undefined ? { actual: f.actual } : {}),
          ...(f.counterexample !== undefined ? { counterexample: f.counterexample } : {}),
          ...(r.meta.evidenceLeftOut !== undefined ? { leftOut: r.meta.evidenceLeftOut } : {}),
        };
      }),
      ...e.findings,
    ].slice(0, MAX_EVIDENCE_PER_REQUIREMENT);
    if (e.findingCount > e.findings.length) {
      evidenceList.push({ check: '(observers)', message: `…and ${e.findingCount - e.findings.length} more answers broke this requirement`, exchanges: [] });
    }
    const skipReason = status !== 'skipped' ? undefined
      : errored !== undefined ? `not judged: the kit's own error in check ${errored.meta.check} (${errored.meta.error?.message ?? 'unknown'})`
      : e.results.find((r) => r.meta.skipped)?.meta.skipped;
    requirements.push({
      ...requirement,
      status,
      checks: e.results.map((r) => ({
        id: r.meta.check,
        title: r.meta.title,
        status: r.state,
        ...(r.meta.failure ? { message: r.meta.failure.message }
          : r.meta.error ? { message: `kit error: ${r.meta.error.message}` }
          : r.meta.skipped ? { message: r.meta.skipped }
          : r.state === 'failed' ? { message: 'did not finish within its time budget' } : {}),
      })),
      ...(skipReason !== undefined ? { skipReason } : {}),
      durationMs: e.results.reduce((sum, r) => sum + r.durationMs, 0),
      ...(requirement.source === undefined ? { reference: `docs/requirements.md#${requirement.id}` } : {}),
      evidence: evidenceList,
    });
  }

  const summary = summarize(requirements);
  const kitErrors = input.results.filter((r) => r.state === 'error').map((r) => ({ check: r.meta.check, requirement: r.meta.requirement, message: r.meta.error?.message ?? 'unknown' }));
  // A run where the kit itself failed judged only part of the target: it certifies nothing.
  const conformant = isConformant(summary, input.strict) && kitErrors.length === 0;
  const hints = runHints(input.results);
  return {
    tool: { name: 'svc-conformance', version: input.version },
    target: input.target,
    seed: input.seed,
    runNumber: input.runNumber,
    runs: input.runs,
    ...(input.concurrency !== undefined ? { concurrency: input.concurrency } : {}),
    strict: input.strict,
    startedAt: input.startedAt.toISOString(),
    durationMs: input.durationMs,
    verdict: conformant ? 'conformant' : 'not conformant',
    summary,
    ...(hints.length > 0 ? { hints } : {}),
    ...(kitErrors.length > 0 ? { kitErrors } : {}),
    requirements,
  };
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

/** No MUST failed (and, with --strict, no SHOULD). */
export function isConformant(summary: Report['summary'], strict: boolean): boolean {
  return summary.failed === 0 && (!strict || summary.warned === 0);
}

/**
 * The exit status of a judged run (P-CLI): 2 when it could not judge (it stopped, could not reach the
 * target, or the kit failed inside a check), 0 when conformant, 1 otherwise.
 */
export function exitCodeOf(report: Pick<Report, 'verdict' | 'error' | 'kitErrors'>): 0 | 1 | 2 {
  if (report.error !== undefined || (report.kitErrors?.length ?? 0) > 0) return 2;
  return report.verdict === 'conformant' ? 0 : 1;
}

/** A section's line on the console: its tally and its mark. A MAY that does not hold fails nothing. */
export interface SectionTally {
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

/** Fewest plainly signed requests before "all of them were 401" says more than bad luck. */
const MIN_SIGNED_FOR_HINT = 3;

/**
 * One cause behind many failures, said once and up front: when every request signed the profile's
 * way with the configured keys was refused 401, the keys (or their environment) are wrong, not
 * fifty separate requirements.
 */
export function runHints(results: readonly CheckResult[]): string[] {
  let answered = 0;
  let refused = 0;
  for (const r of results) {
    answered += r.meta.plainlySigned?.answered ?? 0;
    refused += r.meta.plainlySigned?.refused401 ?? 0;
  }
  if (answered < MIN_SIGNED_FOR_HINT || refused < answered) return [];
  return [
    `every one of the ${answered} correctly signed requests was refused with 401: check that merchant.apiKey and merchant.secretKey ` +
      '(SVC_API_KEY, SVC_SECRET_KEY) belong to this environment and merchant; `svc-conformance diagnose` explains a captured request',
  ];
}

function evidence(input: BuildInput, requirement: string, check: string, message: string, exchanges: Exchange[], replayPath?: string): Evidence {
  const first = exchanges[0];
  if (input.rerunCommand !== undefined) {
    return { check, message, exchanges, reproduce: { ...(first ? { curl: curlLine(first) } : {}), run: input.rerunCommand } };
  }
  return {
    check,
    message,
    exchanges,
    reproduce: {
      ...(first ? { curl: curlLine(first), replay: replayLine(first, input.configPath ?? 'CONFIG.json') } : {}),
      // The same seed regenerates the same cases; a property's shrunk case is replayed by its path.
      run: `svc-conformance run${input.configPath ? ` --config ${input.configPath}` : ''} --seed ${input.seed} --only ${replayPath !== undefined ? `${check} --replay-path ${replayPath}` : requirement}`,
    },
  };
}
