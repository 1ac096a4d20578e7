// A light install: what every entry point needs is a dependency; what one entry point needs is an
// optional peer (vitest for svc-conformance/vitest, nock for installClientHarness), loaded only
// there; and the published types need nothing but the dependencies (@types/node among them).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOCK_MISSING, requireNock } from '../clients/harness.js';

const ROOT = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/**
 * The files of dist/ the package publishes, ending so: what npm would pack (dist/ also holds the
 * compiled tests and bench, which the package's "files" leaves out).
 */
function files(ending: string): string[] {
  packed ??= execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [info] = JSON.parse(packed) as Array<{ files: Array<{ path: string }> }>;
  return info!.files.map((f) => join(ROOT, f.path)).filter((path) => path.startsWith(join(ROOT, 'dist/')) && path.endsWith(ending));
}
/** npm's answer, asked once: each ask is a second of npm's own start-up. */
let packed: string | undefined;

/** The packages a file imports statically (import … from, export … from, import()). */
function packagesOf(text: string): string[] {
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
}

describe('the published package', () => {
  it('keeps vitest and nock as optional peers, not dependencies every install pays for', () => {
    for (const peer of ['vitest', 'nock']) {
      expect(pkg.dependencies[peer]).toBeUndefined();
      expect(pkg.peerDependencies[peer]).toBe(pkg.devDependencies[peer]);
      expect(pkg.peerDependenciesMeta[peer]).toEqual({ optional: true });
    }
  });

  it('imports, at run time, only its dependencies, except vitest in the svc-conformance/vitest entry alone', () => {
    const strays: string[] = [];
    for (const file of files('.js')) {
      const where = relative(ROOT, file);
      for (const name of packagesOf(readFileSync(file, 'utf8'))) {
        if (name === 'vitest' && where === 'dist/pkg/vitest.js') continue;
        if (pkg.dependencies[name] === undefined) strays.push(`${where}: ${name}`);
      }
    }
    expect(strays).toEqual([]);
  });

  it('publishes types that need only its dependencies (node: types come with @types/node, a dependency)', () => {
    expect(pkg.dependencies['@types/node']).toBeDefined();
    const strays: string[] = [];
    for (const file of files('.d.ts')) {
      for (const name of packagesOf(readFileSync(file, 'utf8')))
        if (pkg.dependencies[name] === undefined && name !== 'vitest') strays.push(`${relative(ROOT, file)}: ${name}`);
    }
    expect(strays).toEqual([]);
  });

  it('says how to install nock when the harness needs it and it is not there', () => {
    const missing = () => {
      throw Object.assign(new Error("Cannot find module 'nock'"), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => requireNock(missing)).toThrow(NOCK_MISSING);
    expect(requireNock()).toHaveProperty('disableNetConnect');
  });
});
