import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { envNamesTarget } from '../suites/config.js';
import type { Io } from './io.js';

/** The config file a command looks for in the working directory when none is named. */
const DISCOVERED_CONFIG = 'svc-conformance.json';

/** --config, else svc-conformance.json here unless SVC_* variables name the target. A discovered file is said
 * on stderr, so a run never silently certifies something other than what was asked. */
export function configFileOf(command: string, options: { config?: string }, io: Io): string | undefined {
  if (options.config !== undefined) return options.config;
  if (envNamesTarget(io.env) || !existsSync(join(io.cwd, DISCOVERED_CONFIG))) return undefined;
  io.stderr(`svc-conformance ${command}: using ./${DISCOVERED_CONFIG} (found in the working directory; --config names another)\n`);
  return DISCOVERED_CONFIG;
}
