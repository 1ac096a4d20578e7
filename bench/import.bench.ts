// npm run bench (part 4), information: what importing the library costs, each entry imported by a
// fresh process from a scratch project that has the kit installed by name, as a team's import is.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { figure, repeat } from './stats.js';

const KIT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRIES = ['svc-conformance/signer', 'svc-conformance'];
const PROBE = `const started = performance.now();
await import(process.argv[2]);
process.stdout.write(String(performance.now() - started));
`;

const dir = mkdtempSync(join(tmpdir(), 'svc-import-bench-'));
try {
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(KIT_ROOT, join(dir, 'node_modules', 'svc-conformance'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'import-bench', private: true, type: 'module' }));
  writeFileSync(join(dir, 'probe.js'), PROBE);
  for (const entry of ENTRIES) {
    const ms = await repeat(7, () => {
      const child = spawnSync(process.execPath, ['probe.js', entry], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
      if (child.status !== 0) throw new Error(`importing ${entry} failed (exit ${child.status}): ${child.stderr}`);
      return Number(child.stdout);
    });
    console.log(figure(`import('${entry}') in a fresh process (information)`, ms, ' ms', undefined, 0));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
