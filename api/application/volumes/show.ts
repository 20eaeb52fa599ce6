import { findVolume } from '../../../db/repositories/storage/volumes.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { AdminVolumeEnvelope, serializeAdminVolume } from '../../../wire/serializers/storage/volume.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  method: 'get',
  path: '/volumes/{volume}',
  tag: 'Volumes',
  summary: 'Show a volume',
  responses: {
    200: jsonContent(AdminVolumeEnvelope, 'The volume.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findVolume,
  serialize: serializeAdminVolume,
});
