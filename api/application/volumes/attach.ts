import { VOLUMES_PER_INSTANCE } from '../../../domain/volumes.js';
import { attachVolume } from '../../../services/storage/volume-attachments.js';
import { INSTANCE_BUSY } from '../../schemas.js';
import { VolumeAttachBody } from '../../volume-request.js';
import { volumeAction } from '../../volumes/action-route.js';

export const { register } = volumeAction({
  side: 'application',
  action: 'attach',
  summary: 'Attach a volume to an instance of its owner',
  description:
    'As the customer would (`POST /api/client/cloud/volumes/{cloudVolume}/attach`), to an instance of the ' +
    'volume’s owner in its location: an operation of the instance (`volume_attach`), logged in the owner’s ' +
    'activity with the administrator as the actor. A suspended instance takes it too.',
  body: VolumeAttachBody,
  done: 'The volume already is on the instance; nothing changed.',
  conflicts:
    'The volume is on another instance or changing, the instance is in another location or on a hypervisor ' +
    'without the volume’s backend, or the volume is kept on another hypervisor (SVC-CONFLICT-409); the ' +
    `instance has ${VOLUMES_PER_INSTANCE} volumes already (SVC-QUOTA-409); its hypervisor lacks the room for ` +
    `the volume (SVC-CAPACITY-409); ${INSTANCE_BUSY}`,
  run: (deps, asker, request) =>
    attachVolume(deps, asker, {
      volumeId: request.volumeId,
      instanceId: request.body.instance,
      correlationId: request.correlationId,
    }),
});
