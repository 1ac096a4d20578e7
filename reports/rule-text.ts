import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../common/package-root.js';
import type { ProfileDecision } from '../core/report.js';

/** Each profile rule's text from the shipped docs/profile.md: a report opened from a CI artifact has no docs beside it. */
let cached: ReadonlyMap<string, string> | undefined;

/** Markdown made plain: links to their words, emphasis and anchors dropped; code spans kept as written. */
function plain(markdown: string): string {
  return markdown
    .replace(/<a id="[^"]*"><\/a>/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\*\*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Each rule's text by id, from a profile written as docs/profile.md is: a list item or a heading per rule. */
function parseRuleTexts(markdown: string): Map<string, string> {
  const texts = new Map<string, string>();
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const item = /^- <a id="(P-[A-Z0-9-]+)"><\/a>(.*)$/.exec(lines[i]!);
    const heading = /^#+ <a id="(P-[A-Z0-9-]+)"><\/a>(.*)$/.exec(lines[i]!);
    if (heading) texts.set(heading[1]!, plain(heading[2]!));
    if (!item) continue;
    // A list item goes on over the indented lines below it.
    const parts = [item[2]!];
    while (i + 1 < lines.length && /^ {2}\S/.test(lines[i + 1]!)) parts.push(lines[++i]!);
    // The text without its own id, which the report shows beside it.
    texts.set(item[1]!, plain(parts.join(' ')).replace(`${item[1]!} `, ''));
  }
  return texts;
}

/** The rule texts of the profile shipped with the kit; empty when the package has no docs/profile.md. */
export function ruleTexts(): ReadonlyMap<string, string> {
  if (cached !== undefined) return cached;
  let markdown = '';
  try {
    markdown = readFileSync(join(packageRoot(), 'docs', 'profile.md'), 'utf8');
  } catch {
    // An install without docs: the report names each rule without its text.
  }
  return (cached = parseRuleTexts(markdown));
}

/** Where the kit states a profile rule, relative to the package root (as a requirement's `reference` is). */
export function ruleReference(rule: string): string {
  return `docs/profile.md#${rule}`;
}

/** "the interface does not say; profile rule P-OPS-1 decides: …", the same words in every form. */
export function profileDecisionText(decides: ProfileDecision): string {
  return `the interface does not say; profile rule ${decides.rule} decides: ${decides.decision}`;
}
