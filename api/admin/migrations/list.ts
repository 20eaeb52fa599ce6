import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listMigrations } from '../../../db/repositories/migrations.js';
import { MIGRATION_STATES } from '../../../domain/migrations/states.js';
import type { AppEnv } from '../../context.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../schemas.js';
import { MigrationEnvelope, serializeMigration } from '../../serializers/migration.js';
import { z } from '../../zod.js';

const MigrationListQuery = PageQuery.extend({
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
    'Paginated with `page` and `per_page`.',
  request: { query: MigrationListQuery },
  responses: {
    200: jsonContent(listEnvelope(MigrationEnvelope, 'MigrationList'), 'A page of migrations.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page, state, instance, hypervisor } = c.req.valid('query');
    const deps = c.get('deps');
    const request = { page, perPage: per_page };
    const { records, total } = await listMigrations(
      deps.db,
      {
        ...(state ? { state } : {}),
        ...(instance ? { instanceId: instance } : {}),
        ...(hypervisor ? { hypervisorId: hypervisor } : {}),
      },
      request,
    );
    return c.json(
      listBody(
        request,
        total,
        records.map((r) => serializeMigration(r, deps.config)),
      ),
      200,
    );
  });
}
