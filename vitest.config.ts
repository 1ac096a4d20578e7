import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    // Property tests run hundreds of cases; keep the default budget generous but finite.
    testTimeout: 30_000,
  },
});
