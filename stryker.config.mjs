// @ts-check
// `npm run mutation` (hours; not in `npm test`): StrykerJS edits the checks, core/ and signer/ a change at a time; one
// no unit test notices is a condition none judges. One file: `npm run mutation -- --mutate suites/checks/duplicates.ts`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: 'vitest',
  // The unit tiers and the one in-process e2e file (vitest.mutation.config.ts says why).
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  coverageAnalysis: 'perTest',
  // A mutant of what runs as a module loads (the checks' tables) runs every related test: a fifth of
  // the checks' mutants took four fifths of the time. `--ignoreStatic false` judges them too, for hours.
  ignoreStatic: true,
  // What a check says (messages, labels, titles) is left as it is: no verdict depends on it.
  plugins: ['@stryker-mutator/vitest-runner', './stryker-ignore-prose.mjs'],
  ignorers: ['prose'],
  mutate: [
    'suites/checks/**/*.ts',
    'suites/requests.ts',
    'suites/wallet.ts',
    'core/**/*.ts',
    'signer/**/*.ts',
    '!**/*.test.ts',
    '!**/*test-support.ts',
  ],
  ignorePatterns: ['dist', 'svc-reports', 'reports/out', '.stryker'],
  // Two cores, shared: one vitest worker per runner, two runners at most.
  concurrency: 2,
  // Generous: each mutant's run starts a fork and loads the kit afresh, which the dry run's timing leaves out
  // and which took over 10 s on a loaded machine (a spurious timeout counts as killed).
  timeoutMS: 60_000,
  dryRunTimeoutMinutes: 10,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: '.stryker/mutation.html' },
  jsonReporter: { fileName: '.stryker/mutation.json' },
  incrementalFile: '.stryker/incremental.json',
  tempDirName: '.stryker-tmp',
  thresholds: { high: 90, low: 80, break: null },
};
export default config;
