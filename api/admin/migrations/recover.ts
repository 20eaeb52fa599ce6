import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { RECOVERY_DECISIONS } from '../../../domain/migrations/states.js';
import type { AppEnv } from '../../../http/context.js';
import { recoverMigrationWith } from '../../../services/migrations/control.js';
import { reason } from '../../../wire/requests/migration-fields.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { MigrationEnvelope, serializeMigration } from '../../../wire/serializers/migration.js';
import { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';

const RecoveryBody = z
  .strictObject({
    decision: z.enum(RECOVERY_DECISIONS).openapi({
      description:
        '`retry`: run the failed step again. `target_authoritative`: the guest is good on the target; commit ' +
        'and clean up. `source_authoritative`: the operator has the source running; discard the target copy ' +
        'and end `ROLLED_BACK`. Once the target is committed (a failed cleanup), only `retry` is possible.',
    }),
    reason,
  })
  .openapi('MigrationRecovery');

const route = createRoute({
  method: 'post',
  path: '/migrations/{migration}/recover',
  tags: ['Migrations'],
  summary: 'Record a recovery decision',
  description:
    'For a migration in `RECOVERY_REQUIRED` (a failure at or after the point of no return): the panel never ' +
    'restarts the source by itself; the workflow waits for this decision, records it with its reason and ' +
    'acts on it.',
  request: { params: uuidParam('migration'), body: jsonBody(RecoveryBody) },
  responses: {
    202: jsonContent(MigrationEnvelope, 'Accepted; the migration.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('The migration is not in RECOVERY_REQUIRED (MIGRATION_NOT_RECOVERABLE).'),
    ...workflowUnavailableResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const body = c.req.valid('json');
    const migration = await recoverMigrationWith(deps, adminActor(c), {
      migrationId: c.req.valid('param').migration,
      decision: body.decision,
      reason: body.reason,
    });
    return c.json(serializeMigration(migration, deps.config), 202);
  });
}
