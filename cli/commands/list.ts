import { loadConfig, ConfigError } from '../../suites/config.js';
import { catalog } from '../../suites/catalog.js';
import { SECTIONS } from '../../suites/sections.js';
import { loadTeamChecks, type TeamChecks } from '../../suites/team-checks.js';
import { UsageError } from '../io.js';
import type { CommandSpec } from '../options.js';

export const listCommand: CommandSpec = {
  name: 'list',
  summary: 'Lists every requirement (level, id, title, profile rules) and the checks that prove it.',
  usage: 'svc-conformance list [--config F] [--json]',
  options: [
    { name: 'config', type: 'string', value: 'F', description: 'a P-CFG config whose "checks" add a team\'s own requirements and checks' },
    { name: 'json', type: 'boolean', description: 'print { requirements: [{ …, checks: [{ id, title }] }] } instead' },
  ],
  details: ['Requirement ids and check ids are what --only takes; docs/requirements.md states each requirement in full.'],
  examples: ['svc-conformance list', 'svc-conformance list --config staging.json --json'],
  async run(options, io) {
    let team: TeamChecks = { sections: [], requirements: [] };
    if (typeof options.config === 'string') {
      try {
        const config = await loadConfig(options.config, {}, io.cwd);
        team = await loadTeamChecks(config, { cwd: io.cwd, say: (line) => io.stderr(`svc-conformance list: ${line}\n`) });
      } catch (error) {
        if (error instanceof ConfigError) throw new UsageError(`list: ${error.message}`);
        throw error;
      }
    }
    const checksOf = new Map<string, Array<{ id: string; title: string }>>();
    for (const section of [...SECTIONS, ...team.sections]) {
      for (const check of section.checks) checksOf.set(check.requirement, [...(checksOf.get(check.requirement) ?? []), { id: check.id, title: check.title }]);
    }
    const requirements = [...catalog(), ...team.requirements].map((r) => ({ ...r, checks: checksOf.get(r.id) ?? [] }));
    if (options.json) {
      io.stdout(JSON.stringify({ requirements }, null, 2) + '\n');
      return 0;
    }
    let section = '';
    for (const r of requirements) {
      if (r.section !== section) io.stdout(`${section === '' ? '' : '\n'}${(section = r.section)}\n`);
      const rules = r.profile.length > 0 ? `  [${r.profile.join(', ')}]` : '';
      io.stdout(`  ${r.level.padEnd(6)} ${r.id}  ${r.title}${rules}${r.source !== undefined ? `  (team: ${r.source})` : ''}\n`);
      for (const c of r.checks) io.stdout(`           check ${c.id}: ${c.title}\n`);
    }
    const checks = requirements.reduce((n, r) => n + r.checks.length, 0);
    io.stdout(`\n${requirements.length} requirements, ${checks} checks${team.requirements.length > 0 ? ` (${team.requirements.length} requirements from the config's "checks")` : ''}\n`);
    return 0;
  },
};
