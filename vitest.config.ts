import { defineConfig } from 'vitest/config';

/**
 * Pure tests: rules and formats that need no database, Temporal or guest. They run as a project of
 * their own without the global setup, so `npm run test:unit` (or `npx vitest run test/domain`)
 * answers in seconds; a file here that asks the setup for a database fails at once, which keeps
 * the project honest.
 */
const UNIT = ['test/domain/**/*.test.ts', 'test/**/*.unit.test.ts'];

export default defineConfig({
  test: {
    // The Temporal native bridge misbehaves in worker threads: one process per test file.
    pool: 'forks',
    // Two cores: two files at a time, each with its own worker, keeps the dev server responsive.
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
    exclude: ['**/node_modules/**', 'dist/**', '.data/**'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['**/*.test.ts'],
          exclude: [...UNIT, '**/node_modules/**', 'dist/**', '.data/**'],
          // One Temporal dev server, one database and one workflow bundle for the whole run.
          globalSetup: ['./test/global-setup.ts'],
        },
      },
    ],
  },
});
