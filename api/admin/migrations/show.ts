import { getMigration } from '../../../services/migrations/reads.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { MigrationEnvelope, serializeMigration } from '../../../wire/serializers/moves/migration.js';
import { moveShowRoute } from '../moves-kit/show.js';

export const { register } = moveShowRoute({
  method: 'get',
  path: '/migrations/{migration}',
  tag: 'Migrations',
  summary: 'Show a migration',
  description:
    'Its state and every state it went through with the time, the point of no return and whether it was ' +
    'reached, warnings, the failed step and failure, a recorded recovery decision, the lease, the retention ' +
    'deadline of the source, and the Temporal workflow (with a Web UI link when TEMPORAL_UI_URL is set).',
  responses: {
    200: jsonContent(MigrationEnvelope, 'The migration.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  read: getMigration,
  serialize: serializeMigration,
});
