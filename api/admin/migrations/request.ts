import { getMigration } from '../../../services/migrations/reads.js';
import { requestMigration } from '../../../services/migrations/request.js';
import { convergenceRequest } from '../../../wire/requests/convergence-fields.js';
import { targetHypervisor } from '../../../wire/requests/migration-fields.js';
import { moveMode, reason } from '../../../wire/requests/move-fields.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  unavailableResponse,
} from '../../../wire/schemas.js';
import { MigrationEnvelope, serializeMigration } from '../../../wire/serializers/moves/migration.js';
import { z } from '../../../wire/zod.js';
import { moveRequestRoute } from '../moves-kit/request.js';

const MigrationRequestBody = z
  .strictObject({
    target_hypervisor_uuid: targetHypervisor,
    mode: moveMode,
    reason: reason.optional(),
    convergence: convergenceRequest.optional(),
  })
  .openapi('MigrationRequest');

export const { register } = moveRequestRoute({
  method: 'post',
  path: '/instances/{instance}/migrations',
  tag: 'Migrations',
  summary: 'Request a migration',
  description:
    'Runs the preflight; any blocker refuses the request (409 `MIGRATION_BLOCKED`, naming every blocker). ' +
    'A source with as many moves out under way as `MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR` allows refuses it ' +
    'with 409 `MIGRATION_SOURCE_BUSY` (the limit and the moves named, `Retry-After: 30`) when that is its only ' +
    'blocker; nothing is written. ' +
    'Otherwise takes the instance’s exclusive move lease, reserves the target’s capacity, issues the ' +
    'transfer token, records the convergence policy in force (`convergence`: the body’s figures over the ' +
    'configured defaults; a figure out of its bounds is a 400 naming it, and nothing is recorded) and starts the ' +
    'migration workflow. The answer is the migration in `REQUESTED`; follow ' +
    'it with `GET /migrations/{migration}`. A refused request changes nothing. A target that still holds the ' +
    'copy an earlier migration of the instance retains takes the move (warning `RETAINED_COPY_REPLACED`): ' +
    'that copy stays beside the arriving one until this migration commits, then it is removed.',
  body: MigrationRequestBody,
  responses: {
    202: jsonContent(MigrationEnvelope, 'Accepted; the migration.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'The preflight found blockers (MIGRATION_BLOCKED); the source has no slot for one more move out ' +
        '(MIGRATION_SOURCE_BUSY, with Retry-After); another migration holds the instance’s lease ' +
        '(INSTANCE_MIGRATING); another operation is in progress (SVC-OP-409).',
    ),
    ...unavailableResponse(
      'The workflow service is unavailable (SVC-SYS-503): the migration is not started, what it took is given ' +
        'back, and it is recorded ROLLED_BACK with the failure WORKFLOW_UNAVAILABLE.',
    ),
  },
  request: async (deps, actor, ask, body) => {
    const { migrationId } = await requestMigration(deps, actor, {
      ...ask,
      targetId: body.target_hypervisor_uuid,
      mode: body.mode,
      reason: body.reason,
      convergence: body.convergence,
    });
    return getMigration(deps, migrationId);
  },
  serialize: serializeMigration,
});
