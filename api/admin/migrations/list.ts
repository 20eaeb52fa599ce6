import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listMigrations } from '../../../db/repositories/migrations.js';
import { MIGRATION_STATES } from '../../../domain/migrations/states.js';
import type { AppEnv } from '../../context.js';
import { keysetListBody, keysetListEnvelope, keysetQuery, listRequestOf } from '../../keyset-list.js';
import { commonErrors, jsonContent } from '../../schemas.js';
import { MigrationEnvelope, serializeMigration } from '../../serializers/migration.js';
import { z } from '../../zod.js';

const MigrationListQuery = keysetQuery({
  state: z.enum(MIGRATION_STATES).optional(),
  instance: z.string().uuid().optional().openapi({ description: 'Migrations of this instance.' }),
  hypervisor: z.string().uuid().optional().openapi({ description: 'Migrations from or to this hypervisor.' }),
});

const route = createRoute({
  method: 'get',
  path: '/migrations',
  tags: ['Migrations'],
  summary: 'List migrations',
  description:
    'Newest first, filtered by `state`, `instance` and `hypervisor` (source or target); the filters combine. ' +
    'Paginated with `page` and `per_page`, or read on with `cursor` (keyset; docs/api.md "Conventions").',
  request: { query: MigrationListQuery },
  responses: {
    200: jsonContent(keysetListEnvelope(MigrationEnvelope, 'MigrationList'), 'A page of migrations.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid('query');
    const { state, instance, hypervisor } = query;
    const deps = c.get('deps');
    const request = listRequestOf(query);
    const { records, ...page } = await listMigrations(
      deps.db,
      {
        ...(state ? { state } : {}),
        ...(instance ? { instanceId: instance } : {}),
        ...(hypervisor ? { hypervisorId: hypervisor } : {}),
      },
      request,
    );
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
