import { isAbsolute, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Requirement } from '../core/report.js';
import { catalog } from './catalog.js';
import { defineCheck, defineRequirement, type Check } from './check.js';
import { ConfigError, type TargetConfig } from './config.js';
import { redactor, type Redact } from './redact.js';
import type { Section } from './sections.js';

/** A team's checks as the run takes them: their sections, and their requirements beside the kit's. */
export interface TeamChecks {
  sections: Section[];
  requirements: Requirement[];
}

/** How a team's modules are loaded: from where they are shown, and who is told of each. */
export interface LoadTeamChecksOptions {
  /** The working directory module paths are shown from (default: the process's). */
  cwd?: string;
  /** Told of each module before it is imported, in one line: the module runs as code. */
  say?: (line: string) => void;
  /** A config found, not named: its modules are refused unless `allowChecks`, so a checked-out repository does not run its code unasked. */
  discoveredConfig?: string;
  allowChecks?: boolean;
  /** Likewise for the config's drivers (suites/drivers.ts). */
  allowDrivers?: boolean;
}

/** A module runs with the caller's environment (its secrets too), so each is said as it loads. Anything
 *  wrong is a ConfigError naming the module and the fix, before the run begins. */
export async function loadTeamChecks(
  config: Pick<TargetConfig, 'checks' | 'merchant' | 'otherMerchant' | 'otherEnvironment'>,
  options: LoadTeamChecksOptions = {},
): Promise<TeamChecks> {
  const paths = config.checks ?? [];
  const cwd = options.cwd ?? process.cwd();
  // A module's errors are its own text, which may quote a secret it read: each is said only redacted.
  const redact = redactor(config);
  if (paths.length > 0 && options.discoveredConfig !== undefined && options.allowChecks !== true) {
    throw new ConfigError(
      `./${options.discoveredConfig} (found in the working directory, not named with --config) lists ${paths.length} team check module${paths.length === 1 ? '' : 's'} under "checks", code that would run with your environment and its secrets: --allow-checks runs ${paths.length === 1 ? 'it' : 'them'}, or name the file with --config`,
    );
  }
  const known = new Map(catalog().map((r) => [r.id, r]));
  const seenChecks = new Set<string>();
  const requirements: Requirement[] = [];
  const bySection = new Map<string, Check[]>();
  for (const path of paths) {
    const shown = shownModulePath(path, cwd);
    options.say?.(`loading team checks from ${shown} (a module of code, run with this process's environment)`);
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    } catch (error) {
      throw new ConfigError(`checks: ${path} could not be loaded: ${redact(firstLine(error))}`);
    }
    const where = `checks: ${path}`;
    const reqs = module.requirements ?? [];
    const checks = module.checks;
    if (!Array.isArray(reqs))
      throw new ConfigError(`${where} exports "requirements" that is not a list; export const requirements = [defineRequirement({ … })]`);
    if (!Array.isArray(checks) || checks.length === 0)
      throw new ConfigError(`${where} exports no "checks"; export const checks = [defineCheck({ id, requirement, title, run })]`);
    const sectionOf = new Map<string, string>();
    for (const raw of reqs as unknown[]) {
      const r = attempt(where, redact, () => defineRequirement(raw as Requirement));
      if (known.has(r.id))
        throw new ConfigError(
          `${where}: requirement ${r.id} is already defined${known.get(r.id)!.source ? ` by ${known.get(r.id)!.source}` : ' by the kit'}; give it an id of your own (e.g. a team prefix)`,
        );
      const withSource = { ...r, source: path };
      known.set(r.id, withSource);
      requirements.push(withSource);
      sectionOf.set(r.id, r.section);
    }
    for (const raw of checks as unknown[]) {
      // The module's path goes with each check, so an exception in its code names the module, not the kit.
      const check = Object.freeze({ ...attempt(where, redact, () => defineCheck(raw as Check)), module: shown });
      if (!known.has(check.requirement))
        throw new ConfigError(
          `${where}: check ${check.id} names requirement ${check.requirement}, which neither the kit nor the module defines`,
        );
      if (seenChecks.has(check.id)) throw new ConfigError(`${where}: check id ${check.id} is used twice`);
      seenChecks.add(check.id);
      const section = sectionOf.get(check.requirement) ?? known.get(check.requirement)!.section;
      bySection.set(section, [...(bySection.get(section) ?? []), check]);
    }
  }
  return { sections: [...bySection].map(([name, checks]) => ({ name, checks, team: true })), requirements };
}

/** A module's path as a person types it from the working directory (./checks/foo.mjs), else as it is. */
function shownModulePath(path: string, cwd: string): string {
  const from = relative(cwd, path);
  return from === '' || from.startsWith('..') || isAbsolute(from) ? path : `./${from}`;
}

function attempt<T>(where: string, redact: Redact, make: () => T): T {
  try {
    return make();
  } catch (error) {
    throw new ConfigError(`${where}: ${redact(firstLine(error))}`);
  }
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0]!;
}
