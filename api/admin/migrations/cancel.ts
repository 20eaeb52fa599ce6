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
  path: '/migrations/{migration}/cancel',
  tags: ['Migrations'],
  summary: 'Cancel a migration',
  description:
    'Stops the migration before its point of no return and undoes what it did, in reverse (state `ROLLING_BACK`, then `ROLLED_BACK`, outcome `CANCELLED`); the source stays authoritative and runs again if the migration stopped it. ' +
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
      kind: 'cancel',
      reason: c.req.valid('json').reason,
    });
    return c.json(serializeMigration(migration, deps.config), 202);
  });
}
