import { migrationPreflight } from '../../../services/migrations/preflight.js';
import { convergenceRequest } from '../../../wire/requests/convergence-fields.js';
import { targetHypervisor } from '../../../wire/requests/migration-fields.js';
import { moveMode } from '../../../wire/requests/move-fields.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { MigrationPreflightEnvelope, serializePreflight } from '../../../wire/serializers/moves/migration.js';
import { z } from '../../../wire/zod.js';
import { movePreflightRoute } from '../moves-kit/preflight.js';

const PreflightBody = z
  .strictObject({
    target_hypervisor_uuid: targetHypervisor,
    mode: moveMode,
    convergence: convergenceRequest.optional(),
  })
  .openapi('MigrationPreflightRequest');

export const { register } = movePreflightRoute({
  method: 'post',
  path: '/instances/{instance}/migrations/preflight',
  tag: 'Migrations',
  summary: 'Preflight a migration (read-only)',
  description:
    'Judges the move without changing anything: every blocker and every warning (each with a stable code), the ' +
    'strategy each mode would use with the target, the candidate targets best first, and each rejected ' +
    'hypervisor with its reasons. Without `target_hypervisor_uuid`, the best candidate is judged. A blocked ' +
    'migration is still a 200, with `ok: false`; an unknown target is the blocker `NO_TARGET`. A ' +
    '`convergence` policy is checked as the request checks it (a figure out of its bounds is a 400 naming it).',
  body: PreflightBody,
  responses: {
    200: jsonContent(MigrationPreflightEnvelope, 'The report.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  judge: async (deps, instanceId, body) =>
    serializePreflight(
      await migrationPreflight(deps, { instanceId, targetId: body.target_hypervisor_uuid, mode: body.mode }),
    ),
});
