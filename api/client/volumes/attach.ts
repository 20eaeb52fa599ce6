import { attachVolume } from '../../../services/storage/volume-attachments.js';
import { attachConflicts, VolumeAttachBody } from '../../../wire/requests/volume.js';
import { INSTANCE_HELD } from '../../../wire/schemas.js';
import { volumeAction } from '../../routes-kit/volumes/action-route.js';

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
  conflicts: attachConflicts(INSTANCE_HELD),
  run: (deps, asker, request) =>
    attachVolume(deps, asker, {
      volumeId: request.volumeId,
      instanceId: request.body.instance,
      correlationId: request.correlationId,
    }),
});
