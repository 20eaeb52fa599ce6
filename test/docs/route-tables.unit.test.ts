import { describe, expect, it } from 'vitest';
import { DOCUMENT_NAMES } from '../../api/reference/openapi.js';
import { documentedOperations, tabledRows } from './api-tables.js';

describe("docs/api.md's route tables", () => {
  const documented = documentedOperations();
  const fromTables = tabledRows();
  const tabled = (name: (typeof DOCUMENT_NAMES)[number]) => fromTables[name].flatMap((row) => row.routes);

  it.each(DOCUMENT_NAMES)('list every route of the %s API, and no route it does not have', (name) => {
    const documentedRoutes = [...documented[name].keys()];
    const tabledRoutes = tabled(name);
    expect({
      missing: documentedRoutes.filter((route) => !tabledRoutes.includes(route)),
      unknown: tabledRoutes.filter((route) => !documentedRoutes.includes(route)),
    }).toEqual({ missing: [], unknown: [] });
  });

  it('list each route once', () => {
    for (const name of DOCUMENT_NAMES) {
      const routes = tabled(name);
      expect(
        routes.filter((route, i) => routes.indexOf(route) !== i),
        name,
      ).toEqual([]);
    }
  });
});
