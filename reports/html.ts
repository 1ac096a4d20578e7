// report.html: one self-contained page (no script, no external asset): the verdict, what failed with
// its evidence, every requirement. Every text goes through `esc`: bodies and messages are the target's.
import { plural } from '../common/plural.js';
import { esc, evidenceHtml } from './html-evidence.js';
import { REPORT_CSS } from './html-style.js';
import { thrownIn, whoFixes } from '../core/check-error.js';
import { profileDecisionText, ruleTexts } from './rule-text.js';
import type { Report, RequirementReport } from '../core/report.js';
import { isFailure, isMayNotHeld, isPartial, partialText, verdictText } from '../core/verdict.js';
import { bySection, hasSeed, notJudgedByReason } from './console.js';

/** How a requirement's outcome is shown: symbol and word (never colour alone) and a colour class. */
interface Shown {
  symbol: string;
  word: string;
  css: 'pass' | 'fail' | 'warn' | 'info' | 'skip';
}

function shown(requirement: RequirementReport, strict: boolean): Shown {
  if (requirement.status === 'passed') return { symbol: '✓', word: 'Pass', css: 'pass' };
  if (requirement.status === 'skipped') return { symbol: '–', word: 'Skipped', css: 'skip' };
  if (requirement.level === 'MUST') return { symbol: '✗', word: 'Fail', css: 'fail' };
  if (requirement.level === 'SHOULD')
    return strict ? { symbol: '✗', word: 'Fail (strict)', css: 'fail' } : { symbol: '!', word: 'Warning', css: 'warn' };
  return { symbol: 'ℹ', word: 'Not held (MAY)', css: 'info' };
}

function badge(s: Shown): string {
  return `<span class="badge s-${s.css}">${s.symbol} ${esc(s.word)}</span>`;
}

/** An element id for a requirement or a profile rule: rules link within the page ("Profile rules cited"), as a report
 * read from a CI artifact has nothing else to link to. */
function anchor(kind: 'req' | 'rule', id: string): string {
  return `${kind}-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

function ruleLink(rule: string, texts: ReadonlyMap<string, string>): string {
  return texts.has(rule) ? `<a href="#${anchor('rule', rule)}">${esc(rule)}</a>` : esc(rule);
}

function rules(requirement: RequirementReport): string {
  return requirement.profile.map((rule) => ruleLink(rule, ruleTexts())).join(' ');
}

/** The profile rule deciding a point the interface leaves open: a schema failure alone does not say whose rule it is. */
function decisionHtml(requirement: RequirementReport): string {
  const decides = requirement.profileDecides;
  if (decides === undefined) return '';
  const text = profileDecisionText(decides);
  const at = text.indexOf(decides.rule);
  const [before, after] = [text.slice(0, at), text.slice(at + decides.rule.length)];
  return `<p class="decided">${esc(before.replace(/^./, (c) => c.toUpperCase()))}${ruleLink(decides.rule, ruleTexts())}${esc(after)}</p>`;
}

/** The requirement's longer statement, when the title is not all of it. */
function statementHtml(requirement: RequirementReport): string {
  return requirement.statement === undefined ? '' : `<p class="statement">${esc(requirement.statement)}</p>`;
}

/** Every profile rule the report's requirements cite, with its text, in the profile's order. */
function rulesSection(report: Report): string {
  const cited = new Set(report.requirements.flatMap((r) => r.profile));
  const texts = [...ruleTexts()].filter(([rule]) => cited.has(rule));
  if (texts.length === 0) return '';
  const profile = report.certification?.profile ?? 'the conformance profile';
  // The profile's `code spans` set as code; esc leaves backticks alone, so this adds no markup of the text's own.
  const items = texts
    .map(
      ([rule, text]) =>
        `<div id="${anchor('rule', rule)}"><dt>${esc(rule)}</dt><dd>${esc(text).replace(/`([^`]+)`/g, '<code>$1</code>')}</dd></div>`,
    )
    .join('');
  return `<section id="rules"><h2>Profile rules cited (${texts.length})</h2><p class="note">As ${esc(profile)} states them, from the docs shipped with ${esc(report.tool.name)} ${esc(report.tool.version)}.</p><dl class="rule-texts">${items}</dl></section>`;
}

/** A skip reason with its config key set in code type, e.g. "needs <code>fixtures.payouts.PENDING</code> in the config". */
function skipReasonHtml(reason: string | undefined): string {
  const match = /^(.*?\bneeds )(\S+)( in the config.*)$/s.exec(reason ?? '');
  return match ? `${esc(match[1])}<code>${esc(match[2])}</code>${esc(match[3])}` : esc(reason ?? 'no reason recorded');
}

function metaBadges(requirement: RequirementReport): string {
  const ext = requirement.extension ? ' <span class="ext" title="rests on the profile\'s P-OPS operations">extension</span>' : '';
  return `<span class="level ${esc(requirement.level)}">${esc(requirement.level)}</span> <span class="rules">${rules(requirement)}</span>${ext}`;
}

function failureCard(requirement: RequirementReport, strict: boolean): string {
  const s = shown(requirement, strict);
  const header = `<header>${badge(s)} <code class="req-id">${esc(requirement.id)}</code><h3>${esc(requirement.title)}</h3>${metaBadges(requirement)}${statementHtml(requirement)}${decisionHtml(requirement)}</header>`;
  const failedChecks = requirement.checks.filter((c) => c.status === 'failed');
  const body =
    requirement.evidence.length > 0
      ? requirement.evidence.map(evidenceHtml).join('')
      : `<div class="evidence">${failedChecks.map((c) => `<p class="message">${esc(c.message ?? c.title)}</p><p class="check">check <code>${esc(c.id)}</code></p>`).join('') || '<p class="message">No evidence was recorded.</p>'}</div>`;
  return `<article class="failure sev-${s.css}" id="${anchor('req', requirement.id)}">${header}${body}</article>`;
}

/** What the matrix's filters see: a MAY that does not hold is information, never among "Failed". */
function rowStatus(requirement: RequirementReport): string {
  return isMayNotHeld(requirement) ? 'not-held' : requirement.status;
}

function matrixRow(requirement: RequirementReport, strict: boolean): string {
  const id =
    requirement.status === 'failed' ? `<a href="#${anchor('req', requirement.id)}">${esc(requirement.id)}</a>` : esc(requirement.id);
  const why = requirement.status === 'skipped' ? `<span class="why">Skipped: ${skipReasonHtml(requirement.skipReason)}</span>` : '';
  const ext = requirement.extension ? ' <span class="ext">extension</span>' : '';
  return (
    `<tr data-status="${esc(rowStatus(requirement))}" class="r-${shown(requirement, strict).css}"><td class="id">${id}</td><td>${esc(requirement.title)}${ext}${statementHtml(requirement)}${why}</td>` +
    `<td><span class="level ${esc(requirement.level)}">${esc(requirement.level)}</span></td><td class="rules">${rules(requirement)}</td>` +
    `<td class="status">${badge(shown(requirement, strict))}</td></tr>`
  );
}

const TALLY = { pass: 'passed', fail: 'failed', warn: 'warned', info: 'MAY not held', skip: 'skipped' } as const;

/** What judged the report and how, its digest, and a block for the people who sign it off. */
function certificationSection(report: Report): string {
  const c = report.certification;
  const rows: Array<[string, string]> = [['Kit', `${report.tool.name} ${report.tool.version}`]];
  if (c) {
    rows.push(['Profile', c.profile]);
    for (const catalog of c.catalogs) rows.push([`Catalog ${catalog.file}`, catalog.digest]);
    if (c.config) rows.push(['Configuration (secrets removed)', c.config.fingerprint]);
    const options = Object.entries(c.options)
      .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
      .join(', ');
    if (options) rows.push(['Options', options]);
    if (c.signedBy) rows.push(['Signed by (Ed25519 public key)', c.signedBy.publicKey]);
  }
  if (report.digest) rows.push(['Report digest', report.digest]);
  const dl = rows.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd><code>${esc(v)}</code></dd></div>`).join('');
  // What each check shows, and no more: a digest anyone can recompute; a signature only the key's holder can make.
  const check = c?.signedBy
    ? `<p>report.json.sig is the signature of report.json by that key: <code>svc-conformance verify-report report.json --public-key pub.pem</code> shows the report was not changed since the key's holder signed it (not that the run itself was honest).</p>`
    : report.digest
      ? `<p>Unsigned: <code>svc-conformance verify-report report.json --allow-unsigned</code> recomputes the digest, which finds an accidental change, not who wrote the report. A run given <code>--sign-key</code> signs it.</p>`
      : '';
  const signoff =
    '<table class="signoff"><thead><tr><th>Reviewed by</th><th>Role</th><th>Date</th><th>Signature</th></tr></thead><tbody><tr><td></td><td></td><td></td><td></td></tr><tr><td></td><td></td><td></td><td></td></tr></tbody></table>';
  return `<section id="certification"><h2>Certification</h2><dl class="facts cert">${dl}</dl>${check}${signoff}</section>`;
}

function matrix(report: Report): string {
  const groups = [...bySection(report.requirements)].map(([section, list]) => {
    const tally = Object.entries(TALLY)
      .map(([css, word]) => [list.filter((r) => shown(r, report.strict).css === css).length, word] as const)
      .filter(([n]) => n > 0)
      .map(([n, word]) => `${n} ${word}`)
      .join(' · ');
    // The console counts a section's checks; here the count is of requirements, and says so.
    const counted = `${plural(list.length, 'requirement')}: ${tally}`;
    const rows = list.map((r) => matrixRow(r, report.strict)).join('');
    return `<div class="group"><h3>${esc(section)} <span class="tally">${counted}</span></h3><table><colgroup><col class="w-id"><col><col class="w-level"><col class="w-rules"><col class="w-status"></colgroup><thead><tr><th>ID</th><th>Requirement</th><th>Level</th><th>Profile rules</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  });
  const filters = ['all', 'failed', 'skipped', 'passed']
    .map(
      (f) =>
        `<input type="radio" name="show" id="show-${f}"${f === 'all' ? ' checked' : ''}><label for="show-${f}">${f === 'all' ? 'All' : f[0]!.toUpperCase() + f.slice(1)}</label>`,
    )
    .join('');
  return `<section id="matrix"><h2>All requirements (${report.requirements.length})</h2><div class="filters" role="group" aria-label="Show">${filters}</div>${groups.join('')}</section>`;
}

function skippedSummary(report: Report): string {
  const byReason = notJudgedByReason(report, (r) => r.skipReason ?? 'no reason recorded');
  if (byReason.size === 0) return '';
  const items = [...byReason].map(
    ([reason, ids]) =>
      `<li><strong>${skipReasonHtml(reason)}</strong> <span class="ids">— ${plural(ids.length, 'requirement')}: ${esc(ids.join(', '))}</span></li>`,
  );
  return `<section class="skips" id="skipped"><h2>Not judged (${report.coverage.total - report.coverage.judged} of ${report.coverage.total}): why, and what would enable them</h2><ul>${items.join('')}</ul></section>`;
}

function counts(report: Report): string {
  const may = report.requirements.filter(isMayNotHeld).length;
  // A card links to its section only where the page has one (no failures, or only not-applicable
  // skips, leave theirs out): otherwise to the matrix, which lists every requirement.
  const failures = report.requirements.some(isFailure) ? '#failures' : '#matrix';
  const cards: Array<[string, number, string, string, string]> = [
    ['pass', report.summary.passed, 'Passed', 'requirements that hold', '#matrix'],
    ['fail', report.summary.failed, 'Failed', 'MUST: these fail the run', failures],
    ['warn', report.summary.warned, 'Warned', report.strict ? 'SHOULD: fail the run (--strict)' : 'SHOULD: warnings only', failures],
    ['info', may, 'MAY not held', 'information only', may > 0 ? '#information' : '#matrix'],
    // The coverage's count, as the "Not judged" section and a partial verdict give it.
    ['skip', report.coverage.notJudged.length, 'Not judged', 'skipped or left out', skippedSummary(report) === '' ? '#matrix' : '#skipped'],
  ];
  const html = cards.map(
    ([css, n, label, sub, href]) =>
      `<a class="count c-${css}${n === 0 ? ' zero' : ''}" href="${href}"><span class="n">${n}</span><span class="label">${esc(label)}</span><span class="sub">${esc(sub)}</span></a>`,
  );
  return `<nav class="counts" aria-label="Counts">${html.join('')}</nav>`;
}

/** The headline's words: the same verdict as every other form (core/verdict.ts decides it). */
function headline(report: Report): string {
  return report.verdict === 'conformant' ? 'Conformant' : report.verdict === 'not-conformant' ? 'Not conformant' : 'Inconclusive';
}

function verdictBanner(report: Report): string {
  const pass = report.verdict === 'conformant';
  const unsure = report.verdict === 'inconclusive';
  const { failed, warned } = report.summary;
  let why: string;
  if (unsure) {
    why = `The run could not judge the target: ${(report.reasons ?? ['no reason recorded']).join('; ')}. This is not a verdict about the target.`;
  } else if (!pass) {
    why = [
      failed > 0 ? `${plural(failed, 'MUST requirement')} failed` : '',
      report.strict && warned > 0 ? `${plural(warned, 'SHOULD requirement')} failed under --strict` : '',
    ]
      .filter(Boolean)
      .join(', and ');
    why = why === '' ? 'The run did not conform.' : `${why}.`;
  } else {
    why = `Every MUST requirement that ran holds${warned > 0 ? `; ${plural(warned, 'SHOULD warning')} to look at` : ''}.`;
    if (isPartial(report.coverage))
      why += ` Only ${report.coverage.judged} of ${plural(report.coverage.total, 'requirement')} were judged: the rest are listed under "Not judged".`;
  }
  if (report.target.embeddedSandbox && !report.client)
    why += " This run certified the kit's own embedded reference sandbox, not a deployment.";
  // A client's or a receiver's judgement has no seed and no property cases: it shows what was judged instead.
  const run = hasSeed(report);
  const { client, receiver, target, concurrency } = report;
  const facts: Array<[string, string | undefined]> = [
    ['Client', client?.command],
    ['Requests judged', client && String(client.requests)],
    ['Scenarios', client && (client.scenarios.join(', ') || 'none')],
    ['Requests not from the client (not judged)', client?.foreignRequests ? String(client.foreignRequests) : undefined],
    ['Client exit status', client && (client.exitCode === null ? 'stopped by the kit' : String(client.exitCode))],
    ['Webhook receiver', receiver && `${receiver.url} (${plural(receiver.deliveries, 'delivery', 'deliveries')})`],
    [
      'Target',
      run ? target.baseUrl + (target.embeddedSandbox ? ": the kit's own embedded reference sandbox, not a deployment" : '') : undefined,
    ],
    ['Sandbox', client && `${target.baseUrl}: the kit's recording sandbox`],
    ['Environment', target.environment],
    ['Seed', run ? String(report.seed) : undefined],
    ['Started', formatDate(report.startedAt)],
    ['Duration', formatDuration(report.durationMs)],
    ['Strict', report.strict ? 'yes: SHOULD failures fail the run' : 'no'],
    ['Cases per property', run ? String(report.runs) : undefined],
    [
      'Concurrency',
      concurrency === undefined ? undefined : concurrency === 1 ? 'one request at a time' : `up to ${concurrency} requests in flight`,
    ],
  ];
  const dl = facts
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`)
    .join('');
  const hints =
    (report.hints ?? []).map((hint) => `<p class="hint" role="note"><strong>One likely cause:</strong> ${esc(hint)}</p>`).join('') +
    (report.notes ?? []).map((note) => `<p class="hint" role="note"><strong>Note:</strong> ${esc(note)}</p>`).join('') +
    (report.kitErrors ?? [])
      .map((e) =>
        e.module !== undefined
          ? `<p class="hint kit-error" role="alert"><strong>A team check's own error, not the target's fault:</strong> ${esc(thrownIn(e))}. That requirement (${esc(e.requirement)}) was not judged: ${esc(whoFixes(e))}.</p>`
          : `<p class="hint kit-error" role="alert"><strong>Kit error, not the target's fault:</strong> check <code>${esc(e.check)}</code> (${esc(e.requirement)}) failed in the kit's own code: ${esc(e.message)}. That requirement was not judged.</p>`,
      )
      .join('');
  return (
    `<header class="verdict ${pass ? 'pass' : unsure ? 'unsure' : 'fail'}" id="verdict"><div class="wrap"><div class="mark" aria-hidden="true">${pass ? '✓' : unsure ? '?' : '✗'}</div>` +
    `<div><p class="eyebrow">${esc(report.tool.name)} ${esc(report.tool.version)} · conformance report</p><h1>${headline(report)}${pass && isPartial(report.coverage) ? ` <span class="partial">· ${esc(partialText(report.coverage))}</span>` : ''}</h1><p class="why">${esc(why)}</p>${hints}</div>` +
    `<dl class="facts">${dl}</dl></div></header>`
  );
}

const SEVERITY = { fail: 0, warn: 1, info: 2, pass: 3, skip: 3 } as const;

/** What the failure cards count: only MUSTs are "Failed"; SHOULDs are "Warned" (or failed under --strict). */
function failureBreakdown({ summary, strict }: Report): string {
  const parts = [
    summary.failed > 0 ? `${plural(summary.failed, 'MUST requirement')} failed` : '',
    summary.warned > 0 ? `${plural(summary.warned, 'SHOULD requirement')} ${strict ? 'failed under --strict' : 'warned'}` : '',
  ];
  return parts.filter(Boolean).join(' and ');
}

export function renderHtml(report: Report): string {
  // Most severe first; sort is stable, so the report's order within each.
  const severity = (r: RequirementReport) => SEVERITY[shown(r, report.strict).css];
  const failures = report.requirements
    .filter(isFailure)
    .sort((a, b) => severity(a) - severity(b))
    .map((r) => failureCard(r, report.strict));
  const failureSection =
    failures.length > 0
      ? `<section id="failures"><h2>Failures and warnings (${failures.length})</h2><p class="note">${esc(failureBreakdown(report))}, most severe first. Open an exchange to see the request and the answer.</p>${failures.join('')}</section>`
      : '';
  const notHeld = report.requirements.filter(isMayNotHeld).map((r) => failureCard(r, report.strict));
  const informationSection =
    notHeld.length > 0
      ? `<section id="information"><h2>Information: MAY not held (${notHeld.length})</h2><p class="note">What the profile allows a server either way: reported so you know, never a failure, and never part of the verdict.</p>${notHeld.join('')}</section>`
      : '';
  const title = `${verdictText(report).replace(/^./, (c) => c.toUpperCase())}: ${report.target.baseUrl} · svc-conformance`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
${verdictBanner(report)}
<main class="wrap">
${counts(report)}
${failureSection}
${informationSection}
${skippedSummary(report)}
${matrix(report)}
${rulesSection(report)}
${certificationSection(report)}
</main>
<footer class="wrap">${hasSeed(report) ? `Seed ${esc(report.seed)}: the same seed sends the same requests. ` : ''}Generated by ${esc(report.tool.name)} ${esc(report.tool.version)}; secrets, the signatures the kit made and any right signature are redacted (a webhook delivery's wrong X-SIGNATURE is shown: it is what HOOK-SIGNATURE judges).</footer>
</body>
</html>
`;
}
