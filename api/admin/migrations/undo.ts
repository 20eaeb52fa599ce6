import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MigrationRecord } from '../../../db/repositories/moves/migration-records.js';
import type { AppEnv } from '../../../http/context.js';
import { rollBackMigration } from '../../../services/migrations/control.js';
import { ReasonBody } from '../../../wire/requests/move-fields.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  unavailableResponse,
} from '../../../wire/schemas.js';
import { MigrationEnvelope, serializeMigration } from '../../../wire/serializers/moves/migration.js';
import { moveUndoRoute, type UndoService } from '../moves-kit/undo.js';

/**
 * Cancel and rollback (SPEC.md §4): the same request to the migration's workflow, which undoes
 * what it did before the point of no return; they differ only in the outcome recorded.
 */
const description = (does: string, outcome: string) =>
  `${does}, in reverse (state \`ROLLING_BACK\`, then \`ROLLED_BACK\`, outcome \`${outcome}\`); the source stays ` +
  'authoritative and runs again if the migration stopped it. Allowed only before the point of no return; at ' +
  'or after it, use recovery. The answer is the migration as the request found it; the rollback follows ' +
  'within moments.';

const responses = {
  202: jsonContent(MigrationEnvelope, 'Accepted; the migration.'),
  ...commonErrors,
  ...notFoundResponse,
  ...conflictResponse(
    'At or past the point of no return, or in RECOVERY_REQUIRED (MIGRATION_PAST_POINT_OF_NO_RETURN); ' +
      'already rolling back, completed or ended (MIGRATION_FINISHED).',
  ),
  ...unavailableResponse('The workflow service is unavailable (SVC-SYS-503); nothing changed.'),
};

const undo: UndoService<MigrationRecord> = (deps, actor, { id, ...request }) =>
  rollBackMigration(deps, actor, { migrationId: id, ...request });

const cancel = moveUndoRoute({
  method: 'post',
  path: '/migrations/{migration}/cancel',
  kind: 'cancel',
  tag: 'Migrations',
  summary: 'Cancel a migration',
  description: description(
    'Stops the migration before its point of no return and undoes what it did',
    'CANCELLED',
  ),
  body: ReasonBody.openapi('MigrationReason'),
  responses,
  undo,
  serialize: serializeMigration,
});

const rollback = moveUndoRoute({
  method: 'post',
  path: '/migrations/{migration}/rollback',
  kind: 'rollback',
  tag: 'Migrations',
  summary: 'Roll back a migration',
  description: description('Undoes the migration before its point of no return', 'ROLLED_BACK_BY_OPERATOR'),
  body: ReasonBody.openapi('MigrationReason'),
  responses,
  undo,
  serialize: serializeMigration,
});

export function register(app: OpenAPIHono<AppEnv>): void {
  cancel.register(app);
  rollback.register(app);
}
