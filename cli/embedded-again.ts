// The embedded sandbox stops with the run, so its reproduce lines first start one again: its config
// goes into the report folder as sandbox.json (secrets redacted; `serve --config-out` puts them back).
import { lstat, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { shellQuote } from '../core/reproduce.js';
import { writeAtomically } from '../reports/write.js';
import type { TargetConfig } from '../suites/config.js';
import { redactor } from '../suites/redact.js';
import { UsageError, type Io } from './io.js';

/** Writes sandbox.json; returns its path from the working directory and the serve command that starts the sandbox again. */
export async function embeddedSandboxAgain(
  io: Io,
  command: string,
  dir: string,
  sandbox: { baseUrl: string; config: TargetConfig },
): Promise<{ configPath: string; command: string }> {
  const file = join(dir, 'sandbox.json');
  const configPath = relative(io.cwd, file) || file;
  // One the kit did not write is refused, not replaced nor dodged: `serve --config-out` would replace
  // whatever file the lines cite, and another folder is one option away.
  const notTheKits = await whyNotTheKits(file, sandbox.config);
  if (notTheKits !== undefined)
    throw new UsageError(
      `${command}: ${configPath} ${notTheKits}, and the run writes the embedded sandbox's config there for its reproduce lines; move it, or choose another folder with --report-dir`,
    );
  try {
    await writeAtomically(file, redactor(sandbox.config)(JSON.stringify(sandbox.config, null, 2)) + '\n');
  } catch (error) {
    io.stderr(
      `svc-conformance ${command}: could not write ${configPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; the serve line of each reproduce writes it\n`,
    );
  }
  return { configPath, command: `svc-conformance serve --port ${new URL(sandbox.baseUrl).port} --config-out ${shellQuote(configPath)}` };
}

/** Why the kit may not replace `path` with the sandbox's config; undefined when absent or the sandbox's own config. */
async function whyNotTheKits(path: string, config: TargetConfig): Promise<string | undefined> {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) return undefined;
  if (info.isDirectory()) return 'is a folder';
  if (!info.isFile()) return 'is not a plain file';
  // A sandbox config is a few kilobytes; anything far larger is not one.
  if (info.size > 1024 * 1024) return 'is not a config the kit wrote';
  try {
    const merchant = (JSON.parse(await readFile(path, 'utf8')) as { merchant?: { apiKey?: unknown; walletId?: unknown } } | null)?.merchant;
    if (merchant?.apiKey === config.merchant.apiKey && merchant?.walletId === config.merchant.walletId) return undefined;
  } catch {
    // Unreadable or not JSON: not the kit's.
  }
  return 'is not a config the kit wrote';
}
