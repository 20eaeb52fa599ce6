import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildApis } from '../../api/index.js';
import { DOCUMENT_NAMES, DOCUMENTS, openApiDocuments } from '../../api/reference/openapi.js';

type Paths = Record<string, Record<string, unknown>>;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'];

/** `METHOD /path` of every operation of each API's OpenAPI document. */
function documented(): Record<string, string[]> {
  const documents = openApiDocuments(buildApis()) as Record<string, { paths: Paths }>;
  return Object.fromEntries(
    DOCUMENT_NAMES.map((name) => [
      name,
      Object.entries(documents[name]!.paths).flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => HTTP_METHODS.includes(method))
          .map((method) => `${method.toUpperCase()} ${path}`),
      ),
    ]),
  );
}

/**
 * A cell's paths: `\`/{cloudInstance}/firewall\`, \`/firewall/rules\`` is the first path and the
 * others read against it, from the segment they repeat (`/{cloudInstance}/firewall/rules`) or, where
 * they repeat none, in place of its last segment (`\`/volumes/{volume}/attach\`, \`/detach\``).
 * A query string is not part of a path.
 */
function cellPaths(cell: string): string[] {
  const [first, ...others] = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.split('?')[0]!);
  if (!first) return [];
  const segments = first.split('/');
  return [
    first,
    ...others.map((other) => {
      const at = segments.indexOf(other.split('/')[1]!);
      return segments.slice(0, at > 0 ? at : -1).join('/') + other;
    }),
  ];
}

/** The rows of docs/api.md's route tables, by the API whose section (`## … — \`<base>\``) holds them. */
function tabled(): Record<string, string[]> {
  const rows: Record<string, string[]> = Object.fromEntries(DOCUMENT_NAMES.map((name) => [name, []]));
  let api: string | undefined;
  for (const line of readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8').split('\n')) {
    const section = /^## .* — `([^`]+)`/.exec(line);
    if (section) api = DOCUMENT_NAMES.find((name) => DOCUMENTS[name].base === section[1]);
    else if (/^## /.test(line)) api = undefined;
    const row = /^\|\s*([A-Z][A-Z, ]*[A-Z])\s*\|([^|]+)\|/.exec(line);
    if (!api || !row) continue;
    for (const method of row[1]!.split(','))
      for (const path of cellPaths(row[2]!)) rows[api]!.push(`${method.trim()} ${path}`);
  }
  return rows;
}

describe("docs/api.md's route tables", () => {
  const fromDocuments = documented();
  const fromTables = tabled();

  it.each(DOCUMENT_NAMES)('list every route of the %s API, and no route it does not have', (name) => {
    const documentedRoutes = fromDocuments[name] ?? [];
    const tabledRoutes = fromTables[name] ?? [];
    expect({
      missing: documentedRoutes.filter((route) => !tabledRoutes.includes(route)),
      unknown: tabledRoutes.filter((route) => !documentedRoutes.includes(route)),
    }).toEqual({ missing: [], unknown: [] });
  });

  it('list each route once', () => {
    for (const name of DOCUMENT_NAMES) {
      const routes = fromTables[name] ?? [];
      expect(
        routes.filter((route, i) => routes.indexOf(route) !== i),
        name,
      ).toEqual([]);
    }
  });
});
