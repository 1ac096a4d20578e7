import type { Requirement } from '../core/report.js';
import type { Section } from './sections.js';

/** The anchor docs/interface.md gives an interface section: "Create Order" → section-create-order. */
function sectionAnchor(section: string): string {
  return `section-${section
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
}

/** Requirements that are the profile's own (v1.2), not an interface section: linked to their family's first rule in docs/profile.md. */
const PROFILE_GROUPS: Readonly<Record<string, string>> = {
  'Records over time': 'P-STATE-1',
  Wallet: 'P-MONEY-1',
  Isolation: 'P-TENANT-1',
  Wire: 'P-HTTP-1',
};

function groupLine(r: Requirement): string {
  const extension = r.extension
    ? ` (an extension: rests on the profile's ${r.section === 'Webhooks' ? 'P-HOOK webhooks' : 'P-OPS operations'}, not on the interface alone)`
    : '';
  const rule = PROFILE_GROUPS[r.section];
  if (rule !== undefined) return `- Group: ${r.section}, the profile's [${rule.replace(/-\d+$/, '')}](profile.md#${rule})${extension}`;
  return `- Interface section: [${r.section}](interface.md#${sectionAnchor(r.section)})${extension}`;
}

/** A requirement's anchor, heading, statement, level and rules. */
function entry(r: Requirement): string[] {
  const rules = r.profile.map((rule) => `[${rule}](profile.md#${rule})`).join(', ') || '—';
  return [
    `<a id="${r.id}"></a>`,
    `### ${r.id} (${r.level})`,
    '',
    r.statement ?? r.title,
    '',
    `- Level: ${r.level}`,
    `- Profile rules: ${rules}`,
  ];
}

/** A catalog judged by another command than run (verify-client, verify-receiver), listed after the server's. */
interface JudgedCatalog {
  title: string;
  description: string;
  requirements: readonly Requirement[];
}

/** docs/requirements.md from suites/catalog.json and the checks; `npm run docs` writes it, and a test fails when the file differs. */
export function requirementsMarkdown(
  requirements: readonly Requirement[],
  sections: readonly Section[],
  description: string,
  others: readonly JudgedCatalog[] = [],
): string {
  const checksOf = new Map<string, string[]>();
  for (const section of sections)
    for (const c of section.checks) checksOf.set(c.requirement, [...(checksOf.get(c.requirement) ?? []), `\`${c.id}\`: ${c.title}`]);
  const counts = { MUST: 0, SHOULD: 0, MAY: 0 };
  for (const r of requirements) counts[r.level] += 1;
  const out = [
    '<!-- Generated from suites/catalog.json, clients/catalog.json and clients/receiver-catalog.json by `npm run docs`; do not edit by hand (a test fails when it is stale). -->',
    '# Requirement reference',
    '',
    description,
    '',
    `${requirements.length} requirements: ${counts.MUST} MUST, ${counts.SHOULD} SHOULD, ${counts.MAY} MAY. A MUST that fails fails the run; a SHOULD`,
    'fails it only under `--strict`; a MAY is reported and never fails it. Rules are in [profile.md](profile.md), sections in',
    '[interface.md](interface.md). `svc-conformance run --only ID` runs one requirement.',
    '',
  ];
  let section = '';
  for (const r of requirements) {
    if (r.section !== section) {
      section = r.section;
      out.push(`## ${section}`, '');
    }
    const decides = r.profileDecides;
    out.push(
      ...entry(r),
      ...(decides !== undefined
        ? [`- The interface does not say; [${decides.rule}](profile.md#${decides.rule}) decides: ${decides.decision}`]
        : []),
      groupLine(r),
      `- Checks: ${(checksOf.get(r.id) ?? []).join('; ') || 'none'}`,
      '',
    );
  }
  for (const other of others) {
    out.push(`## ${other.title}`, '', other.description, '');
    for (const r of other.requirements) out.push(...entry(r), `- Group: ${r.section}${r.extension ? ' (an extension)' : ''}`, '');
  }
  return out.join('\n');
}

/** The client and receiver catalogs as docs/requirements.md lists them, read with `read(path)` from the package root. */
export function judgedCatalogs(read: (file: string) => { description: string; requirements: Requirement[] }): JudgedCatalog[] {
  const catalogs = [
    ['clients/catalog.json', 'Client requirements (verify-client)'],
    ['clients/receiver-catalog.json', 'Webhook receiver requirements (verify-receiver, verify-client --webhook-url)'],
  ] as const;
  return catalogs.map(([file, title]) => ({ ...read(file), title }));
}
