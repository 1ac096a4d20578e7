import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: what `npm install svc-conformance` would put in a project's node_modules. */
export const KIT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * A team's project in a temporary folder, with this kit installed as `svc-conformance` (a symlink,
 * as `npm link` makes) and the given files written. Returns the folder.
 */
export function scratchProject(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-team-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(KIT_ROOT, join(dir, 'node_modules', 'svc-conformance'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'team-project', private: true, type: 'module' }));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}
