import type { Diagnosis, Divergence } from './diagnose.js';
import { FIXES, VARIANTS, type VariantId } from './variants.js';

const WINDOW = 28;

/** The diagnosis as a person reads it in a terminal. Never prints the secret. */
export function formatDiagnosis(d: Diagnosis): string {
  const lines: string[] = [];
  const { detail } = d;
  if (d.match) {
    lines.push("✓ signature matches: it is the profile's signature of this body and timestamp (P-SIGN-2)");
  } else if (d.variants.length > 0) {
    lines.push(`✗ signature mismatch, explained by: ${d.variants.join(' + ')}`);
    for (const id of d.variants) lines.push(...describeVariant(id));
    if (detail.divergence !== undefined) lines.push('', ...formatDivergence(detail.divergence));
    else if (detail.sentDivergence === undefined)
      lines.push('', '  The signed text is the canonical one; the difference is in the key or the digest encoding.');
    if (detail.sentDivergence !== undefined) lines.push('', ...formatDivergence(detail.sentDivergence, SENT_LABELS));
    if (d.candidates.length > 0) lines.push('', '  Also consistent with:', ...d.candidates.map((c) => `    ${c.join(' + ')}`));
  } else {
    lines.push('✗ signature mismatch, and no known variant explains it');
    lines.push(
      `  Ruled out: ${detail.tried.texts} serializations of the body (key order, escaping, whitespace, number format,`,
      `  trailing newline) × timestamp placement and units × secret forms: ${detail.tried.messages} signed messages.`,
    );
    if (detail.likelyCauses.length > 0) {
      lines.push('  Likeliest causes:', ...detail.likelyCauses.map((c, i) => `    ${i + 1}. ${c}`));
    }
  }
  for (const warning of detail.warnings) lines.push(`  note: ${warning}`);
  if (!d.match) {
    lines.push('', `  canonical text:     ${preview(detail.canonical)}`, `  expected signature: ${detail.expectedSignature}`);
  }
  return lines.join('\n') + '\n';
}

function describeVariant(id: VariantId): string[] {
  const fix = FIXES[id];
  return [`    ${id}: ${VARIANTS[id]}`, ...(fix ? [`      fix: ${fix}`] : [])];
}

type DivergenceLabels = Record<'heading' | 'expected' | 'actual', string>;

// "Sender": the client of a request or the gateway of a webhook delivery; diagnose explains both.
const SIGNED_LABELS: DivergenceLabels = {
  heading: "The sender's signed text parts from the canonical message",
  expected: 'canonical',
  actual: 'sender',
};
const SENT_LABELS: DivergenceLabels = {
  heading: 'The bytes sent part from the text the sender signed',
  expected: 'signed',
  actual: 'sent',
};

/** Shows the bytes around the first difference, one above the other, with a caret under it. */
function formatDivergence(div: Divergence, labels: DivergenceLabels = SIGNED_LABELS): string[] {
  const start = Math.max(0, div.index - WINDOW);
  const lead = start > 0 ? '…' : '';
  const expected = lead + visible(div.expected.slice(start, div.index + WINDOW));
  const actual = lead + visible(div.actual.slice(start, div.index + WINDOW));
  const caret = ' '.repeat(lead.length + div.index - start) + '^';
  const width = Math.max(labels.expected.length, labels.actual.length) + 2;
  return [
    `  ${labels.heading} at byte ${div.byteOffset}:`,
    `    ${labels.expected.padEnd(width)}${expected}`,
    `    ${labels.actual.padEnd(width)}${actual}`,
    `    ${' '.repeat(width)}${caret}`,
  ];
}

/** Control characters made visible one-for-one, so the caret still lines up. */
function visible(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]/g, (ch) => (ch === '\n' ? '↵' : ch === '\r' ? '␍' : ch === '\t' ? '⇥' : '·'));
}

function preview(text: string): string {
  if (text === '') return '(empty: a request without a body signs "" + timestamp)';
  return text.length > 120 ? visible(text.slice(0, 117)) + '…' : visible(text);
}
