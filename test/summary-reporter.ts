import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { buildApis } from '../api/app.js';
import { DOCUMENT_NAMES, DOCUMENTS, openApiDocuments } from '../api/openapi.js';
import { contractFolder } from './support/run-folder.js';

/** Ends the run with one plain line, `Tests: N passed, N failed, N skipped`, that any CI can read. */
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
    process.stdout.write(contractCoverage());
    process.stdout.write(
      `\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}

type Operations = Record<string, Record<string, { operationId?: string }>>;

/**
 * How many of the documents' operations this run saw answer with a success, every answer checked
 * against its document (test/support/response-contract.ts), and which it never saw succeed.
 */
function contractCoverage(): string {
  const folder = contractFolder();
  if (!existsSync(folder)) return '';
  const succeeded = new Set<string>();
  for (const file of readdirSync(folder))
    for (const line of readFileSync(join(folder, file), 'utf8').split('\n')) {
      const [base, operationId, status] = line.split(' ');
      if (status?.startsWith('2')) succeeded.add(`${base} ${operationId}`);
    }
  if (succeeded.size === 0) return '';
  const documents = openApiDocuments(buildApis()) as Record<string, { paths: Operations }>;
  const all = DOCUMENT_NAMES.flatMap((name) =>
    Object.values(documents[name]!.paths).flatMap((methods) =>
      Object.values(methods).map((operation) => `${DOCUMENTS[name].base} ${operation.operationId}`),
    ),
  );
  const missed = all.filter((operation) => !succeeded.has(operation));
  return (
    `\nResponses checked against the OpenAPI documents: ${all.length - missed.length} of ${all.length} operations answered with a success` +
    (missed.length > 0 ? `; never seen to succeed: ${missed.join(', ')}\n` : '\n')
  );
}
