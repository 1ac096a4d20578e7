// The second half of `npm run build`: tsc's dist/ joined into one module per package entry, shared
// modules in chunks (each in one file, so a class is one class), then the precompiled validators.
import { readdirSync, statSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { rolldown } from 'rolldown';

/** Output name → the module tsc emitted for it. Keep in step with package.json "exports" and bin/. */
const ENTRIES = {
  index: 'dist/index.js',
  signer: 'dist/entries/signer.js',
  generators: 'dist/entries/generators.js',
  sandbox: 'dist/entries/sandbox.js',
  harness: 'dist/entries/harness.js',
  checks: 'dist/entries/checks.js',
  vitest: 'dist/suites/vitest.js',
  cli: 'dist/cli/main.js',
};

const OUT = 'dist/pkg';
const STAMP = join(OUT, '.built');
// The kit's own modules: a relative import as written, or the absolute path rolldown resolved it to
// (asked again with that; on Windows it starts with a drive letter, not a slash).
const local = (id) => id.startsWith('.') || isAbsolute(id);

/** The newest modification time among what the bundle is made from: tsc's .js, the schemas, this script. */
function newestInput() {
  const files = [
    ...readdirSync('dist', { recursive: true })
      .filter((name) => name.endsWith('.js') && !name.startsWith('pkg'))
      .map((name) => join('dist', name)),
    ...readdirSync('schemas')
      .filter((name) => name.endsWith('.schema.json'))
      .map((name) => join('schemas', name)),
    'scripts/bundle.mjs',
  ];
  return Math.max(...files.map((file) => statSync(file).mtimeMs));
}

const builtAt = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? -Infinity;
// `npm run test:e2e` builds before every run: with nothing new since the last bundle, that one stands.
if (builtAt >= newestInput()) process.exit(0);

await rm(OUT, { recursive: true, force: true });
const bundle = await rolldown({
  input: ENTRIES,
  platform: 'node',
  external: (id) => !local(id),
  logLevel: 'warn',
  onLog(level, log) {
    // A warning here is a module graph the kit did not mean to have: fail the build rather than ship it.
    throw new Error(`bundle: ${log.message}`);
  },
});
await bundle.write({
  dir: OUT,
  format: 'esm',
  sourcemap: true,
  chunkFileNames: 'chunks/[name]-[hash].js',
  // The signer's modules as one chunk: svc-conformance/signer then loads two files, not four.
  codeSplitting: { groups: [{ name: 'signer', test: /[\\/]dist[\\/]signer[\\/]/ }] },
});
await bundle.close();

// The schemas' validators, compiled now rather than at a command's first requests (schemas/standalone.ts).
const { standaloneValidators } = await import('../dist/schemas/standalone.js');
const { PRECOMPILED_VALIDATORS } = await import('../dist/schemas/index.js');
// Written whole or not at all: a half-written file would be a module that does not load.
await writeFile(`${PRECOMPILED_VALIDATORS}.partial`, standaloneValidators());
await rename(`${PRECOMPILED_VALIDATORS}.partial`, PRECOMPILED_VALIDATORS);
await writeFile(STAMP, '');
