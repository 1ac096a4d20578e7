// JUnit XML for CI: one <testsuite> per interface section, one <testcase> per requirement. How the
// levels map onto JUnit's pass, failure, error and skipped: docs/reports.md.
import { plural } from '../common/plural.js';
import { escapeChar, isInvisible } from '../common/visible.js';
import type { Exchange } from '../core/exchange.js';
import { thrownIn, whoFixes } from '../core/check-error.js';
import type { Evidence, Report, RequirementReport } from '../core/report.js';
import { isFailure, isPartial, partialText, verdictText } from '../core/verdict.js';
import { profileDecisionText, ruleReference } from './rule-text.js';
import { bySection, decidedText, prettyJson } from './console.js';

/** Escapes text for XML character data or a double-quoted attribute, replacing what XML 1.0 forbids. */
export function xmlEscape(text: string, attribute = false): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '&') out += '&amp;';
    else if (char === '<') out += '&lt;';
    else if (char === '>') out += '&gt;';
    else if (attribute && char === '"') out += '&quot;';
    else if (attribute && char === "'") out += '&apos;';
    // A parser normalizes literal tab and line breaks in attributes to spaces; references survive.
    else if (attribute && (char === '\n' || char === '\r' || char === '\t')) out += `&#${code};`;
    else if (char === '\r') out += '&#13;';
    else if (code < 0x20 && char !== '\n' && char !== '\t') out += String.fromCodePoint(0x2400 + code);
    else if ((code >= 0xd800 && code <= 0xdfff) || code === 0xfffe || code === 0xffff) out += '\ufffd';
    // DEL, C1 and bidi controls are legal XML but act on whoever views the file: shown escaped.
    else if (isInvisible(char)) out += escapeChar(char);
    else out += char;
  }
  return out;
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlEscape(String(value), true)}"`)
    .join('');
}

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

/** Jenkins' schema wants an ISO date-time without zone or fraction; startedAt is UTC. */
function junitTimestamp(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 19);
}

/** The model has no per-requirement duration; use one if the builder adds it, else 0. */
function durationOf(requirement: RequirementReport): number {
  const ms = requirement.durationMs;
  return typeof ms === 'number' && Number.isFinite(ms) ? ms : 0;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : prefix + line))
    .join('\n');
}

function headerLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
}

/** One exchange as plain text: request line, headers, body; then the response or transport error. */
function exchangeText(exchange: Exchange): string {
  const { request, response, error } = exchange;
  const lines = [`${exchange.label} (${exchange.ms} ms)`, `> ${request.method} ${request.url}`];
  lines.push(...headerLines(request.headers).map((h) => `> ${h}`));
  if (request.body !== '') lines.push('>', indent(request.body, '> '));
  if (error) lines.push(`! ${error.code}: ${error.message}`);
  if (response) {
    lines.push(`< HTTP ${response.status}`, ...headerLines(response.headers).map((h) => `< ${h}`));
    if (response.body !== '') lines.push('<', indent(response.body, '< '));
  }
  return lines.join('\n');
}

/** The evidence of a failure as the plain text CI tools show beside a failed test. */
function evidenceText(evidence: Evidence): string {
  const parts = [`[${evidence.check}] ${evidence.message}`];
  if (evidence.expected !== undefined) parts.push(`expected: ${evidence.expected}`);
  if (evidence.actual !== undefined) parts.push(`actual:   ${evidence.actual}`);
  if (evidence.counterexample !== undefined) parts.push(`counterexample:\n${indent(prettyJson(evidence.counterexample), '  ')}`);
  if (evidence.steps !== undefined) parts.push(`steps:\n${indent(evidence.steps.join('\n'), '  ')}`);
  for (const exchange of evidence.exchanges) parts.push(indent(exchangeText(exchange), '  '));
  // The sandbox line first: the others need the sandbox it starts.
  const { sandbox, trigger, curl, replay, run } = evidence.reproduce ?? {};
  const lines = [sandbox, trigger, curl, replay, run].filter((line): line is string => !!line);
  if (lines.length > 0) parts.push('reproduce:', ...lines.map((line) => indent(line, '  ')));
  return parts.join('\n');
}

/** The first line a CI tool shows for a failure: the level's meaning, then what went wrong. */
function failureMessage(requirement: RequirementReport, strict: boolean): string {
  const messages = requirement.evidence.map((e) => e.message);
  if (messages.length === 0) messages.push(...requirement.checks.filter((c) => c.status === 'failed').map((c) => c.message ?? c.title));
  const first = messages[0] ?? 'the requirement does not hold';
  const more = messages.length > 1 ? ` (and ${messages.length - 1} more)` : '';
  const should = strict ? 'SHOULD (fails the run: --strict)' : 'SHOULD (warning)';
  const prefix = { MUST: 'MUST', SHOULD: should, MAY: 'MAY (information)' }[requirement.level];
  // A message read off a schema ("/order_amount: must be string") does not say whose rule it is: this does.
  return `${prefix}: ${first}${more}${decidedText(requirement)}`;
}

function failureBody(requirement: RequirementReport): string {
  const decides = requirement.profileDecides;
  const decided = decides !== undefined ? `${profileDecisionText(decides)} (${ruleReference(decides.rule)})\n\n` : '';
  if (requirement.evidence.length > 0) return decided + requirement.evidence.map(evidenceText).join('\n\n');
  return decided + requirement.checks.map((c) => `[${c.id}] ${c.status}${c.message ? `: ${c.message}` : ''}`).join('\n');
}

function testcase(requirement: RequirementReport, strict: boolean, thrown: Report['kitErrors'] = []): string {
  const open = `    <testcase${attrs({ classname: requirement.section, name: `${requirement.id} ${requirement.title}`, time: seconds(durationOf(requirement)) })}`;
  const holding = (inner: string) => `${open}>\n      ${inner}\n    </testcase>`;
  const kitError = requirement.checks.find((c) => c.status === 'error');
  if (kitError !== undefined && requirement.status !== 'failed') {
    const team = thrown.find((e) => e.check === kitError.id && e.module !== undefined);
    if (team !== undefined) return holding(`<error${attrs({ type: 'team-check', message: `${thrownIn(team)}; ${whoFixes(team)}` })}/>`);
    return holding(
      `<error${attrs({ type: 'kit', message: `the kit's own error in check ${kitError.id}, not the target's: ${kitError.message ?? ''}` })}/>`,
    );
  }
  if (requirement.status === 'skipped') return holding(`<skipped${attrs({ message: requirement.skipReason ?? 'skipped' })}/>`);
  if (requirement.status === 'passed') return `${open}/>`;
  const message = failureMessage(requirement, strict);
  const body = xmlEscape(failureBody(requirement));
  if (requirement.level === 'MAY') return holding(`<system-out>${xmlEscape(message)}\n${body}</system-out>`);
  return holding(`<failure${attrs({ message, type: requirement.level })}>${body}</failure>`);
}

function isKitError(requirement: RequirementReport): boolean {
  return requirement.status !== 'failed' && requirement.checks.some((c) => c.status === 'error');
}

function isSkipped(requirement: RequirementReport): boolean {
  return requirement.status === 'skipped' && !isKitError(requirement);
}

/** A testsuite's counts: an inconclusive run's verdict suite adds one test, an error. */
function counts(requirements: readonly RequirementReport[], extra = 0) {
  return {
    tests: requirements.length + extra,
    failures: requirements.filter(isFailure).length,
    errors: requirements.filter(isKitError).length + extra,
    skipped: requirements.filter(isSkipped).length,
  };
}

function properties(report: Report): string {
  const { coverage, certification: c } = report;
  const each = (name: string, values: readonly string[] = []) => values.map((value): [string, string] => [name, value]);
  const values: Array<[string, string | number | boolean | undefined]> = [
    ['seed', report.seed],
    ['target.baseUrl', report.target.baseUrl],
    ['target.environment', report.target.environment],
    ['target.embeddedSandbox', report.target.embeddedSandbox],
    ['verdict', report.verdict],
    ['verdict.text', verdictText(report)],
    ['coverage', `${coverage.judged} of ${plural(coverage.total, 'requirement')} judged`],
    ['partial', report.verdict === 'conformant' && isPartial(coverage) ? partialText(coverage) : undefined],
    ...each('inconclusive.reason', report.reasons),
    ...each('hint', report.hints),
    ...each('note', report.notes),
    ['strict', report.strict],
    // Two numbers that read as one ("run 91546831 of 20") when put together: said apart.
    ['runNumber', report.runNumber],
    ['casesPerProperty', report.runs],
    ['concurrency', report.concurrency],
    ['tool', `${report.tool.name} ${report.tool.version}`],
    ['profile', c?.profile],
    ['config.fingerprint', c?.config?.fingerprint],
    ['signedBy', c?.signedBy ? `${c.signedBy.algorithm} ${c.signedBy.publicKey}` : undefined],
    ['digest', report.digest || undefined],
  ];
  const rows = values
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `      <property${attrs({ name, value: String(value) })}/>`);
  return `    <properties>\n${rows.join('\n')}\n    </properties>`;
}

/** An inconclusive run's testsuite: one <error> naming why, so CI never sees a clean "0 tests, 0 failures". */
function verdictSuite(report: Report, timestamp: string, props: string): string | undefined {
  if (report.verdict !== 'inconclusive') return undefined;
  const reasons = report.reasons ?? ['the run could not judge the target'];
  const header = attrs({ name: 'Verdict', tests: 1, failures: 0, errors: 1, skipped: 0, time: seconds(0), timestamp });
  const testcase = `    <testcase${attrs({ classname: 'Verdict', name: 'the run could judge the target', time: seconds(0) })}>\n      <error${attrs({ type: 'inconclusive', message: `inconclusive: ${reasons[0]}` })}>${xmlEscape(reasons.join('\n'))}</error>\n    </testcase>`;
  return `  <testsuite${header}>\n${props}\n${testcase}\n  </testsuite>`;
}

export function renderJUnit(report: Report): string {
  const timestamp = junitTimestamp(report.startedAt);
  const props = properties(report);
  const verdict = verdictSuite(report, timestamp, props);
  const suites = [...bySection(report.requirements)].map(([section, requirements]) => {
    const time = seconds(requirements.reduce((sum, r) => sum + durationOf(r), 0));
    const header = attrs({ name: section, ...counts(requirements), time, timestamp });
    return `  <testsuite${header}>\n${props}\n${requirements.map((r) => testcase(r, report.strict, report.kitErrors)).join('\n')}\n  </testsuite>`;
  });
  const name = `svc-conformance ${report.target.baseUrl}`;
  const root = attrs({ name, ...counts(report.requirements, verdict !== undefined ? 1 : 0), time: seconds(report.durationMs), timestamp });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${root}>\n${[...(verdict !== undefined ? [verdict] : []), ...suites].join('\n')}\n</testsuites>\n`;
}
