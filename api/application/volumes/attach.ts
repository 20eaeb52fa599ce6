import { attachVolume } from '../../../services/storage/volume-attachments.js';
import { attachConflicts, VolumeAttachBody } from '../../../wire/requests/volume.js';
import { INSTANCE_BUSY } from '../../../wire/schemas.js';
import { volumeAction } from '../../routes-kit/volumes/action-route.js';

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
  conflicts: attachConflicts(INSTANCE_BUSY),
  run: (deps, asker, request) =>
    attachVolume(deps, asker, {
      volumeId: request.volumeId,
      instanceId: request.body.instance,
      correlationId: request.correlationId,
    }),
});
