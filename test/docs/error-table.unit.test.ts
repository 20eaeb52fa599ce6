import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../domain/errors.js';

/**
 * The table of error codes in docs/api.md (Conventions) is what integrators code against: it
 * must list exactly the catalogue's codes, each with the status the API answers it with.
 */
function documentedErrorTable(): Map<string, number> {
  const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const header = doc.search(/^\| Status \| Code +\| When/m);
  expect(header, 'the error table of docs/api.md "Conventions"').toBeGreaterThan(-1);
  const rows = new Map<string, number>();
  for (const line of doc.slice(header).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [status, code] = line
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim());
    const name = code?.match(/^`([^`]+)`$/)?.[1];
    expect(name, `a code in backticks: ${line}`).toBeDefined();
    expect(rows.has(name!), `${name} listed once`).toBe(false);
    rows.set(name!, Number(status));
  }
  return rows;
}

describe('the error codes of docs/api.md', () => {
  it('are the catalogue, with the same statuses', () => {
    const documented = Object.fromEntries(documentedErrorTable());
    const catalogue = Object.fromEntries(
      Object.entries(ERROR_CATALOGUE).map(([code, e]) => [code, e.status]),
    );
    expect(documented).toEqual(catalogue);
  });
});
