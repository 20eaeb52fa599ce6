import { recoverMigrationWith } from '../../../services/migrations/control.js';
import { recoveryBody } from '../../../wire/requests/move-fields.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { MigrationEnvelope, serializeMigration } from '../../../wire/serializers/moves/migration.js';
import { moveRecoverRoute } from '../moves-kit/recover.js';

export const { register } = moveRecoverRoute({
  method: 'post',
  path: '/migrations/{migration}/recover',
  tag: 'Migrations',
  summary: 'Record a recovery decision',
  description:
    'For a migration in `RECOVERY_REQUIRED` (a failure at or after the point of no return): the panel never ' +
    'restarts the source by itself; the workflow waits for this decision, records it with its reason and ' +
    'acts on it.',
  body: recoveryBody(
    'MigrationRecovery',
    '`retry`: run the failed step again. `target_authoritative`: the guest is good on the target; commit ' +
      'and clean up. `source_authoritative`: the operator has the source running; discard the target copy ' +
      'and end `ROLLED_BACK`. Once the target is committed (a failed cleanup), only `retry` is possible.',
  ),
  responses: {
    202: jsonContent(MigrationEnvelope, 'Accepted; the migration.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('The migration is not in RECOVERY_REQUIRED (MIGRATION_NOT_RECOVERABLE).'),
    ...workflowUnavailableResponse,
  },
  decide: (deps, actor, { id, ...decision }) =>
    recoverMigrationWith(deps, actor, { migrationId: id, ...decision }),
  serialize: serializeMigration,
});
