import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/js/**/*.test.js', 'tests/browser/**/*.test.js', 'web/**/*.test.js'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The browser tests share one Chromium; the rest are fast. Keep the two
    // cores for the suites rather than for parallel browsers.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
