import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { contractCoverage } from './contract-coverage.js';
import { faultTable } from './faults/table.js';
import { slowestFiles } from './slowest-files.js';
import { faultsFolder } from './support/run-folder.js';

/**
 * Ends the run with one plain line, `Tests: N passed, N failed, N skipped`, that any CI can read,
 * after the table of faults injected (test/faults), the slowest files, the response contract's
 * coverage and the tests that failed, by file and name (a CI that keeps only a log's tail still
 * shows which); a whole run that never saw an operation succeed fails.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const failures: string[] = [];
    for (const module of testModules) {
      const file = relative(process.cwd(), module.moduleId);
      for (const error of module.errors()) failures.push(`${file}: ${error.message?.split('\n')[0]}`);
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') {
          counts.failed++;
          const error = test.result().errors?.[0]?.message?.split('\n')[0]?.slice(0, 160);
          failures.push(`${file} > ${test.fullName}${error ? `: ${error}` : ''}`);
        } else counts.skipped++;
      }
    }
    process.stdout.write(faultTable(faultsFolder()));
    process.stdout.write(slowestFiles(testModules));
    const coverage = contractCoverage(testModules.length);
    process.stdout.write(coverage.text);
    if (coverage.incomplete) process.exitCode = 1;
    if (failures.length > 0) process.stdout.write(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}\n`);
    process.stdout.write(
      `\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
