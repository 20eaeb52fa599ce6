import { detachVolume } from '../../../services/storage/volume-detach.js';
import { VolumeDetachBody } from '../../../wire/requests/volume.js';
import { INSTANCE_BUSY } from '../../../wire/schemas.js';
import { volumeAction } from '../../routes-kit/volumes/action-route.js';

export const { register } = volumeAction({
  side: 'application',
  action: 'detach',
  summary: 'Detach a volume from its instance',
  description:
    'As the customer would (`POST /api/client/cloud/volumes/{cloudVolume}/detach`): an operation of the ' +
    'instance (`volume_detach`); the volume’s content stays on the hypervisor that keeps it. The body may be ' +
    'left out.',
  body: VolumeDetachBody,
  bodyOptional: true,
  done: 'The volume is on no instance; nothing changed.',
  conflicts: `The volume is changing (SVC-CONFLICT-409); ${INSTANCE_BUSY}`,
  run: (deps, asker, request) =>
    detachVolume(deps, asker, { volumeId: request.volumeId, correlationId: request.correlationId }),
});
