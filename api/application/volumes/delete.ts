import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { AdminVolumeEnvelope, serializeAdminVolume } from '../../../wire/serializers/storage/volume.js';
import { adminActor } from '../../auth/principals.js';
import {
  VOLUME_DELETE_CONFLICTS,
  VOLUME_DELETING,
  volumeDeleteRoute,
  volumeGone,
} from '../../routes-kit/volumes.js';

export const { register } = volumeDeleteRoute({
  method: 'delete',
  path: '/volumes/{volume}',
  summary: 'Delete a volume',
  description:
    'As its owner would (`DELETE /api/client/cloud/volumes/{cloudVolume}`), logged in their activity with the ' +
    'administrator as the actor: 204 for one never attached, 202 `deleting` while its hypervisor removes it.',
  responses: {
    202: jsonContent(AdminVolumeEnvelope, VOLUME_DELETING),
    204: volumeGone,
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(VOLUME_DELETE_CONFLICTS),
    ...workflowUnavailableResponse,
  },
  asker: adminActor,
  serialize: serializeAdminVolume,
});
