import { defineConfig } from 'vitest/config';
import LongestFirst from './test/longest-first.js';

/**
 * Pure tests: rules and formats that need no database, Temporal or guest. They run as a project of
 * their own without the global setup, so `npm run test:unit` (or `npx vitest run test/domain`)
 * answers in seconds; a file here that asks the setup for a database fails at once, which keeps
 * the project honest.
 */
const UNIT = ['test/domain/**/*.test.ts', 'test/**/*.unit.test.ts'];

/**
 * Files that change their process for good, each run in a fresh one: the log canaries set the
 * Temporal runtime's log level (installed once per process) at import, the traces test registers
 * the process's tracer provider, the stack tests set the data folder in the environment, the fault
 * suite kills and restarts what it started.
 */
const OWN_PROCESS = [
  'test/logging/**/*.test.ts',
  'test/operations/traces.test.ts',
  'test/stack/**/*.test.ts',
  'test/faults/**/*.test.ts',
];

const EXCLUDED = ['**/node_modules/**', 'dist/**', '.data/**'];

export default defineConfig({
  test: {
    // The Temporal native bridge misbehaves in worker threads: forked processes.
    pool: 'forks',
    // Four files at a time on our two cores: the files mostly wait (on polls, timers, guests and
    // processes of their own), and a clean-clone run two at a time kept the machine 48% busy. Of
    // the four, at most two boot real guests (test/support/guest-slots.ts).
    maxWorkers: 4,
    reporters: ['default', './test/summary-reporter.ts'],
    sequence: { sequencer: LongestFirst },
    exclude: EXCLUDED,
    // A test that takes 20 s alone took over 60 s in clean-clone runs on a busy machine (four files,
    // guests booting under TCG): the bound is for hangs, not speed (benchmarks measure that).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['**/*.test.ts'],
          exclude: [...UNIT, ...OWN_PROCESS, ...EXCLUDED],
          // A process runs file after file: the server code, the SDK and the native runtime are
          // loaded once per process, not once per file (half the suite's time went there). Every
          // file starts and stops its own stack, so none leaves state for the next.
          isolate: false,
          setupFiles: ['./test/support/process-guard.ts', './test/support/guest-slots.ts'],
          // One Temporal dev server, one database and one workflow bundle for the whole run.
          globalSetup: ['./test/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'own-process',
          include: OWN_PROCESS,
          globalSetup: ['./test/global-setup.ts'],
        },
      },
    ],
  },
});
