import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { getMigration } from '../../../services/migrations/reads.js';
import { requestMigration } from '../../../services/migrations/request.js';
import { migrationMode, reason, targetHypervisor } from '../../../wire/requests/migration-fields.js';
import {
  commonErrors,
  conflictResponse,
  ErrorEnvelope,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { MigrationEnvelope, serializeMigration } from '../../../wire/serializers/migration.js';
import { z } from '../../../wire/zod.js';
import { adminActor } from '../../auth/principals.js';

const MigrationRequestBody = z
  .strictObject({ target_hypervisor_uuid: targetHypervisor, mode: migrationMode, reason: reason.optional() })
  .openapi('MigrationRequest');

const route = createRoute({
  method: 'post',
  path: '/instances/{instance}/migrations',
  tags: ['Migrations'],
  summary: 'Request a migration',
  description:
    'Runs the preflight; any blocker refuses the request (409 `MIGRATION_BLOCKED`, naming every blocker). ' +
    'Otherwise takes the instance’s exclusive migration lease, reserves the target’s capacity, issues the ' +
    'transfer token and starts the migration workflow. The answer is the migration in `REQUESTED`; follow ' +
    'it with `GET /migrations/{migration}`.',
  request: { params: uuidParam('instance'), body: jsonBody(MigrationRequestBody) },
  responses: {
    202: jsonContent(MigrationEnvelope, 'Accepted; the migration.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The preflight found blockers (MIGRATION_BLOCKED); another migration holds the instance’s lease ' +
        '(INSTANCE_MIGRATING); another operation is in progress (SVC-OP-409).',
    ),
    503: {
      description:
        'The workflow service is unavailable (SVC-SYS-503): the migration is not started, what it took is given ' +
        'back, and it is recorded ROLLED_BACK with the failure WORKFLOW_UNAVAILABLE.',
      content: { 'application/json': { schema: ErrorEnvelope } },
    },
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const deps = c.get('deps');
    const { migrationId } = await requestMigration(deps, adminActor(c), {
      instanceId: c.req.valid('param').instance,
      targetId: body.target_hypervisor_uuid,
      mode: body.mode,
      reason: body.reason,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeMigration(await getMigration(deps, migrationId), deps.config), 202);
  });
}
