import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findMigration } from '../../../db/repositories/migrations.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { MigrationEnvelope, serializeMigration } from '../../../wire/serializers/migration.js';

const route = createRoute({
  method: 'get',
  path: '/migrations/{migration}',
  tags: ['Migrations'],
  summary: 'Show a migration',
  description:
    'Its state and every state it went through with the time, the point of no return and whether it was ' +
    'reached, warnings, the failed step and failure, a recorded recovery decision, the lease, the retention ' +
    'deadline of the source, and the Temporal workflow (with a Web UI link when TEMPORAL_UI_URL is set).',
  request: { params: uuidParam('migration') },
  responses: {
    200: jsonContent(MigrationEnvelope, 'The migration.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const record = await findMigration(deps.db, c.req.valid('param').migration);
    if (!record) throw notFound();
    return c.json(serializeMigration(record, deps.config), 200);
  });
}
