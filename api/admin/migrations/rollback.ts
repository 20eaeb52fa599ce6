import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { rollBackMigration } from '../../../services/migrations/control.js';
import type { AppEnv } from '../../context.js';
import {
  commonErrors,
  conflictResponse,
  ErrorEnvelope,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../schemas.js';
import { MigrationEnvelope, serializeMigration } from '../../serializers/migration.js';
import { adminActor } from '../actor.js';
import { ReasonBody } from './fields.js';

const route = createRoute({
  method: 'post',
  path: '/migrations/{migration}/rollback',
  tags: ['Migrations'],
  summary: 'Roll back a migration',
  description:
    'Undoes the migration before its point of no return, in reverse (state `ROLLING_BACK`, then `ROLLED_BACK`, outcome `ROLLED_BACK_BY_OPERATOR`); the source stays authoritative and runs again if the migration stopped it. ' +
    'Allowed only before the point of no return; at or after it, use recovery. The answer is the migration as ' +
    'the request found it; the rollback follows within moments.',
  request: { params: uuidParam('migration'), body: jsonBody(ReasonBody.openapi('MigrationReason')) },
  responses: {
    202: jsonContent(MigrationEnvelope, 'Accepted; the migration.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'At or past the point of no return, or in RECOVERY_REQUIRED (MIGRATION_PAST_POINT_OF_NO_RETURN); ' +
        'already rolling back, completed or ended (MIGRATION_FINISHED).',
    ),
    503: {
      description: 'The workflow service is unavailable (SVC-SYS-503); nothing changed.',
      content: { 'application/json': { schema: ErrorEnvelope } },
    },
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const migration = await rollBackMigration(deps, adminActor(c), {
      migrationId: c.req.valid('param').migration,
      kind: 'rollback',
      reason: c.req.valid('json').reason,
    });
    return c.json(serializeMigration(migration, deps.config), 202);
  });
}
