// What `npm test` runs before vitest: the build (one tsc pass that type checks every file, tests
// included, and emits dist/), lint, and the format check, side by side: each is one process on one
// core, so on a two-core machine they overlap instead of queueing.
// Each one's output is shown only when it fails, under its name; the exit status is non-zero if any
// of them failed, so a lint error fails `npm test` as a type error does.
import { spawn } from 'node:child_process';

const steps = [
  { name: 'build', script: 'build' },
  { name: 'lint', script: 'lint' },
  { name: 'format', script: 'format' },
];

function run({ name, script }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name, ok: false, output: error.message, seconds: 0 }));
    child.on('close', (code) => resolve({ name, ok: code === 0, output, seconds: (Date.now() - started) / 1000 }));
  });
}

const results = await Promise.all(steps.map(run));
for (const { name, ok, output, seconds } of results) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name} (${seconds.toFixed(1)} s)`);
  if (!ok) console.log(output.trimEnd().replace(/^/gm, `  ${name} │ `));
}
// What to do about each failure, said once at the end where it is read.
const fixes = {
  build: 'fix the type errors above (npm run build)',
  lint: 'fix what eslint names above (npm run lint)',
  format: 'run npx biome format --write .',
};
const failed = results.filter((r) => !r.ok);
for (const { name } of failed) console.log(`${name} failed: ${fixes[name]}`);
if (failed.length > 0) process.exit(1);
