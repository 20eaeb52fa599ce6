import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { listMigrationPage } from '../../../services/migrations/reads.js';
import { keysetListBody, keysetListEnvelope, keysetQuery, listRequestOf } from '../../../wire/keyset-list.js';
import { migrationFilterFields, migrationFiltersOf } from '../../../wire/requests/migration-filters.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import { MigrationEnvelope, serializeMigration } from '../../../wire/serializers/migration.js';

const route = createRoute({
  method: 'get',
  path: '/migrations',
  tags: ['Migrations'],
  summary: 'List migrations',
  description:
    'Newest first, filtered by `state`, `instance`, `hypervisor` (source or target) and the time requested ' +
    '(`since`, `until`); the filters combine. ' +
    'Paginated with `page` and `per_page`, or read on with `cursor` (keyset; docs/api.md "Conventions"). ' +
    'A browser asking for HTML without a credential gets the admin page of the same path instead ' +
    '(docs/admin-pages.md).',
  request: { query: keysetQuery(migrationFilterFields) },
  responses: {
    200: jsonContent(keysetListEnvelope(MigrationEnvelope, 'MigrationList'), 'A page of migrations.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid('query');
    const deps = c.get('deps');
    const request = listRequestOf(query);
    const { records, ...page } = await listMigrationPage(deps, migrationFiltersOf(query), request);
    return c.json(
      keysetListBody(
        request,
        page,
        records.map((r) => serializeMigration(r, deps.config)),
      ),
      200,
    );
  });
}
