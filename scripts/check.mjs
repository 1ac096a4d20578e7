// `npm test`'s type check and lint, in one process over one TypeScript program.
//
// Both need every file type checked: tsc to report type errors, typescript-eslint's type-aware rules
// (a promise nobody awaits, a switch that forgets a member) to ask what each expression's type is.
// Run apart, each builds the program and checks it: two thirds of a core-minute, more than the unit
// tests take. Here the program is built and checked once, and ESLint is handed it
// (`parserOptions.programs`), so its rules read the types the check already computed.
//
// It emits nothing: the unit tests run the TypeScript sources, and `npm run build` (which
// `npm ci` and `npm run test:e2e` run) writes dist/. The diagnostics are tsc's own, those of
// declaration emit included, so a file that passes here passes `tsc -b`; the lint is what
// `npx eslint` reports for the tier's files, and fails on what fails it (an error; a warning is shown).
//
// Each tier checks its own files (test/tiers.json says which are end-to-end, as vitest.config.ts
// does): `npm test` type checks and lints the kit and its unit tests; `npm run test:e2e`, whose build
// has just type checked every file, runs this with `--e2e` to lint the end-to-end tests and their
// helpers, over a program of every file.
//
// Exit 0 when both pass, 1 when either found a problem, with tsc's and ESLint's usual output. The
// exit status is set, not forced: into a pipe (npm test reads this one), output still being written
// would be cut off.
import { readdirSync, readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';

const formatHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: ts.sys.getCurrentDirectory,
  getNewLine: () => ts.sys.newLine,
};
const format = (diagnostics) =>
  process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost) : ts.formatDiagnostics(diagnostics, formatHost);

const e2e = process.argv.includes('--e2e');
const tiers = JSON.parse(readFileSync('test/tiers.json', 'utf8'));
/** The end-to-end tier's files, as ESLint patterns: its folders whole (helpers too), its other tests. */
const E2E_PATTERNS = [...tiers.e2eFolders.map((folder) => `${folder}**`), ...tiers.e2eFiles];
const isE2e = (file) => tiers.e2eFolders.some((folder) => file.startsWith(folder)) || tiers.e2eFiles.includes(file);

const configErrors = [];
const config = ts.getParsedCommandLineOfConfigFile(
  'tsconfig.json',
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic) },
);
if (config === undefined || configErrors.length > 0 || config.errors.length > 0) {
  process.stdout.write(format([...configErrors, ...(config?.errors ?? [])]));
  process.exitCode = 1;
} else {
  const failures = await typeCheckAndLint(config);
  if (failures.length > 0) {
    console.log(failures.join('; '));
    process.exitCode = 1;
  }
}

/** Checks and lints the tier's files; returns what failed, in words (nothing when all passed). */
async function typeCheckAndLint(config) {
  // The build's options, less the emit: nothing is written, not even tsc's incremental state. The
  // unit tier's program leaves the end-to-end tests out (a helper of theirs that a unit test imports
  // comes in with it); the end-to-end tier's holds every file, and reports no type error (the build did).
  const options = { ...config.options, noEmit: true, incremental: false };
  const rootNames = e2e ? config.fileNames : config.fileNames.filter((file) => !isE2e(relative(process.cwd(), file).split(sep).join('/')));
  const program = ts.createProgram({ rootNames, options });
  const diagnostics = e2e ? [] : ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) process.stdout.write(format(diagnostics));

  // The example test (end-to-end) is a user's project, which tsconfig.json leaves out: it imports the
  // built package by name, and an example client in plain JavaScript. It gets a program of its own,
  // with the same options, which takes every file the first program already parsed and bound from it
  // (Node's and vitest's types, TypeScript's libraries) instead of reading them again. It is linted,
  // not type checked (the client it imports has no types). The same files as eslint.config.js lints so.
  const examples = readdirSync('examples')
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `examples/${name}`);
  const host = ts.createCompilerHost(options);
  const readSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, ...rest) => program.getSourceFile(fileName) ?? readSourceFile(fileName, ...rest);
  const examplesProgram = e2e ? ts.createProgram({ rootNames: examples, options, host }) : undefined;

  const eslint = new ESLint({
    overrideConfig: [
      ...(e2e ? [] : [{ ignores: E2E_PATTERNS }]),
      {
        // The files the program holds; any other TypeScript file is a parse error naming it (a new
        // folder tsconfig.json does not include yet).
        files: ['**/*.ts'],
        languageOptions: { parserOptions: { projectService: false, programs: [program] } },
      },
      ...(examplesProgram ? [{ files: ['examples/*.test.ts'], languageOptions: { parserOptions: { programs: [examplesProgram] } } }] : []),
    ],
  });
  const results = await eslint.lintFiles(e2e ? E2E_PATTERNS : ['.']);
  const lintOutput = await (await eslint.loadFormatter('stylish')).format(results);
  if (lintOutput !== '') process.stdout.write(lintOutput);
  const lintErrors = results.reduce((sum, result) => sum + result.errorCount, 0);

  return [
    diagnostics.length > 0 ? `${diagnostics.length} type error${diagnostics.length === 1 ? '' : 's'}` : '',
    lintErrors > 0 ? `${lintErrors} lint error${lintErrors === 1 ? '' : 's'}` : '',
  ].filter((line) => line !== '');
}
