import { readFileSync } from 'node:fs';
import { buildApis } from '../../api/index.js';
import {
  DOCUMENT_NAMES,
  DOCUMENTS,
  type DocumentName,
  openApiDocuments,
} from '../../api/reference/openapi.js';

/** docs/api.md's route tables and the OpenAPI documents they are held to (test/docs/*.unit.test.ts). */

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'];

type Content = { content?: Record<string, { schema?: { $ref?: string } }> };
export type Operation = { requestBody?: Content; responses: Record<string, Content> };
type Document = { paths: Record<string, Record<string, Operation>> };

/** Every operation of each API's OpenAPI document, by `METHOD /path`. */
export function documentedOperations(): Record<DocumentName, Map<string, Operation>> {
  const documents = openApiDocuments(buildApis()) as Record<DocumentName, Document>;
  return Object.fromEntries(
    DOCUMENT_NAMES.map((name) => [
      name,
      new Map(
        Object.entries(documents[name].paths).flatMap(([path, operations]) =>
          Object.entries(operations)
            .filter(([method]) => HTTP_METHODS.includes(method))
            .map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as const),
        ),
      ),
    ]),
  ) as Record<DocumentName, Map<string, Operation>>;
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

/** A row of a route table: the routes it lists (`METHOD /path`) and its cells after the path. */
export interface RouteRow {
  readonly routes: string[];
  readonly cells: string[];
}

/** The rows of docs/api.md's route tables, by the API whose section (`## … — \`<base>\``) holds them. */
export function tabledRows(): Record<DocumentName, RouteRow[]> {
  const rows = Object.fromEntries(DOCUMENT_NAMES.map((name) => [name, [] as RouteRow[]])) as Record<
    DocumentName,
    RouteRow[]
  >;
  let api: DocumentName | undefined;
  for (const line of readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8').split('\n')) {
    const section = /^## .* — `([^`]+)`/.exec(line);
    if (section) api = DOCUMENT_NAMES.find((name) => DOCUMENTS[name].base === section[1]);
    else if (/^## /.test(line)) api = undefined;
    const row = /^\|\s*([A-Z][A-Z, ]*[A-Z])\s*\|([^|]+)\|(.*)$/.exec(line);
    if (!api || !row) continue;
    const paths = cellPaths(row[2]!);
    rows[api].push({
      routes: row[1]!.split(',').flatMap((method) => paths.map((path) => `${method.trim()} ${path}`)),
      // A `\|` inside a cell is text, not a border.
      cells: row[3]!
        .replace(/\|\s*$/, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    });
  }
  return rows;
}
