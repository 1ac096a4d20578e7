import { clientCatalog } from '../../clients/judge.js';
import { plural } from '../../common/plural.js';
import { receiverCatalog } from '../../clients/receiver-judge.js';
import { loadConfig } from '../../suites/config.js';
import { catalog } from '../../suites/catalog.js';
import { SECTIONS } from '../../suites/sections.js';
import { loadTeamChecks, type TeamChecks } from '../../suites/team-checks.js';
import { UsageError } from '../io.js';
import { defineCommand } from '../options.js';
import type { Requirement } from '../../core/report.js';

/** The three catalogs, each with the command that judges it, in the order list shows them. */
const KINDS = {
  server: { judgedBy: 'run', heading: 'Server requirements' },
  client: { judgedBy: 'verify-client', heading: 'Client requirements' },
  receiver: { judgedBy: 'verify-receiver', heading: 'Webhook receiver requirements' },
} as const;
type Kind = keyof typeof KINDS;

/** The kinds --kind names (a comma-separated list), or all of them. */
function kindsOf(option: string | undefined): Kind[] {
  if (option === undefined) return Object.keys(KINDS) as Kind[];
  const named = option
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const unknown = named.filter((k) => !(k in KINDS));
  if (unknown.length > 0 || named.length === 0)
    throw new UsageError(`list: --kind ${JSON.stringify(option)} is not one of ${Object.keys(KINDS).join(', ')}; e.g. --kind client`);
  return (Object.keys(KINDS) as Kind[]).filter((k) => named.includes(k));
}

export const listCommand = defineCommand({
  name: 'list',
  summary:
    "Lists every requirement (level, id, title, profile rules): a server's with the checks that prove it, a client's and a webhook receiver's.",
  usage: 'svc-conformance list [--kind server,client,receiver] [--config F] [--json]',
  options: [
    {
      name: 'kind',
      value: 'K',
      description:
        'only these catalogs, comma-separated: server (judged by run), client (verify-client), receiver (verify-receiver); default all',
    },
    { name: 'config', value: 'F', description: 'a P-CFG config whose "checks" add a team\'s own requirements and checks' },
    { name: 'json', description: 'print { requirements: [{ …, kind, judgedBy, checks: [{ id, title }] }] } instead' },
  ],
  details: ['Requirement ids and check ids are what --only takes; docs/requirements.md states each requirement in full.'],
  examples: ['svc-conformance list', 'svc-conformance list --kind client', 'svc-conformance list --config staging.json --json'],
  async run(options, io) {
    const kinds = kindsOf(options.kind);
    let team: TeamChecks = { sections: [], requirements: [] };
    if (options.config !== undefined) {
      const config = await loadConfig(options.config, {}, io.cwd);
      team = await loadTeamChecks(config, { cwd: io.cwd, say: (line) => io.stderr(`svc-conformance list: ${line}\n`) });
    }
    const checksOf = new Map<string, Array<{ id: string; title: string }>>();
    for (const check of [...SECTIONS, ...team.sections].flatMap((section) => section.checks))
      checksOf.set(check.requirement, [...(checksOf.get(check.requirement) ?? []), { id: check.id, title: check.title }]);
    const catalogs: Record<Kind, Requirement[]> = {
      server: [...catalog(), ...team.requirements],
      client: clientCatalog(),
      receiver: receiverCatalog(),
    };
    const listed = kinds.map((kind) => ({
      kind,
      requirements: catalogs[kind].map((r) => ({ ...r, kind, judgedBy: KINDS[kind].judgedBy, checks: checksOf.get(r.id) ?? [] })),
    }));
    if (options.json) {
      io.stdout(JSON.stringify({ requirements: listed.flatMap((l) => l.requirements) }, null, 2) + '\n');
      return 0;
    }
    for (const [i, { kind, requirements }] of listed.entries()) {
      io.stdout(
        `${i === 0 ? '' : '\n'}== ${KINDS[kind].heading} (${plural(requirements.length, 'requirement')}, judged by svc-conformance ${KINDS[kind].judgedBy})\n`,
      );
      let section = '';
      for (const r of requirements) {
        if (r.section !== section) io.stdout(`\n${(section = r.section)}\n`);
        const rules = r.profile.length > 0 ? `  [${r.profile.join(', ')}]` : '';
        io.stdout(`  ${r.level.padEnd(6)} ${r.id}  ${r.title}${rules}${r.source !== undefined ? `  (team: ${r.source})` : ''}\n`);
        for (const c of r.checks) io.stdout(`           check ${c.id}: ${c.title}\n`);
      }
    }
    const totals = listed.map(({ kind, requirements }) => {
      const checks = requirements.reduce((n, r) => n + r.checks.length, 0);
      return `${plural(requirements.length, `${kind} requirement`)}${kind === 'server' ? ` (${plural(checks, 'check')}${team.requirements.length > 0 ? `; ${team.requirements.length} from the config's "checks"` : ''})` : ''}`;
    });
    io.stdout(`\n${totals.join(', ')}\n`);
    return 0;
  },
});
