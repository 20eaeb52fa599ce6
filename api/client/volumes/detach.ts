import { detachVolume } from '../../../services/storage/volume-detach.js';
import { VolumeDetachBody } from '../../../wire/requests/volume.js';
import { INSTANCE_HELD } from '../../../wire/schemas.js';
import { volumeAction } from '../../routes-kit/volumes/action-route.js';

export const { register } = volumeAction({
  side: 'client',
  action: 'detach',
  summary: 'Detach a volume from its instance',
  description:
    'The volume comes off its instance: an operation of the instance (`volume_detach`). A running guest lets go ' +
    'of the disk first (unmount it before). Its content stays, on the hypervisor that keeps it. The volume is ' +
    '`detaching`, then `available`; `attached` again if the hypervisor failed. On no instance: 200. The body ' +
    'may be left out.',
  body: VolumeDetachBody,
  bodyOptional: true,
  done: 'The volume is on no instance; nothing changed.',
  conflicts: `The volume is changing (SVC-CONFLICT-409); ${INSTANCE_HELD}`,
  run: (deps, asker, request) =>
    detachVolume(deps, asker, { volumeId: request.volumeId, correlationId: request.correlationId }),
});
