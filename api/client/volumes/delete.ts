import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { serializeVolume, VolumeEnvelope } from '../../../wire/serializers/storage/volume.js';
import { customerActor } from '../../auth/principals.js';
import {
  VOLUME_DELETE_CONFLICTS,
  VOLUME_DELETING,
  volumeDeleteRoute,
  volumeGone,
} from '../../routes-kit/volumes.js';

export const { register } = volumeDeleteRoute({
  method: 'delete',
  path: '/volumes/{cloudVolume}',
  summary: 'Delete a volume',
  description:
    'A volume on no instance, its content with it. One never attached goes at once, answered 204. One kept on a ' +
    'hypervisor is `deleting` (202) while the hypervisor removes its disk, then gone, its room let go; if the ' +
    'hypervisor fails, it is `available` again. Detach it first: on an instance it is 409 `SVC-INUSE-409`.',
  responses: {
    202: jsonContent(VolumeEnvelope, VOLUME_DELETING),
    204: volumeGone,
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(VOLUME_DELETE_CONFLICTS),
    ...workflowUnavailableResponse,
  },
  asker: customerActor,
  serialize: serializeVolume,
});
