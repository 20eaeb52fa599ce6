import { VOLUMES_PER_INSTANCE } from '../../../domain/volumes.js';
import { attachVolume } from '../../../services/storage/volume-attachments.js';
import { INSTANCE_HELD } from '../../schemas.js';
import { VolumeAttachBody } from '../../volume-request.js';
import { volumeAction } from '../../volumes/action-route.js';

export const { register } = volumeAction({
  side: 'client',
  action: 'attach',
  summary: 'Attach a volume to an instance',
  description:
    'The volume goes on one of your instances in its location: an operation of the instance (`volume_attach`). ' +
    'A running guest sees a new disk at once, whose serial is the volume’s uuid cut to 20 characters; a stopped ' +
    'one at its next boot. On its first attach the volume’s disk is made on the instance’s hypervisor, which ' +
    'keeps it: later it attaches only to instances there. The volume is `attaching`, then `attached`; ' +
    '`available` again if the hypervisor failed, and the operation says why. Already on the instance: 200.',
  body: VolumeAttachBody,
  done: 'The volume already is on the instance; nothing changed.',
  conflicts:
    'The volume is on another instance or changing, the instance is in another location or on a hypervisor ' +
    'without the volume’s backend, or the volume is kept on another hypervisor (SVC-CONFLICT-409); the ' +
    `instance has ${VOLUMES_PER_INSTANCE} volumes already (SVC-QUOTA-409); its hypervisor lacks the room for ` +
    `the volume (SVC-CAPACITY-409); ${INSTANCE_HELD}`,
  run: (deps, asker, request) =>
    attachVolume(deps, asker, {
      volumeId: request.volumeId,
      instanceId: request.body.instance,
      correlationId: request.correlationId,
    }),
});
