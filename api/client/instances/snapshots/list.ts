import { listSnapshotsOfInstance } from '../../../../db/repositories/storage/snapshots.js';
import { commonErrors, jsonContent, listEnvelope, notFoundResponse } from '../../../../wire/schemas.js';
import { SnapshotEnvelope, serializeSnapshot } from '../../../../wire/serializers/storage/snapshot.js';
import { instanceListRoute } from '../list-route.js';

export const { register } = instanceListRoute({
  paging: 'pages',
  method: 'get',
  path: '/{cloudInstance}/snapshots',
  tag: 'Snapshots',
  summary: 'The instance’s snapshots',
  description:
    'Newest first, paginated; deleted ones are left out. States: `creating`, `available`, `restoring`, ' +
    '`deleting`, `failed` (`error` says why).',
  responses: {
    200: jsonContent(listEnvelope(SnapshotEnvelope, 'SnapshotList'), 'A page of snapshots.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  read: listSnapshotsOfInstance,
  serialize: serializeSnapshot,
});
