import { resizeVolume } from '../../../services/storage/volume-resize.js';
import { resizeConflicts, VolumeResizeBody } from '../../../wire/requests/volume.js';
import { INSTANCE_HELD } from '../../../wire/schemas.js';
import { volumeAction } from '../../routes-kit/volumes/action-route.js';

export const { register } = volumeAction({
  side: 'client',
  action: 'resize',
  summary: 'Grow a volume',
  description:
    'Sizes only grow, up to `VOLUME_MAX_SIZE_MB`, and the hypervisor that keeps the volume must have the room ' +
    '(it is held for it at once). On an instance: an operation of the instance (`volume_resize`) grows the disk ' +
    'under the guest, which sees the new size at once: its file system is the guest’s to grow. The volume is ' +
    '`resizing`, then `attached` with its new size. On no instance: the size is recorded at once, answered 200, and the ' +
    'disk grows at its next attach.',
  body: VolumeResizeBody,
  done: 'The volume has the size now (it was on no instance), or had it already.',
  conflicts: resizeConflicts(INSTANCE_HELD),
  run: (deps, asker, request) =>
    resizeVolume(deps, asker, {
      volumeId: request.volumeId,
      sizeMb: request.body.size_mb,
      correlationId: request.correlationId,
    }),
});
