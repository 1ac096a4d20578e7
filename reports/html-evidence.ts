// A failure's evidence in report.html. Every text goes through `esc`: bodies, headers and messages come from the target.
import { jsonOf } from '../core/json-of.js';
import { visible } from '../common/visible.js';
import type { Exchange } from '../core/exchange.js';
import type { Evidence } from '../core/report.js';
import { pathOf } from '../core/resend-lines.js';
import { prettyJson } from './console.js';

/** Escapes text for HTML content and quoted attribute values. */
export function esc(value: unknown): string {
  // Control and bidi characters from a target are shown as escapes (a raw U+202E reorders the page).
  return visible(String(value), { keepNewlines: true }).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A body as text; JSON laid out over lines for reading (responses only: a request's bytes matter). */
function bodyText(body: string, pretty: boolean): string {
  const json = pretty ? jsonOf(body) : undefined;
  return json === undefined ? body : prettyJson(json);
}

function statusClass(status: number): string {
  return status < 400 ? 'ok' : status < 500 ? 'client' : 'server';
}

function headersBlock(headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${esc(name)}: ${esc(value)}`);
  return lines.length > 0 ? `<pre class="headers">${lines.join('\n')}</pre>` : '';
}

function exchangeHtml(exchange: Exchange): string {
  const { request, response, error } = exchange;
  const outcome = response
    ? `<span class="code ${statusClass(response.status)}">HTTP ${esc(response.status)}</span>`
    : `<span class="code error">${esc(error?.code ?? 'no answer')}</span>`;
  const summary = `<summary><span class="method">${esc(request.method)}</span> <span class="path">${esc(pathOf(request.url))}</span> → ${outcome} <span class="label">${esc(exchange.label)}</span> <span class="ms">${esc(exchange.ms)} ms</span></summary>`;
  const sent = `<div><h4>Request</h4><div class="block"><pre class="start">${esc(request.method)} ${esc(request.url)}</pre>${headersBlock(request.headers)}${request.body === '' ? '' : `<pre>${esc(request.body)}</pre>`}</div></div>`;
  let received: string;
  if (response) {
    const body = response.body === '' ? '<pre class="why">(empty body)</pre>' : `<pre>${esc(bodyText(response.body, true))}</pre>`;
    received = `<div><h4>Response</h4><div class="block"><pre class="start">HTTP ${esc(response.status)}</pre>${headersBlock(response.headers)}${body}</div></div>`;
  } else {
    received = `<div><h4>No response</h4><div class="block"><pre class="start">${esc(error?.code ?? '')}</pre><pre>${esc(error?.message ?? '')}</pre></div></div>`;
  }
  return `<details class="exchange">${summary}<div class="http">${sent}${received}</div></details>`;
}

function reproduceHtml(reproduce: Evidence['reproduce']): string {
  if (!reproduce) return '';
  const blocks: string[] = [];
  // The one-liners first, visible; the longer curl command (the request exactly as sent) one click away.
  if (reproduce.sandbox)
    blocks.push(
      `<p>The run's embedded sandbox stopped with it: start it again first (in another terminal), for the lines below:</p><pre class="cmd">${esc(reproduce.sandbox)}</pre>`,
    );
  if (reproduce.trigger)
    blocks.push(
      `<p>Makes the target send this event again, to the receiver named by <code>--to</code>, started first (the delivery as received is above):</p><pre class="cmd">${esc(reproduce.trigger)}</pre>`,
    );
  if (reproduce.replay)
    blocks.push(`<p>The same request, freshly signed, against your config:</p><pre class="cmd">${esc(reproduce.replay)}</pre>`);
  if (reproduce.run) blocks.push(`<p>This requirement again, with the same seed:</p><pre class="cmd">${esc(reproduce.run)}</pre>`);
  if (reproduce.curl) {
    blocks.push(
      `<details class="curl"${blocks.length === 0 ? ' open' : ''}><summary>curl: the request as sent, its signature (or its deliberate defect) rebuilt for now from the secret's environment variable</summary><pre class="cmd">${esc(reproduce.curl)}</pre></details>`,
    );
  }
  return blocks.length > 0 ? `<div class="reproduce"><h4>Reproduce</h4>${blocks.join('')}</div>` : '';
}

export function evidenceHtml(evidence: Evidence): string {
  const parts = [`<p class="message">${esc(evidence.message)}</p>`, `<p class="check">check <code>${esc(evidence.check)}</code></p>`];
  if (evidence.expected !== undefined || evidence.actual !== undefined) {
    parts.push(
      `<div class="expect"><div class="expected"><h4>Expected</h4><pre>${esc(evidence.expected ?? '—')}</pre></div>` +
        `<div class="actual"><h4>Actual</h4><pre>${esc(evidence.actual ?? '—')}</pre></div></div>`,
    );
  }
  if (evidence.counterexample !== undefined) {
    parts.push(
      `<div class="counterexample"><h4>Counterexample</h4><pre class="block">${esc(prettyJson(evidence.counterexample))}</pre></div>`,
    );
  }
  if (evidence.steps !== undefined) {
    parts.push(
      `<div class="counterexample"><h4>Shortest failing sequence</h4><ol class="steps">${evidence.steps.map((step) => `<li>${esc(step.replace(/^\d+\. /, ''))}</li>`).join('')}</ol></div>`,
    );
  }
  if (evidence.exchanges.length > 0)
    parts.push(`<h4>Exchanges (${evidence.exchanges.length})</h4>`, ...evidence.exchanges.map(exchangeHtml));
  if (evidence.leftOut !== undefined)
    parts.push(
      `<p class="hint" role="note">${evidence.leftOut} earlier exchange${evidence.leftOut === 1 ? '' : 's'} of this check ${evidence.leftOut === 1 ? 'is' : 'are'} not shown; <code>run --har FILE</code> records every exchange of a run.</p>`,
    );
  parts.push(reproduceHtml(evidence.reproduce));
  return `<div class="evidence">${parts.join('')}</div>`;
}
