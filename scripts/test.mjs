// `npm test`: the type check and lint of the kit and its unit tests (one process over one TypeScript
// program, scripts/check.mjs; `npm run test:e2e` lints the end-to-end tests), the format check and
// the unit tests, side by side from the start. The unit tests run the TypeScript
// sources, so nothing waits for a build: `npm run build` writes dist/ (npm ci runs it, and so does
// `npm run test:e2e`, whose tests run the built command). The check is one thread on one core and
// vitest's workers take the other, so on a two-core machine they overlap instead of queueing.
//
// vitest's output streams as it runs (arguments after `npm test --` go to it, e.g. a file to run);
// the check's and the format check's are shown only when they fail, under their name. The exit status
// is non-zero if any step failed, so a type error or a lint error fails `npm test` as a failing test does.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { delimiter, resolve } from 'node:path';

// The package's scripts, run as npm runs them (a shell, node_modules/.bin on the PATH) without an npm
// process per step: four of those cost a core-second of a run that must fit in a minute.
const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// A young generation of 32 MB semi-spaces (V8's default is 16): the check and the tests make many
// short-lived objects, and scavenging half as often took some 5% off the tests' CPU time here
// (57 and 60 core-seconds against 63 and 61).
const YOUNG = '--max-semi-space-size=32';
const env = {
  ...process.env,
  PATH: [resolve('node_modules/.bin'), process.env.PATH].join(delimiter),
  // First, so a setting of the caller's own comes after it and wins.
  NODE_OPTIONS: [YOUNG, process.env.NODE_OPTIONS].filter(Boolean).join(' '),
};

function run(name, command, args, { quiet, yielding = false }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'] });
    if (yielding && child.pid !== undefined) lowerPriority(child.pid);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name, ok: false, output: error.message, seconds: 0 }));
    child.on('close', (code) => resolve({ name, ok: code === 0, output, seconds: (Date.now() - started) / 1000 }));
  });
}

/**
 * Lets the other steps have the CPU first: the check is one thread that cannot use a second core, and
 * the tests' workers (which inherit the priority) fill whatever it leaves, so the check does not end
 * alone on one core after the tests. Where the priority cannot be lowered, it runs as it is.
 */
function lowerPriority(pid) {
  try {
    setPriority(pid, 10);
  } catch {
    // Not permitted here: the same steps, only less well packed.
  }
}

const npmRun = (name, script) => run(name, 'sh', ['-c', scripts[script]], { quiet: true });

// What to do about each failure, said once at the end where it is read.
const fixes = {
  build: 'fix what tsc names above (npm run build)',
  check: 'fix the type errors and what eslint names above (node scripts/check.mjs runs this step alone)',
  format: 'run npx biome format --write .',
  tests: 'see the failing tests above',
};

function report(results) {
  for (const { name, ok, output, seconds } of results) {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${name} (${seconds.toFixed(1)} s)`);
    if (!ok && output !== '') console.log(output.trimEnd().replace(/^/gm, `  ${name} │ `));
  }
  const failed = results.filter((r) => !r.ok);
  for (const { name } of failed) console.log(`${name} failed: ${fixes[name]}`);
  return failed.length === 0;
}

// Arguments go to vitest. Without a file filter or a project it runs the unit projects; with either
// (`npm test -- test/cli-run.test.ts`, `npm test -- --project=e2e`) what they name, in any project, so
// an end-to-end file runs too, after the build: those run the built command. The check reads the
// sources alone, so it starts at once either way.
const args = process.argv.slice(2);
const chosen = args.some((arg) => !arg.startsWith('-') || arg.startsWith('--project'));
const check = run('check', process.execPath, ['scripts/check.mjs'], { quiet: true });
const format = npmRun('format', 'format');
const build = chosen ? await npmRun('build', 'build') : undefined;
const projects = chosen ? [] : ['--project', 'unit', '--project', 'unit-isolated'];
// Two workers, not the config's three: the check holds a core for most of the run, and a third worker
// would load every module once more for no core of its own.
const tests =
  build?.ok === false
    ? undefined
    : run('tests', 'vitest', ['run', ...projects, '--maxWorkers=2', ...args], { quiet: false, yielding: true });
const results = [build, ...(await Promise.all([check, format, tests]))].filter((r) => r !== undefined);
// Set, not forced: piped output still being written would be cut off.
if (!report(results)) process.exitCode = 1;
