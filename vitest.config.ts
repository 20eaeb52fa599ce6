import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The Temporal native bridge misbehaves in worker threads: one process per test file.
    pool: 'forks',
    // Two cores: two files at a time, each with its own worker, keeps the dev server responsive.
    maxWorkers: 2,
    globalSetup: ['./test/global-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', 'dist/**', '.data/**'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
  },
});
