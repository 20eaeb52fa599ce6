import { describe, expect, it } from 'vitest';
import type { DocumentName } from '../../api/reference/openapi.js';
import { documentedOperations, type Operation, tabledRows } from './api-tables.js';

/**
 * The APIs whose route table names each route's bodies by their schemas in its OpenAPI document
 * (`components.schemas`) instead of describing them by hand: the cell after the path reads
 * `` `Request` → 201 `Answer` ``, or `` → 200 `Answer`, 204 `` for a route that takes no body, and
 * nothing else. Held to the document here, a row cannot name a body the route no longer takes, nor
 * leave out one it does.
 */
const SCHEMA_NAMED: readonly DocumentName[] = ['agent'];

const JSON_TYPE = 'application/json';
const schemaName = (ref: string | undefined) =>
  ref?.replace('#/components/schemas/', '') ?? 'an unnamed schema';

/** A route's bodies as its document gives them, in the table's words. */
function documentedBodies(operation: Operation): string {
  const request = operation.requestBody?.content?.[JSON_TYPE];
  const answers = Object.entries(operation.responses)
    .filter(([status]) => /^2\d\d$/.test(status))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, response]) => {
      const body = response.content?.[JSON_TYPE];
      return body ? `${status} \`${schemaName(body.schema?.$ref)}\`` : status;
    });
  return `${request ? `\`${schemaName(request.schema?.$ref)}\` ` : ''}→ ${answers.join(', ')}`;
}

describe("docs/api.md's route tables name each route's bodies by the document's schemas", () => {
  const documented = documentedOperations();
  const rows = tabledRows();

  it.each(SCHEMA_NAMED)('in the %s API', (name) => {
    const mismatches = rows[name].flatMap((row) =>
      row.routes.flatMap((route) => {
        const operation = documented[name].get(route);
        const tabled = row.cells[0] ?? '';
        const wanted = operation ? documentedBodies(operation) : 'a route of the document';
        return tabled === wanted ? [] : [{ route, tabled, wanted }];
      }),
    );
    expect(rows[name].length).toBeGreaterThan(0);
    expect(mismatches).toEqual([]);
  });
});
