import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { rollBackMigration } from '../../../services/migrations/control.js';
import { ReasonBody } from '../../../wire/requests/migration-fields.js';
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
import { adminActor } from '../../auth/principals.js';

/**
 * Cancel and rollback (SPEC.md §4): the same request to the migration's workflow, which undoes
 * what it did before the point of no return; they differ only in the outcome recorded.
 */
const KINDS = {
  cancel: {
    summary: 'Cancel a migration',
    does: 'Stops the migration before its point of no return and undoes what it did',
    outcome: 'CANCELLED',
  },
  rollback: {
    summary: 'Roll back a migration',
    does: 'Undoes the migration before its point of no return',
    outcome: 'ROLLED_BACK_BY_OPERATOR',
  },
} as const;

function routeFor(kind: keyof typeof KINDS) {
  const { summary, does, outcome } = KINDS[kind];
  return createRoute({
    method: 'post',
    path: `/migrations/{migration}/${kind}`,
    tags: ['Migrations'],
    summary,
    description:
      `${does}, in reverse (state \`ROLLING_BACK\`, then \`ROLLED_BACK\`, outcome \`${outcome}\`); the source stays ` +
      'authoritative and runs again if the migration stopped it. Allowed only before the point of no return; at ' +
      'or after it, use recovery. The answer is the migration as the request found it; the rollback follows ' +
      'within moments.',
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
}

export function register(app: OpenAPIHono<AppEnv>): void {
  for (const kind of ['cancel', 'rollback'] as const) {
    app.openapi(routeFor(kind), async (c) => {
      const deps = c.get('deps');
      const migration = await rollBackMigration(deps, adminActor(c), {
        migrationId: c.req.valid('param').migration,
        kind,
        reason: c.req.valid('json').reason,
      });
      return c.json(serializeMigration(migration, deps.config), 202);
    });
  }
}
