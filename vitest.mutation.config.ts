// The unit tiers of vitest.config.ts, for StrykerJS (stryker.config.mjs): the e2e tier runs the built
// command, which a mutant of the sources never reaches, so it would only cost time.
import { defineConfig, type Plugin } from 'vitest/config';
import base from './vitest.config.js';

/**
 * Processes, not the worker threads StrykerJS asks for (its `pool` overrides every project's): node 20
 * aborted (llhttp, "Empty MaybeLocal") when a thread ended with a socket still reading.
 */
const inForks: Plugin = {
  name: 'svc-conformance:mutation-forks',
  configResolved(config) {
    const test = (config as { test?: { pool?: string } }).test;
    if (test !== undefined) test.pool = 'forks';
  },
};

const projects = (base.test?.projects ?? []).flatMap((project) =>
  typeof project === 'object' && 'test' in project && project.test?.name !== 'e2e'
    ? // One test at a time, it.concurrent too: StrykerJS tells which test ran a mutant by the test running.
      [{ ...project, plugins: [inForks], test: { ...project.test, maxConcurrency: 1 } }]
    : [],
);

export default defineConfig({ test: { ...base.test, reporters: ['default'], projects } });
