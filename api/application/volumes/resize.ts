import { resizeVolume } from '../../../services/storage/volume-resize.js';
import { resizeConflicts, VolumeResizeBody } from '../../../wire/requests/volume.js';
import { INSTANCE_BUSY } from '../../../wire/schemas.js';
import { volumeAction } from '../../routes-kit/volumes/action-route.js';

export const { register } = volumeAction({
  side: 'application',
  action: 'resize',
  summary: 'Grow a volume',
  description:
    'As the customer would (`POST /api/client/cloud/volumes/{cloudVolume}/resize`): sizes only grow, up to ' +
    '`VOLUME_MAX_SIZE_MB`, with the room held on the hypervisor that keeps it; on an instance by an operation ' +
    'of the instance (`volume_resize`), on none at once.',
  body: VolumeResizeBody,
  done: 'The volume has the size now (it was on no instance), or had it already.',
  conflicts: resizeConflicts(INSTANCE_BUSY),
  run: (deps, asker, request) =>
    resizeVolume(deps, asker, {
      volumeId: request.volumeId,
      sizeMb: request.body.size_mb,
      correlationId: request.correlationId,
    }),
});
