import type { Requirement } from '../suites/catalog.js';
import type { Exchange } from '../suites/http.js';
import { curlLine, replayLine } from './curl.js';
import type { CheckResult, Evidence, Report, RequirementReport } from './model.js';

const MAX_EVIDENCE_PER_REQUIREMENT = 5;

export interface BuildInput {
  results: readonly CheckResult[];
  catalog: readonly Requirement[];
  target: Report['target'];
  seed: number;
  runNumber: number;
  runs: number;
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
 * a check passed and nothing broke it; it is skipped when every check was skipped.
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
    const status = failed.length > 0 || e.findingCount > 0 ? 'failed' : passed ? 'passed' : 'skipped';
    const evidenceList = [
      ...failed.map((r) => {
        // A check stopped by the runner (its time budget ran out) has no failure of its own.
        const f = r.meta.failure ?? { message: 'the check did not finish within its time budget: the target answers too slowly' };
        return {
          ...evidence(input, requirement.id, r.meta.check, f.message, r.meta.evidence),
          ...(f.expected !== undefined ? { expected: f.expected } : {}),
          ...(f.actual !== undefined ? { actual: f.actual } : {}),
          ...(f.counterexample !== undefined ? { counterexample: f.counterexample } : {}),
        };
      }),
      ...e.findings,
    ].slice(0, MAX_EVIDENCE_PER_REQUIREMENT);
    if (e.findingCount > e.findings.length) {
      evidenceList.push({ check: '(observers)', message: `…and ${e.findingCount - e.findings.length} more answers broke this requirement`, exchanges: [] });
    }
    const skipReason = status === 'skipped' ? e.results.find((r) => r.meta.skipped)?.meta.skipped : undefined;
    requirements.push({
      ...requirement,
      status,
      checks: e.results.map((r) => ({
        id: r.meta.check,
        title: r.meta.title,
        status: r.state,
        ...(r.meta.failure ? { message: r.meta.failure.message } : r.meta.skipped ? { message: r.meta.skipped } : r.state === 'failed' ? { message: 'did not finish within its time budget' } : {}),
      })),
      ...(skipReason !== undefined ? { skipReason } : {}),
      evidence: evidenceList,
    });
  }

  const summary = { passed: 0, failed: 0, warned: 0, skipped: 0 };
  for (const r of requirements) {
    if (r.status === 'passed') summary.passed += 1;
    else if (r.status === 'skipped') summary.skipped += 1;
    else if (r.level === 'MUST') summary.failed += 1;
    else if (r.level === 'SHOULD') summary.warned += 1;
    // A MAY that does not hold is reported, and counted under neither (P-CLI).
  }
  const conformant = summary.failed === 0 && (!input.strict || summary.warned === 0);
  const hints = runHints(input.results);
  return {
    tool: { name: 'svc-conformance', version: input.version },
    target: input.target,
    seed: input.seed,
    runNumber: input.runNumber,
    runs: input.runs,
    strict: input.strict,
    startedAt: input.startedAt.toISOString(),
    durationMs: input.durationMs,
    verdict: conformant ? 'conformant' : 'not conformant',
    summary,
    ...(hints.length > 0 ? { hints } : {}),
    requirements,
  };
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

function evidence(input: BuildInput, requirement: string, check: string, message: string, exchanges: Exchange[]): Evidence {
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
      // The same seed regenerates the same cases, so this line reproduces a property's failure too.
      run: `svc-conformance run${input.configPath ? ` --config ${input.configPath}` : ''} --seed ${input.seed} --only ${requirement}`,
    },
  };
}
