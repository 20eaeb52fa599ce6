import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../domain/errors.js';

/**
 * The README's table of error codes (APIs → Conventions) is what integrators code against: it
 * must list exactly the catalogue's codes, each with the status the API answers it with.
 */
function readmeErrorTable(): Map<string, number> {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const header = readme.search(/^\| Status \| Code +\| When/m);
  expect(header, 'the error table of README "Conventions"').toBeGreaterThan(-1);
  const rows = new Map<string, number>();
  for (const line of readme.slice(header).split('\n').slice(2)) {
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

describe("the README's error codes", () => {
  it('are the catalogue, with the same statuses', () => {
    const documented = Object.fromEntries(readmeErrorTable());
    const catalogue = Object.fromEntries(
      Object.entries(ERROR_CATALOGUE).map(([code, e]) => [code, e.status]),
    );
    expect(documented).toEqual(catalogue);
  });
});
