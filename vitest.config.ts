import { defineConfig } from 'vitest/config';
import PlainSummaryReporter from './test/plain-summary-reporter.js';

// Two projects, both run by CI (.ci/run):
//   - `unit` (what `npm test` runs, with the build, lint and format check): the tests beside the code
//     they test, in one process each: a module, a check against a sandbox, the sandbox's operations.
//   - `e2e` (`npm run test:e2e`): the end-to-end tests in test/ and examples/ (the command as a
//     process, whole certifications and the fault-injection proof, clients in other languages, the
//     package as installed) and the tests that drive a real browser.
// `vitest run` alone runs both.
const BROWSER_TESTS = ['reports/html.test.ts', 'sandbox/checkout.test.ts'];
const E2E = ['test/**/*.test.ts', 'examples/**/*.test.ts', ...BROWSER_TESTS];

export default defineConfig({
  test: {
    exclude: ['node_modules/**', 'dist/**'],
    reporters: ['default', new PlainSummaryReporter()],
    // Property tests run hundreds of cases; keep the default budget generous but finite.
    testTimeout: 30_000,
    // Both cores of a small CI machine: vitest's default leaves one idle on two. The test files
    // mostly wait on loopback servers and child processes, so more workers than cores overlap well.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['**/*.test.ts'], exclude: ['node_modules/**', 'dist/**', ...E2E] },
      },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
  },
});
