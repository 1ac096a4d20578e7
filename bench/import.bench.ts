// npm run bench (part 4): what importing the library costs a team. Each entry is imported by a fresh
// Node process running a script in a scratch project that has the kit installed by name (a symlink,
// as `npm link` makes), so it resolves through package.json "exports" exactly as a team's import
// does. The same script importing nothing is the floor. A process is started per sample, and the
// floor and the entries take turns within a round so that the machine's load falls on all alike.
//
// Two figures per entry: the import itself, timed inside the process (the target), and the whole
// process's wall clock above the floor's in the same round (what a short script pays). The script
// first imports a module of its own, as a team's code is loaded before it imports the kit: Node's
// first import of a file sets up its loader (about 10 ms), which every ES module program pays
// whether or not it uses the kit, so it is part of the floor, not of the kit.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { figure, median } from './stats.js';

const KIT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROUNDS = 11;

interface Sample {
  /** The process's wall clock, spawn to exit, in ms. */
  wallMs: number;
  /** The import inside the process, in ms (0 for the floor). */
  importMs: number;
  /** Resident memory after the import, in MB. */
  rssMb: number;
}

interface Subject {
  name: string;
  specifier: string | undefined;
  targetMs?: number;
  /** Also use it once: start and stop a sandbox, build a generator (what the import leaves for later). */
  firstUse?: boolean;
}

const SUBJECTS: Subject[] = [
  { name: 'floor (node, nothing imported)', specifier: undefined },
  { name: "import('svc-conformance/signer')", specifier: 'svc-conformance/signer', targetMs: 20 },
  { name: "import('svc-conformance')", specifier: 'svc-conformance', targetMs: 100 },
  // Not a target: the root entry loads undici and fast-check at their first use, not at import; this
  // says what that first use costs on top (faker waits for the first value drawn, and is not counted).
  { name: "import('svc-conformance') + a sandbox + a generator", specifier: 'svc-conformance', firstUse: true },
];

// The probe a sample runs: the team's own module first, then the entry named by its argument, if any
// (the floor runs the same script with none, so both pay for starting, evaluating and printing).
const PROBE = `await import('./own.js');
const specifier = process.argv[2];
const started = performance.now();
if (specifier !== undefined) {
  const kit = await import(specifier);
  if (process.argv[3] === 'use') {
    const sandbox = await kit.startSandbox({ port: 0 });
    await sandbox.close();
    kit.orderCreateRequest();
  }
}
const importMs = performance.now() - started;
process.stdout.write(JSON.stringify({ importMs, rss: process.memoryUsage().rss }));
`;

function scratchProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-import-bench-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(KIT_ROOT, join(dir, 'node_modules', 'svc-conformance'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'import-bench', private: true, type: 'module' }));
  writeFileSync(join(dir, 'own.js'), 'export const own = true;\n');
  writeFileSync(join(dir, 'probe.js'), PROBE);
  return dir;
}

function sample(dir: string, specifier: string | undefined, firstUse = false): Sample {
  const args = specifier === undefined ? ['probe.js'] : ['probe.js', specifier, ...(firstUse ? ['use'] : [])];
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: 30_000 });
  const wallMs = performance.now() - started;
  if (child.status !== 0) throw new Error(`importing ${specifier ?? 'nothing'} failed (exit ${child.status}): ${child.stderr}`);
  const out = JSON.parse(child.stdout) as { importMs: number; rss: number };
  return { wallMs, importMs: specifier === undefined ? 0 : out.importMs, rssMb: out.rss / 2 ** 20 };
}

const sorted = (values: number[]): number[] => [...values].sort((a, b) => a - b);

const dir = scratchProject();
try {
  const samples = SUBJECTS.map(() => [] as Sample[]);
  for (let round = 0; round < ROUNDS; round++) {
    SUBJECTS.forEach((subject, i) => samples[i]!.push(sample(dir, subject.specifier, subject.firstUse)));
  }
  const floor = samples[0]!;
  console.log(`\nimporting the library: a fresh process per sample, ${ROUNDS} rounds (floor and entries alternate)`);
  console.log(
    figure('floor: node, the same script importing nothing', sorted(floor.map((s) => s.wallMs)), ' ms', undefined, 0) +
      `  rss ${median(sorted(floor.map((s) => s.rssMb))).toFixed(0)} MB`,
  );
  SUBJECTS.forEach((subject, i) => {
    if (subject.specifier === undefined) return;
    const own = samples[i]!;
    const target = subject.targetMs;
    console.log(
      figure(
        `${subject.name}, in process`,
        sorted(own.map((s) => s.importMs)),
        ' ms',
        target === undefined ? undefined : { text: `≤ ${target} ms`, met: (m) => m <= target },
        0,
      ) + `  rss ${median(sorted(own.map((s) => s.rssMb))).toFixed(0)} MB`,
    );
    console.log(
      figure(`${subject.name}, wall clock`, sorted(own.map((s) => s.wallMs)), ' ms', undefined, 0) +
        `  above floor ${median(sorted(own.map((s, round) => s.wallMs - floor[round]!.wallMs))).toFixed(0)} ms`,
    );
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
