import { defineConfig } from 'vitest/config';
import PlainSummaryReporter from './test/plain-summary-reporter.js';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    reporters: ['default', new PlainSummaryReporter()],
    // Property tests run hundreds of cases; keep the default budget generous but finite.
    testTimeout: 30_000,
    // Both cores of a small CI machine: vitest's default leaves one idle on two. The test files
    // mostly wait on loopback servers and child processes, so two workers overlap well.
    maxWorkers: 3,
  },
});
