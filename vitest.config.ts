import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import PlainSummaryReporter from './test/plain-summary-reporter.js';

// Four projects, all run by CI (.ci/run):
//   - `unit` (`npm test` runs it beside the type check, lint and format check): the tests beside the code
//     they test. They share their workers' loaded modules (isolate: false), which halves their CPU
//     time; each makes its own sandboxes, clocks and state, so sharing the modules shares nothing they judge.
//   - `e2e` (`npm run test:e2e`): the end-to-end tests in test/ and examples/ (the command as a process,
//     whole certifications, the fault proof, clients in other languages, the package as installed) and
//     the tests that drive a real browser; they share loaded modules too, for the same reason.
//   - `unit-isolated` and `e2e-isolated`: the tests of each tier that replace a module or a global:
//     vi.mock reaches only the modules loaded after it, and nock (the client harness) patches node's
//     http and fetch for good, which would reach every file after it in a shared worker.
// `vitest run` alone runs all four.
// Which files are end-to-end: the folders test/ and examples/, and the tests that drive a browser.
const TIERS = JSON.parse(readFileSync('test/tiers.json', 'utf8')) as { e2eFolders: string[]; e2eFiles: string[]; startFirst: string[] };
const BROWSER_TESTS = TIERS.e2eFiles;
const E2E = [...TIERS.e2eFolders.map((folder) => `${folder}**/*.test.ts`), ...BROWSER_TESTS];
/** The test files under `dir`, leaving out dependencies, output, git's and StrykerJS's own files. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = dir === '.' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) return ['node_modules', 'dist', '.git', '.stryker-tmp'].includes(path) ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
const isE2e = (file: string) => TIERS.e2eFolders.some((folder) => file.startsWith(folder)) || BROWSER_TESTS.includes(file);
/** What replaces a module (vi.mock, vi.doMock) or node's own http and fetch (nock, through the client harness). */
const REPLACES = /\bvi\.(mock|doMock)\(|\binstallClientHarness\(|from 'nock'/;
/** The tests that replace something, found by reading them, so a new one is never left sharing modules. */
const REPLACING = testFiles('.').filter((file) => REPLACES.test(readFileSync(file, 'utf8')));
const [E2E_REPLACING, UNIT_REPLACING] = [REPLACING.filter(isE2e), REPLACING.filter((file) => !isE2e(file))];

for (const file of TIERS.startFirst)
  if (!existsSync(file)) throw new Error(`test/tiers.json: startFirst names ${file}, which is not there`);
/** vitest's order (by project, then by the last run's durations, or by size on a fresh clone), the files
 *  of tiers.json's startFirst first: they mostly wait (clients in other languages, scaled clocks, whole
 *  commands), so their waits overlap the others' work instead of ending the run alone. */
class StartFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => TIERS.startFirst.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
    const sorted = await super.sort(files);
    const first = sorted.filter((spec) => rank(spec) >= 0).sort((a, b) => rank(a) - rank(b));
    return [...first, ...sorted.filter((spec) => rank(spec) < 0)];
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: StartFirst },
    exclude: ['node_modules/**', 'dist/**', '.stryker-tmp/**'],
    reporters: ['default', new PlainSummaryReporter()],
    globalSetup: ['test/temp-root.ts'],
    // Property tests run hundreds of cases; keep the default budget generous but finite.
    testTimeout: 30_000,
    // Both cores of a small CI machine: vitest's default leaves one idle on two. The test files often wait
    // on loopback servers and child processes, so more workers than cores overlap well. Every project takes
    // this value (--maxWorkers on the command line does not reach them); a fourth made test:e2e no faster.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['**/*.test.ts'],
          exclude: ['node_modules/**', 'dist/**', '.stryker-tmp/**', ...E2E, ...REPLACING],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'unit-isolated', include: UNIT_REPLACING } },
      { extends: true, test: { name: 'e2e', include: E2E, exclude: E2E_REPLACING, isolate: false } },
      { extends: true, test: { name: 'e2e-isolated', include: E2E_REPLACING } },
    ],
  },
});
