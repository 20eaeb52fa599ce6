import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApis } from '../api/index.js';
import { DOCUMENT_NAMES, DOCUMENTS, openApiDocuments } from '../api/reference/openapi.js';
import { contractFolder } from './support/run-folder.js';

type Operations = Record<string, Record<string, { operationId?: string }>>;

/**
 * How many of the documents' operations this run saw answer with a success, every answer checked
 * against its document (test/support/response-contract.ts), and which it never saw succeed.
 */
export function contractCoverage(modulesRun: number): { text: string; incomplete: boolean } {
  const folder = contractFolder();
  if (!existsSync(folder)) return { text: '', incomplete: false };
  const succeeded = new Set<string>();
  for (const file of readdirSync(folder))
    for (const line of readFileSync(join(folder, file), 'utf8').split('\n')) {
      const [base, operationId, status] = line.split(' ');
      if (status?.startsWith('2')) succeeded.add(`${base} ${operationId}`);
    }
  if (succeeded.size === 0) return { text: '', incomplete: false };
  const documents = openApiDocuments(buildApis()) as Record<string, { paths: Operations }>;
  const all = DOCUMENT_NAMES.flatMap((name) =>
    Object.values(documents[name]!.paths).flatMap((methods) =>
      Object.values(methods).map((operation) => `${DOCUMENTS[name].base} ${operation.operationId}`),
    ),
  );
  const missed = all.filter((operation) => !succeeded.has(operation));
  const incomplete = missed.length > 0 && wholeRun(modulesRun);
  return {
    text:
      `\nResponses checked against the OpenAPI documents: ${all.length - missed.length} of ${all.length} operations answered with a success` +
      (missed.length > 0 ? `; never seen to succeed: ${missed.join(', ')}\n` : '\n') +
      (incomplete ? 'A whole run must see every operation succeed: the run fails.\n' : ''),
    incomplete,
  };
}

/** Whether every test file ran, with no test name filter: only then must every operation be seen. */
function wholeRun(modulesRun: number): boolean {
  const tests = fileURLToPath(new URL('.', import.meta.url));
  const files = readdirSync(tests, { recursive: true }).filter((f) => String(f).endsWith('.test.ts'));
  const filtered = process.argv.some((arg) => arg === '-t' || arg.startsWith('--testNamePattern'));
  return modulesRun === files.length && !filtered;
}
