// What `npm publish` would put on the registry, and a team's project that installs it. The tarball is
// packed once (from the dist/ the build made); its file list is judged, then it is installed with
// npm into a scratch project and its command and both entries are used from there.
//
// Offline, npm cannot install the tarball's dependencies itself (it asks the registry for their
// metadata even when the packages are in its cache), so the scratch project's node_modules has them
// linked from this repository's first, as a lockfile install would leave them; npm then installs the
// tarball beside them, links its bin, and keeps them. vitest is linked in as the team's own, being an
// optional peer. The same file list shows a light install: what every entry point needs is a
// dependency; what one entry point needs is an optional peer, loaded only there.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOCK_MISSING, requireNock } from '../clients/harness.js';
import { packagesLoadedBy } from './import-graph.js';
import { KIT_ROOT } from './scratch-project.js';

interface PackageJson {
  name: string;
  version: string;
  main: string;
  types: string;
  bin: Record<string, string>;
  repository?: { type: string; url: string };
  engines?: { node?: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  exports: Record<string, string | { types?: string; default: string }>;
}

const pkg = JSON.parse(readFileSync(join(KIT_ROOT, 'package.json'), 'utf8')) as PackageJson;
let work: string;
let tarball: string;
let tarballName: string;
let packed: string[];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-pack-'));
  // --ignore-scripts: `prepare` would build again; the tests run on the dist/ already built.
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: KIT_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [info] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarballName = info!.filename;
  tarball = join(work, tarballName);
  packed = info!.files.map((f) => f.path);
}, 30_000);

describe('the packed tarball', () => {
  it('holds no tests, test support, bench, source maps or build state', () => {
    const strays = packed.filter(
      (path) =>
        /\.test\.|(^|\/)test\/|test-support|(^|\/)bench\/|\.map$|\.tsbuildinfo$|\.built$|^scripts\/|^examples\//.test(path) ||
        (path.endsWith('.ts') && !path.endsWith('.d.ts')),
    );
    expect(strays).toEqual([]);
  });

  it("holds the code once, as the bundled entries of dist/pkg (tsc's module-per-file output stays behind)", () => {
    const code = packed.filter((path) => path.endsWith('.js') && path.startsWith('dist/'));
    expect(code.filter((path) => !path.startsWith('dist/pkg/'))).toEqual([]);
    expect(code).toContain('dist/pkg/cli.js');
  });

  it('holds README, LICENSE, the bin, main and types, and every target of "exports" (with types for each code entry)', () => {
    const has = new Set(packed);
    for (const file of ['README.md', 'LICENSE', 'package.json', ...Object.values(pkg.bin), pkg.main, pkg.types])
      expect(has.has(file.replace(/^\.\//, '')), file).toBe(true);
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      const targets = typeof target === 'string' ? [target] : [target.default, target.types];
      if (typeof target !== 'string' || target.endsWith('.js'))
        expect(typeof target === 'object' && target.types, `${subpath} names its types`).toMatch(/\.d\.ts$/);
      for (const file of targets as string[]) {
        // A wildcard subpath ("./schemas/*.json") must match every file of its kind the repository has.
        const wanted = file.includes('*')
          ? readdirSync(join(KIT_ROOT, dirname(file)))
              .filter((name) => name.endsWith(file.split('*')[1]!))
              .map((name) => join(dirname(file), name))
          : [file];
        expect(wanted.length, `${subpath}: ${file}`).toBeGreaterThan(0);
        for (const one of wanted) expect(has.has(one.replace(/^\.\//, '')), `${subpath}: ${one}`).toBe(true);
      }
    }
  });

  it('installs from git at the repository it names, on a Node that can require an ES module (faker is required at first draw)', () => {
    const readme = readFileSync(join(KIT_ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`npm install --save-dev '${pkg.repository?.url}#v${pkg.version}'`);
    // require() of an ES module needs no flag from Node 20.19 (and 22.12) on: the engines floor says so.
    const [major, minor] = /^>=(\d+)\.(\d+)/
      .exec(pkg.engines?.node ?? '')!
      .slice(1)
      .map(Number) as [number, number];
    expect(major > 20 || (major === 20 && minor >= 19), `engines ${pkg.engines?.node}`).toBe(true);
  });

  it("is what the README's install section installs: this version's tarball, this version's tag", () => {
    const readme = readFileSync(join(KIT_ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`npm install --save-dev ./${tarballName}`);
    expect(readme).toMatch(new RegExp(`npm install --save-dev 'git\\+https://[^']+\\.git#v${pkg.version.replaceAll('.', '\\.')}'`));
  });
});

describe("installed into a team's project from the tarball", () => {
  let project: string;

  beforeAll(() => {
    project = join(work, 'team-project');
    mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'team-project', private: true, type: 'module' }));
    for (const name of [...Object.keys(pkg.dependencies), 'vitest']) {
      mkdirSync(dirname(join(project, 'node_modules', name)), { recursive: true });
      symlinkSync(join(KIT_ROOT, 'node_modules', name), join(project, 'node_modules', name), 'dir');
    }
    const install = spawnSync(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', tarball],
      { cwd: project, encoding: 'utf8', timeout: 60_000 },
    );
    expect(install.status, install.stderr).toBe(0);
    // npm prunes what the project does not list: vitest is the team's own devDependency, linked again.
    if (!existsSync(join(project, 'node_modules', 'vitest')))
      symlinkSync(join(KIT_ROOT, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'), 'dir');
  }, 60_000);

  it('runs its command through the bin npm linked: --help, and list reading the catalogs it ships', () => {
    const bin = join(project, 'node_modules', '.bin', 'svc-conformance');
    const help = spawnSync(bin, ['--help'], { cwd: project, encoding: 'utf8', timeout: 20_000 });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: svc-conformance <command>/);
    const list = spawnSync(bin, ['list', '--json'], { cwd: project, encoding: 'utf8', timeout: 20_000 });
    expect(list.status, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { requirements: unknown[] }).requirements.length).toBeGreaterThan(100);
  });

  /** Runs an ES module script, one line each, with Node in the scratch project that installed the tarball: what it printed, parsed. */
  const outputInProject = (lines: string[]): unknown => {
    const ran = spawnSync(process.execPath, ['--input-type=module', '-e', lines.join('\n')], {
      cwd: project,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(ran.status, ran.stderr).toBe(0);
    return JSON.parse(ran.stdout);
  };

  it('imports svc-conformance (its schemas shipped) and svc-conformance/vitest', () => {
    const imported = outputInProject([
      "const kit = await import('svc-conformance');",
      "const { conformanceSuite } = await import('svc-conformance/vitest');",
      "const vectors = await import('svc-conformance/vectors/signing-vectors.json', { with: { type: 'json' } });",
      "console.log(JSON.stringify({ suite: typeof conformanceSuite, sign: typeof kit.signPayload, valid: kit.validateSchema('error-envelope', {}).valid, vectors: typeof vectors.default }));",
    ]);
    expect(imported).toEqual({ suite: 'function', sign: 'function', valid: false, vectors: 'object' });
  });

  it('validates with the validators the build compiled: ajv compiles nothing when the package runs', () => {
    const seen = outputInProject([
      "import { createRequire } from 'node:module';",
      "const { validateSchema } = await import('svc-conformance');",
      "const valid = validateSchema('order-record', { order_id: 1 }).valid;",
      "const loaded = Object.keys(createRequire(process.cwd() + '/').cache);",
      'const has = (ending) => loaded.some((file) => file.endsWith(ending));',
      "console.log(JSON.stringify({ valid, precompiled: has('/dist/pkg/schema-validators.cjs'), compiler: has('/ajv/dist/core.js') }));",
    ]);
    expect(seen).toEqual({ valid: false, precompiled: true, compiler: false });
  });

  // One export each subpath is for, as the README's "Use as a library" shows it.
  const SUBPATHS: Record<string, string> = {
    'svc-conformance/signer': 'signPayload',
    'svc-conformance/generators': 'orderCreateRequest',
    'svc-conformance/sandbox': 'startSandbox',
    'svc-conformance/harness': 'installClientHarness',
    'svc-conformance/checks': 'defineCheck',
  };

  it("imports each subpath entry, and each of its exports is also the root entry's", () => {
    const seen = outputInProject([
      `const subpaths = ${JSON.stringify(Object.keys(SUBPATHS))};`,
      "const root = await import('svc-conformance');",
      'const seen = {};',
      'for (const subpath of subpaths) {',
      '  const entry = await import(subpath);',
      '  seen[subpath] = Object.keys(entry).filter((name) => entry[name] === root[name]).sort();',
      '  seen[subpath + " (all)"] = Object.keys(entry).sort();',
      '}',
      'console.log(JSON.stringify(seen));',
    ]) as Record<string, string[]>;
    for (const [subpath, name] of Object.entries(SUBPATHS)) {
      expect(seen[subpath], subpath).toContain(name);
      expect(seen[subpath], `${subpath}: every export is the root's own`).toEqual(seen[`${subpath} (all)`]);
    }
  });

  it('loads no package for svc-conformance/signer (no faker, ajv, undici or fast-check), and faker or fast-check for no entry at import', () => {
    const installed = join(project, 'node_modules', 'svc-conformance');
    const entryFile = (subpath: string): string => {
      const target = pkg.exports[subpath.replace(/^svc-conformance/, '.')];
      return join(installed, typeof target === 'string' ? target : target!.default);
    };
    expect(Object.fromEntries(packagesLoadedBy(entryFile('svc-conformance/signer')))).toEqual({});
    for (const subpath of ['svc-conformance', ...Object.keys(SUBPATHS)]) {
      const loaded = packagesLoadedBy(entryFile(subpath));
      for (const heavy of ['@faker-js/faker', 'ajv', 'ajv-formats', 'undici', 'fast-check'])
        expect(loaded.get(heavy), `${subpath} loads ${heavy} at import`).toBeUndefined();
    }
  });

  it('loads fast-check and faker at their first use, not when an entry is imported (nothing built at import reaches for them)', () => {
    // The static imports above cannot see a module that builds an arbitrary as it loads: fast-check
    // comes through a proxy, required at its first use. What Node has loaded can.
    const seen = outputInProject([
      "import { createRequire } from 'node:module';",
      "const loaded = () => Object.keys(createRequire(process.cwd() + '/').cache).filter((file) => /[\\\\/](fast-check|@faker-js)[\\\\/]/.test(file)).length;",
      `for (const subpath of ${JSON.stringify(['svc-conformance', ...Object.keys(SUBPATHS)])}) await import(subpath);`,
      'const atImport = loaded();',
      "const { orderCreateRequest } = await import('svc-conformance/generators');",
      "const fc = (await import('fast-check')).default;",
      'fc.sample(orderCreateRequest(), { numRuns: 1, seed: 1 });',
      'console.log(JSON.stringify({ atImport, afterFirstUse: loaded() > 0 }));',
    ]);
    expect(seen).toEqual({ atImport: 0, afterFirstUse: true });
  });

  it('loads node:http when a sandbox first listens, not at import (the root entry holds every other entry)', () => {
    const loaded = outputInProject([
      "const http = () => process.moduleLoadList.includes('NativeModule http');",
      "const { startSandbox } = await import('svc-conformance');",
      'const atImport = http();',
      'const sandbox = await startSandbox();',
      "const answered = (await fetch(sandbox.baseUrl + '/no-such-path')).status;",
      'await sandbox.close();',
      'console.log(JSON.stringify({ atImport, afterListen: http(), answered }));',
    ]);
    expect(loaded).toEqual({ atImport: false, afterListen: true, answered: 404 });
  });

  it("builds the generators' arbitraries with the team's own fast-check (loaded at the first one, one copy)", () => {
    const drawn = outputInProject([
      "const { orderCreateRequest } = await import('svc-conformance/generators');",
      "const { default: fc } = await import('fast-check');",
      'const arbitrary = orderCreateRequest();',
      'const [order] = fc.sample(arbitrary, { seed: 1, numRuns: 1 });',
      'console.log(JSON.stringify({ same: arbitrary instanceof fc.Arbitrary, orderId: typeof order.order_id }));',
    ]);
    expect(drawn).toEqual({ same: true, orderId: expect.stringMatching(/^(string|number)$/) });
  });
});

/** The files of dist/ the package publishes, ending so (dist/ also holds the compiled tests and bench, left out). */
const files = (ending: string) =>
  packed.filter((path) => path.startsWith('dist/') && path.endsWith(ending)).map((path) => join(KIT_ROOT, path));

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
    expect(files('.js')).toContain(join(KIT_ROOT, 'dist/pkg/cli.js'));
    for (const file of files('.js')) {
      const where = relative(KIT_ROOT, file);
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
        if (pkg.dependencies[name] === undefined && name !== 'vitest') strays.push(`${relative(KIT_ROOT, file)}: ${name}`);
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
