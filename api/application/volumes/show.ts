import { findVolume } from '../../../db/repositories/volumes.js';
import { AdminVolumeEnvelope, serializeAdminVolume } from '../../../wire/serializers/volume.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  resources: 'volumes',
  param: 'volume',
  tag: 'Volumes',
  summary: 'Show a volume',
  envelope: AdminVolumeEnvelope,
  find: findVolume,
  serialize: serializeAdminVolume,
});
