// Inlined so report.html is one file; status is never colour alone. The matrix filter is CSS only
// (radio buttons and :has()): no script, and a browser without :has() shows every row.
export const REPORT_CSS = `
:root {
  --bg: #f5f6f8; --card: #ffffff; --line: #dde1e6; --text: #1d232b; --muted: #5b6571;
  --pass: #1a7f37; --pass-bg: #e3f6e8; --fail: #c5221f; --fail-bg: #fdecea;
  --warn: #8a5a00; --warn-bg: #fff4cc; --info: #0b63c4; --info-bg: #e3f0fd;
  --skip: #5b6571; --skip-bg: #eceff2; --code-bg: #f3f4f6;
  --mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html { background: var(--bg); }
body { margin: 0; color: var(--text); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", "Liberation Sans", sans-serif; }
a { color: var(--info); }
code, pre, .mono { font-family: var(--mono); font-size: 13px; }
h1, h2, h3, h4 { line-height: 1.25; margin: 0; }
.wrap { max-width: 1180px; margin: 0 auto; padding: 0 24px; }

/* Verdict banner */
.verdict { border-bottom: 1px solid var(--line); padding: 28px 0 24px; }
.verdict.pass { --v: var(--pass); background: linear-gradient(180deg, var(--pass-bg), #f4fbf6); }
.verdict.fail { --v: var(--fail); background: linear-gradient(180deg, var(--fail-bg), #fef6f5); }
.verdict.unsure { --v: var(--warn); background: linear-gradient(180deg, var(--warn-bg), #fffbea); }
.verdict .wrap { display: grid; grid-template-columns: auto 1fr; gap: 8px 20px; align-items: center; }
.verdict .mark { width: 64px; height: 64px; border-radius: 50%; display: grid; place-items: center; color: #fff; background: var(--v); font-size: 34px; font-weight: 700; }
.verdict .eyebrow { margin: 0; color: var(--muted); font-size: 13px; letter-spacing: .04em; text-transform: uppercase; }
.verdict h1 { font-size: 32px; color: var(--v); }
.verdict .partial { font-size: 20px; font-weight: 600; color: var(--warn); }
.verdict .why { margin: 2px 0 0; font-size: 16px; }
.verdict .hint { margin: 8px 0 0; padding: 6px 10px; border-left: 4px solid currentColor; background: rgba(255, 255, 255, .55); font-size: 14px; max-width: 60ch; }
.facts { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 10px 32px; margin: 14px 0 0; }
.facts div { min-width: 0; }
.facts dt { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.facts dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }

/* Counts */
.counts { display: grid; grid-template-columns: repeat(5, 1fr); gap: 12px; margin: 24px 0; }
.count { background: var(--card); border: 1px solid var(--line); border-top: 4px solid var(--c); border-radius: 8px; padding: 12px 16px; text-decoration: none; color: inherit; }
.count .n { display: block; font-size: 30px; font-weight: 700; color: var(--c); line-height: 1.1; }
.count .label { font-weight: 600; }
.count .sub { display: block; color: var(--muted); font-size: 12.5px; }
.count.zero .n { color: var(--muted); }

section { margin: 0 0 32px; }
.cert dd code { overflow-wrap: anywhere; }
.signoff { width: 100%; border-collapse: collapse; margin-top: 12px; }
.signoff th, .signoff td { border: 1px solid #c8ccd2; padding: 6px 8px; text-align: left; }
.signoff td { height: 34px; }
section > h2 { font-size: 21px; margin: 0 0 12px; }
.note { color: var(--muted); margin: -6px 0 12px; }

/* Each status's colours, for its badge (s-), count (c-), failure card (sev-), matrix row (r-) and HTTP status (.code) */
.s-pass, .c-pass, .r-pass, .code.ok { --c: var(--pass); --c-bg: var(--pass-bg); }
.s-fail, .c-fail, .sev-fail, .r-fail, .code.server, .code.error { --c: var(--fail); --c-bg: var(--fail-bg); }
.s-warn, .c-warn, .sev-warn, .r-warn, .code.client { --c: var(--warn); --c-bg: var(--warn-bg); }
.s-info, .c-info, .sev-info, .r-info { --c: var(--info); --c-bg: var(--info-bg); }
.s-skip, .c-skip, .r-skip { --c: var(--skip); --c-bg: var(--skip-bg); }

/* Badges: symbol + text + colour */
.badge { display: inline-block; white-space: nowrap; border-radius: 999px; padding: 1px 10px; font-size: 12.5px; font-weight: 700; border: 1px solid transparent; color: var(--c); background: var(--c-bg); }
.level { font-family: var(--mono); font-size: 11.5px; font-weight: 700; border: 1px solid var(--line); border-radius: 4px; padding: 0 6px; background: var(--card); color: var(--muted); }
.level.MUST { color: var(--text); border-color: #9aa4af; }
.ext { font-size: 11.5px; font-weight: 700; border-radius: 4px; padding: 0 6px; color: #6e40c9; background: #f1ebfd; border: 1px solid #d8c8f7; }
.rules { color: var(--muted); font-family: var(--mono); font-size: 12px; }
.statement { margin: 6px 0 0; color: var(--muted); font-size: 14px; max-width: 80ch; }
.rule-texts > div { margin: 0 0 10px; scroll-margin-top: 12px; }
.rule-texts dt { font-family: var(--mono); font-weight: 600; }
.rule-texts dd { margin: 2px 0 0 0; max-width: 90ch; }
.rule-texts > div:target { background: rgba(255, 214, 0, .18); }

/* Skipped: what to add to the config */
.skips { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 14px 18px; }
.skips h2 { font-size: 17px; margin-bottom: 6px; }
.skips ul { margin: 0; padding-left: 20px; }
.skips li { margin: 3px 0; }
.skips .ids { color: var(--muted); font-size: 13px; }
.skips code, td .why code { background: var(--code-bg); border: 1px solid var(--line); border-radius: 4px; padding: 0 4px; font-size: 12.5px; }

/* Failure cards */
.failure { background: var(--card); border: 1px solid var(--line); border-left: 5px solid var(--c); border-radius: 8px; margin: 0 0 16px; padding: 16px 20px; }
.failure.sev-info .expect .actual { background: var(--info-bg); border-color: #b9d6f7; }
.decided { flex-basis: 100%; margin: 6px 0 0; font-size: 14px; max-width: 80ch; }
.failure > header { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px; }
.failure > header h3 { font-size: 17px; flex: 1 1 320px; }
.failure .req-id { font-weight: 700; font-size: 14px; }
.evidence { border-top: 1px dashed var(--line); margin-top: 14px; padding-top: 12px; }
.evidence .message { font-size: 16px; font-weight: 600; margin: 0 0 2px; overflow-wrap: anywhere; }
.evidence .check { color: var(--muted); font-size: 13px; margin: 0 0 10px; }
.expect { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; margin: 0 0 12px; }
.expect > div { border-radius: 6px; padding: 8px 12px; border: 1px solid var(--line); min-width: 0; }
.expect .expected { background: var(--pass-bg); border-color: #b7e3c3; }
.expect .actual { background: var(--fail-bg); border-color: #f5c2bd; }
h4 { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 0 0 4px; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.expect pre { font-size: 13.5px; }
.block { background: var(--code-bg); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; max-height: 420px; overflow: auto; }
.counterexample { margin: 0 0 12px; }

details.exchange { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 8px; background: #fbfbfc; }
details.exchange > summary { cursor: pointer; padding: 8px 12px; display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; list-style: none; }
details.exchange > summary::-webkit-details-marker { display: none; }
details.exchange > summary::before { content: "▸"; color: var(--muted); width: 1em; }
details.exchange[open] > summary::before { content: "▾"; }
details.exchange > summary:hover { background: #f0f3f6; }
details.exchange[open] > summary { border-bottom: 1px solid var(--line); }
summary .method { font-family: var(--mono); font-weight: 700; }
summary .path { font-family: var(--mono); overflow-wrap: anywhere; }
summary .label, summary .ms { color: var(--muted); font-size: 13px; }
.code { font-family: var(--mono); font-weight: 700; border-radius: 4px; padding: 0 6px; color: var(--c); background: var(--c-bg); }
.http { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; padding: 12px; }
.http > div { min-width: 0; }
.http .start { font-weight: 700; }
.http .headers { color: #3b4450; margin: 4px 0 8px; }

.reproduce { margin-top: 12px; }
.reproduce .cmd { position: relative; }
.reproduce p { margin: 8px 0 4px; font-size: 13px; color: var(--muted); }
.reproduce details.curl { margin-top: 8px; }
.reproduce details.curl > summary { cursor: pointer; font-size: 13px; color: var(--info); margin: 0 0 6px; }
.reproduce pre { background: #1f2430; color: #e6e9ef; border-radius: 6px; padding: 10px 12px; user-select: all; -webkit-user-select: all; }

/* Requirement matrix */
.filters { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 14px; }
.filters input { position: absolute; opacity: 0; pointer-events: none; }
.filters label { border: 1px solid var(--line); background: var(--card); border-radius: 999px; padding: 3px 14px; cursor: pointer; font-size: 14px; }
.filters input:checked + label { background: var(--text); color: #fff; border-color: var(--text); }
.filters input:focus-visible + label { outline: 2px solid var(--info); outline-offset: 2px; }
.group { background: var(--card); border: 1px solid var(--line); border-radius: 8px; margin: 0 0 14px; overflow: hidden; }
.group h3 { font-size: 16px; padding: 10px 14px; background: #fafbfc; border-bottom: 1px solid var(--line); display: flex; gap: 10px; align-items: baseline; }
.group h3 .tally { color: var(--muted); font-weight: 400; font-size: 13px; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
col.w-id { width: 280px; } col.w-level { width: 84px; } col.w-rules { width: 180px; } col.w-status { width: 176px; }
th, td { text-align: left; vertical-align: top; padding: 7px 14px; border-bottom: 1px solid #eef0f3; }
tr:last-child td { border-bottom: 0; }
th { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; font-weight: 600; }
td.id { font-family: var(--mono); font-size: 13px; overflow-wrap: anywhere; }
td.status { white-space: nowrap; }
td .why { display: block; color: var(--muted); font-size: 13px; }
td.id a { font-weight: 700; color: var(--c); }
body:has(#show-failed:checked) .group tr[data-status]:not([data-status="failed"]),
body:has(#show-skipped:checked) .group tr[data-status]:not([data-status="skipped"]),
body:has(#show-passed:checked) .group tr[data-status]:not([data-status="passed"]) { display: none; }
body:has(#show-failed:checked) .group:not(:has(tr[data-status="failed"])),
body:has(#show-skipped:checked) .group:not(:has(tr[data-status="skipped"])),
body:has(#show-passed:checked) .group:not(:has(tr[data-status="passed"])) { display: none; }

footer { color: var(--muted); font-size: 13px; padding: 8px 0 40px; }
@media (max-width: 820px) {
  table { table-layout: auto; }
  col.w-id, col.w-level, col.w-rules, col.w-status { width: auto; }
  .counts { grid-template-columns: repeat(2, 1fr); }
  .expect, .http { grid-template-columns: 1fr; }
}
@media print {
  .filters { display: none; }
  .failure, .group { break-inside: avoid; }
}
`;
