import { defineConfig } from 'vitest/config';
import PlainSummaryReporter from './test/plain-summary-reporter.js';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    reporters: ['default', new PlainSummaryReporter()],
    // Property tests run hundreds of cases; keep the default budget generous but finite.
    testTimeout: 30_000,
  },
});
