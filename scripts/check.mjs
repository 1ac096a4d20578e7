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
// `npx eslint .` reports, and fails on what fails it (an error; a warning is shown).
//
// Exit 0 when both pass, 1 when either found a problem, with tsc's and ESLint's usual output. The
// exit status is set, not forced: into a pipe (npm test reads this one), output still being written
// would be cut off.
import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
import ts from 'typescript';

const formatHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: ts.sys.getCurrentDirectory,
  getNewLine: () => ts.sys.newLine,
};
const format = (diagnostics) =>
  process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost) : ts.formatDiagnostics(diagnostics, formatHost);

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

/** Checks and lints every file; returns what failed, in words (nothing when all passed). */
async function typeCheckAndLint(config) {
  // The build's options, less the emit: nothing is written, not even tsc's incremental state.
  const options = { ...config.options, noEmit: true, incremental: false };
  const program = ts.createProgram({ rootNames: config.fileNames, options });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) process.stdout.write(format(diagnostics));

  // The example test is a user's project, which tsconfig.json leaves out: it imports the built
  // package by name. It gets a program of its own, with the same options, which takes every file the
  // first program already parsed and bound from it (Node's and vitest's types, TypeScript's
  // libraries) instead of reading them again. The same files as eslint.config.js lints that way.
  const examples = readdirSync('examples')
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `examples/${name}`);
  const host = ts.createCompilerHost(options);
  const readSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, ...rest) => program.getSourceFile(fileName) ?? readSourceFile(fileName, ...rest);
  const examplesProgram = ts.createProgram({ rootNames: examples, options, host });

  const eslint = new ESLint({
    overrideConfig: [
      {
        // The files the program holds; any other TypeScript file is a parse error naming it (a new
        // folder tsconfig.json does not include yet).
        files: ['**/*.ts'],
        languageOptions: { parserOptions: { projectService: false, programs: [program] } },
      },
      { files: ['examples/*.test.ts'], languageOptions: { parserOptions: { programs: [examplesProgram] } } },
    ],
  });
  const results = await eslint.lintFiles(['.']);
  const lintOutput = await (await eslint.loadFormatter('stylish')).format(results);
  if (lintOutput !== '') process.stdout.write(lintOutput);
  const lintErrors = results.reduce((sum, result) => sum + result.errorCount, 0);

  return [
    diagnostics.length > 0 ? `${diagnostics.length} type error${diagnostics.length === 1 ? '' : 's'}` : '',
    lintErrors > 0 ? `${lintErrors} lint error${lintErrors === 1 ? '' : 's'}` : '',
  ].filter((line) => line !== '');
}
