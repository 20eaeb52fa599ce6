import { listSnapshotsOfInstance } from '../../../../db/repositories/snapshots.js';
import { SnapshotEnvelope, serializeSnapshot } from '../../../../wire/serializers/snapshot.js';
import { instanceListRoute } from '../list-route.js';

export const { register } = instanceListRoute({
  paging: 'pages',
  things: 'snapshots',
  tag: 'Snapshots',
  summary: 'The instance’s snapshots',
  description:
    'Newest first, paginated; deleted ones are left out. States: `creating`, `available`, `restoring`, ' +
    '`deleting`, `failed` (`error` says why).',
  item: SnapshotEnvelope,
  listName: 'SnapshotList',
  page: 'A page of snapshots.',
  read: listSnapshotsOfInstance,
  serialize: serializeSnapshot,
});
