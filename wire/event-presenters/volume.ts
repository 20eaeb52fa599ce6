import { VOLUME_STATES } from '../../domain/volumes.js';
import { serializeVolume, VolumeEnvelope } from '../serializers/storage/volume.js';
import { z } from '../zod.js';
import { at, type EventPresenter, EXAMPLE_AT, EXAMPLE_IDS } from './presenter.js';

/** A volume's row as its repository reads it, its location's code with it. */
const VolumeSnapshot = z.object({
  id: z.string(),
  user_id: z.string(),
  location_id: z.string(),
  location_code: z.string(),
  name: z.string(),
  backend: z.string(),
  size_mb: z.number().int(),
  hypervisor_id: z.string().nullable(),
  provisioned_mb: z.number().int().nullable(),
  instance_id: z.string().nullable(),
  state: z.enum(VOLUME_STATES),
  created_at: at,
  updated_at: at,
});

/** As the Client API shows it: events of a volume go to its owner. */
export const volumePresenter: EventPresenter<typeof VolumeEnvelope> = {
  schema: VolumeEnvelope,
  present: (snapshot) => serializeVolume(VolumeSnapshot.parse(snapshot)),
  example: (state) => ({
    id: '6b8d0f2a-4c6e-4a8b-9d1f-3a5c7e9b1d3f',
    user_id: EXAMPLE_IDS.user,
    location_id: EXAMPLE_IDS.location,
    location_code: 'fra1',
    name: 'data',
    backend: 'lvm',
    size_mb: 20480,
    hypervisor_id: EXAMPLE_IDS.hypervisor,
    provisioned_mb: 20480,
    instance_id: state === 'attached' ? EXAMPLE_IDS.instance : null,
    state,
    created_at: EXAMPLE_AT,
    updated_at: EXAMPLE_AT,
  }),
};
