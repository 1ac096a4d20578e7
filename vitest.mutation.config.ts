// What StrykerJS runs against each mutant: the unit tiers and, of e2e, the in-process file judging the auth areas'
// faults check by check; the rest runs the built command (no mutant reaches it) or whole runs (minutes a mutant).
import { defineConfig, type Plugin, type TestProjectInlineConfiguration } from 'vitest/config';
import base from './vitest.config.js';

const IN_PROCESS_E2E = ['test/auth-area-faults.test.ts'];

/** Processes, not the worker threads StrykerJS asks for (its `pool` overrides every project's): node 20
 *  aborted (llhttp, "Empty MaybeLocal") when a thread ended with a socket still reading. */
const inForks: Plugin = {
  name: 'svc-conformance:mutation-forks',
  configResolved(config) {
    const test = (config as { test?: { pool?: string } }).test;
    if (test !== undefined) test.pool = 'forks';
  },
};

const UNIT_TIERS = ['unit', 'unit-isolated'];
const unitTiers = (base.test?.projects ?? []).filter(
  (project): project is TestProjectInlineConfiguration =>
    typeof project === 'object' && 'test' in project && UNIT_TIERS.includes(project.test?.name as string),
);
const inProcessE2e: TestProjectInlineConfiguration = {
  extends: true,
  test: { name: 'e2e-in-process', include: IN_PROCESS_E2E, isolate: false },
};
const projects = [...unitTiers, inProcessE2e].map(
  // One test at a time, it.concurrent too: StrykerJS tells which test ran a mutant by the test running.
  (project): TestProjectInlineConfiguration => ({ ...project, plugins: [inForks], test: { ...project.test, maxConcurrency: 1 } }),
);

export default defineConfig({ test: { ...base.test, reporters: ['default'], projects } });
