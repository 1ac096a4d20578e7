// One requirement's part of the report: its status from its checks' results and the findings
// against it, why it was not judged, and its evidence with the lines that reproduce each piece.
import { thrownIn, type CheckCodeError } from './check-error.js';
import type { Exchange } from './exchange.js';
import { curlLine, isDeliberate, scriptPlan, shellQuote } from './reproduce.js';
import { replayLine, triggerLine } from './resend-lines.js';
import type { CheckResult, Evidence, Requirement, RequirementReport } from './report.js';

const MAX_EVIDENCE_PER_REQUIREMENT = 5;

/** How a run was pointed at its target, for the reproduce lines of its evidence. */
export interface ReproduceInput {
  seed: number;
  configPath?: string;
  /** The command that starts the embedded sandbox again (it stopped with the run), so configPath points at a live one. */
  sandboxCommand?: string;
  /** A client judgement: evidence is the client's own requests, reproduced by this command. */
  rerunCommand?: string;
}

/** What a run saw of one requirement: its checks' results, and the findings against it (the first few kept). */
export interface Judged {
  results: CheckResult[];
  findings: Evidence[];
  findingCount: number;
}

/** The results and findings of a run by the requirement each is about. */
export function byRequirement(input: ReproduceInput, results: readonly CheckResult[]): Map<string, Judged> {
  const grouped = new Map<string, Judged>();
  const entry = (id: string) => {
    let e = grouped.get(id);
    if (e === undefined) grouped.set(id, (e = { results: [], findings: [], findingCount: 0 }));
    return e;
  };
  for (const result of results) {
    entry(result.meta.requirement).results.push(result);
    for (const finding of result.meta.findings) {
      const e = entry(finding.requirement);
      e.findingCount += 1;
      if (e.findings.length < MAX_EVIDENCE_PER_REQUIREMENT) {
        e.findings.push(
          evidence(input, finding.requirement, result.meta.check, finding.message, finding.exchange ? [finding.exchange] : []),
        );
      }
    }
  }
  return grouped;
}

/** Fails on a failed check or a finding elsewhere; passes only when a check passed and none met a kit error;
 * otherwise skipped, saying why. */
export function requirementReport(input: ReproduceInput, requirement: Requirement, e: Judged): RequirementReport {
  // A wrong signature scheme the target accepted explains the rest: its evidence comes first.
  const failed = e.results
    .filter((r) => r.state === 'failed')
    .sort((a, b) => Number(b.meta.acceptedVariant !== undefined) - Number(a.meta.acceptedVariant !== undefined));
  const passed = e.results.some((r) => r.state === 'passed');
  const errored = e.results.find((r) => r.state === 'error');
  // Passed only when wholly judged (v1.3): one check not judged leaves the requirement not judged.
  const unjudged = e.results.find((r) => r.state !== 'passed' && !(r.state === 'skipped' && r.meta.notApplicable === true));
  const status = failed.length > 0 || e.findingCount > 0 ? 'failed' : passed && unjudged === undefined ? 'passed' : 'skipped';
  const failures = failed.map((r) => failureEvidence(input, requirement.id, r));
  const evidenceList = [...failures, ...e.findings].slice(0, MAX_EVIDENCE_PER_REQUIREMENT);
  if (e.findingCount > e.findings.length) {
    evidenceList.push({
      check: '(observers)',
      message: `…and ${e.findingCount - e.findings.length} more answers broke this requirement`,
      exchanges: [],
    });
  }
  const notJudgeable = e.results.find((r) => r.meta.inconclusive !== undefined)?.meta.inconclusive;
  // Every check found its rule does not apply here: nothing to judge, and nothing left unjudged.
  const notApplicable = status === 'skipped' && errored === undefined && e.results.every((r) => r.meta.notApplicable === true);
  const skipReason =
    status !== 'skipped'
      ? undefined
      : errored?.meta.error?.module !== undefined
        ? `not judged: ${thrownIn(codeError(errored))}`
        : errored !== undefined
          ? `not judged: the kit's own error in check ${errored.meta.check} (${errored.meta.error?.message ?? 'unknown'})`
          : notJudgeable !== undefined
            ? `not judged: ${notJudgeable}`
            : partlyJudged(e.results, unjudged);
  return {
    ...requirement,
    status,
    checks: e.results.map(checkLine),
    ...(skipReason !== undefined ? { skipReason } : {}),
    ...(notApplicable ? { notApplicable: true } : {}),
    durationMs: e.results.reduce((sum, r) => sum + r.durationMs, 0),
    ...(requirement.source === undefined ? { reference: `docs/requirements.md#${requirement.id}` } : {}),
    evidence: evidenceList,
  };
}

/** A failed check as evidence: its failure, or the time budget that stopped it, with what it kept. */
function failureEvidence(input: ReproduceInput, requirement: string, r: CheckResult): Evidence {
  // A check stopped by the runner (its time budget ran out) has no failure of its own.
  const f = r.meta.failure ?? { message: 'the check did not finish within its time budget: the target answers too slowly' };
  return {
    ...evidence(input, requirement, r.meta.check, f.message, r.meta.evidence, f.replayPath, f.webhookEvent),
    ...(f.expected !== undefined ? { expected: f.expected } : {}),
    ...(f.actual !== undefined ? { actual: f.actual } : {}),
    ...(f.counterexample !== undefined ? { counterexample: f.counterexample } : {}),
    ...(f.steps !== undefined ? { steps: f.steps } : {}),
    ...(r.meta.evidenceLeftOut !== undefined ? { leftOut: r.meta.evidenceLeftOut } : {}),
  };
}

/** A check's line under its requirement: its status, and what it said (its failure, error or skip). */
function checkLine(r: CheckResult): RequirementReport['checks'][number] {
  const { check: id, title, failure, error, skipped } = r.meta;
  const message = failure
    ? failure.message
    : error
      ? `${error.module !== undefined ? `threw in ${error.module}` : 'kit error'}: ${error.message}`
      : skipped || (r.state === 'failed' ? 'did not finish within its time budget' : undefined);
  return { id, title, status: r.state, ...(message !== undefined ? { message } : {}) };
}

/** Why a requirement with no failed check was not judged: its first unjudged check (passed siblings do not make it pass). */
function partlyJudged(results: readonly CheckResult[], unjudged: CheckResult | undefined): string | undefined {
  const skipped = unjudged ?? results.find((r) => r.meta.skipped !== undefined);
  const reason = skipped?.meta.skipped;
  if (skipped === undefined || reason === undefined || !results.some((r) => r.state === 'passed')) return reason;
  return `not judged: check ${skipped.meta.check}: ${reason.replace(/^not judged: /, '')}`;
}

/** A check whose own code threw, as the report names it: with its team module, when it is a team's. */
export function codeError(r: CheckResult): CheckCodeError {
  const module = r.meta.error?.module;
  return {
    check: r.meta.check,
    requirement: r.meta.requirement,
    message: r.meta.error?.message ?? 'unknown',
    ...(module !== undefined ? { module } : {}),
  };
}

/** Reproduce lines by the first exchange: a webhook (or one that never came) gets `trigger`; a deliberate defect
 * only curl, since a replay would sign it afresh; any other request both. */
function evidence(
  input: ReproduceInput,
  requirement: string,
  check: string,
  message: string,
  exchanges: Exchange[],
  replayPath?: string,
  webhookEvent?: string,
): Evidence {
  const first = exchanges[0];
  if (input.rerunCommand !== undefined) {
    return { check, message, exchanges, reproduce: { ...(first ? { curl: curlLine(first) } : {}), run: input.rerunCommand } };
  }
  const config = input.configPath ?? 'CONFIG.json';
  let lines: NonNullable<Evidence['reproduce']> = {};
  if (first?.delivery !== undefined) lines = { trigger: triggerLine(first.delivery.event, config) };
  else if (webhookEvent !== undefined) lines = { trigger: triggerLine(webhookEvent, config) };
  else if (first !== undefined) {
    const plan = scriptPlan(first, exchanges.slice(1));
    // A replay line sends one request: where the failure took others too (a record made first, a race),
    // or acted on a record the run changed, only the curl script (or the run line) shows it.
    const single = plan.before.length === 0 && plan.alongside.length === 0 && plan.recordChanged !== true;
    lines = { curl: curlLine(first, plan), ...(isDeliberate(first) || !single ? {} : { replay: replayLine(first, config) }) };
  }
  return {
    check,
    message,
    exchanges,
    reproduce: {
      ...(input.sandboxCommand !== undefined ? { sandbox: input.sandboxCommand } : {}),
      ...lines,
      // The same seed regenerates the same cases; a property's shrunk case is replayed by its path.
      run: `svc-conformance run${input.configPath ? ` --config ${shellQuote(input.configPath)}` : ''} --seed ${input.seed} --only ${replayPath !== undefined ? `${check} --replay-path ${replayPath}` : requirement}`,
    },
  };
}
