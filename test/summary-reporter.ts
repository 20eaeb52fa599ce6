import type { Reporter, TestModule } from 'vitest/node';
import { contractCoverage } from './contract-coverage.js';
import { faultTable } from './faults/table.js';
import { slowestFiles } from './slowest-files.js';
import { faultsFolder } from './support/run-folder.js';

/**
 * Ends the run with one plain line, `Tests: N passed, N failed, N skipped`, that any CI can read,
 * after the table of faults injected (test/faults), the slowest files and the response contract's
 * coverage; a whole run that never saw an operation succeed fails.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    process.stdout.write(faultTable(faultsFolder()));
    process.stdout.write(slowestFiles(testModules));
    const coverage = contractCoverage(testModules.length);
    process.stdout.write(coverage.text);
    if (coverage.incomplete) process.exitCode = 1;
    process.stdout.write(
      `\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
