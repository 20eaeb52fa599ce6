import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildApis } from '../../api/index.js';
import { openApiDocuments } from '../../api/reference/openapi.js';
import { BLOCKERS, WARNINGS } from '../../domain/migrations/preflight.js';

/**
 * The preflight's codes are what operators' tooling matches on: docs/migration.md lists exactly
 * the codes of domain/migrations/preflight.ts with their details, and the admin API's document
 * gives the same codes as its enums.
 */
function documentedCodes(): { blocker: Record<string, string>; warning: Record<string, string> } {
  const doc = readFileSync(new URL('../../docs/migration.md', import.meta.url), 'utf8');
  const header = doc.search(/^\| Kind +\| Code +\| Detail/m);
  expect(header, 'the preflight code table of docs/migration.md').toBeGreaterThan(-1);
  const found = { blocker: {} as Record<string, string>, warning: {} as Record<string, string> };
  for (const line of doc.slice(header).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [kind, code, detail] = line
      .split('|')
      .slice(1, 4)
      .map((cell) => cell.trim());
    const name = code!.match(/^`([A-Z_]+)`$/)?.[1];
    expect(name, line).toBeDefined();
    expect(['blocker', 'warning'], line).toContain(kind);
    found[kind as 'blocker' | 'warning'][name!] = detail!;
  }
  return found;
}

describe('the preflight codes', () => {
  it('docs/migration.md lists each blocker and warning of domain/ with its detail, and no other', () => {
    const documented = documentedCodes();
    expect(documented.blocker).toEqual(BLOCKERS);
    expect(documented.warning).toEqual(WARNINGS);
  });

  it('the admin API document gives them as the enums of MigrationBlocker and MigrationWarning', () => {
    const admin = openApiDocuments(buildApis()).admin as {
      components: { schemas: Record<string, { properties: { code: { enum: string[] } } }> };
    };
    expect(admin.components.schemas.MigrationBlocker!.properties.code.enum).toEqual(Object.keys(BLOCKERS));
    expect(admin.components.schemas.MigrationWarning!.properties.code.enum).toEqual(Object.keys(WARNINGS));
  });
});
