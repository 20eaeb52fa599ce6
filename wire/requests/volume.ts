import { STORAGE_BACKENDS } from '../../domain/hypervisors.js';
import { INT4_MAX, text } from '../../domain/input-bounds.js';
import { VOLUME_MIN_MB, VOLUMES_PER_INSTANCE } from '../../domain/volumes.js';
import { z } from '../zod.js';

/** A volume's size in MB, as asked: whole, within what the database holds (the provider's bound is the service's). */
export const VolumeSize = z
  .number()
  .int()
  .positive()
  .max(INT4_MAX)
  .openapi({
    description: `In MB: at least ${VOLUME_MIN_MB}, at most the provider’s \`VOLUME_MAX_SIZE_MB\` (1 TiB by default).`,
    example: 10_240,
  });

/** A new volume as a customer asks for it (an administrator names the customer besides). */
export const CreateVolumeBody = z
  .strictObject({
    name: text({ max: 64, trim: true }).openapi({ example: 'data' }),
    location: text({ max: 64 }).openapi({ description: 'The code of a location.', example: 'ams1' }),
    size_mb: VolumeSize,
    backend: z
      .enum(STORAGE_BACKENDS)
      .default('local')
      .openapi({ description: 'The storage backend to keep it on; `local` by default.' }),
  })
  .openapi('CreateVolumeRequest');

export const VolumeAttachBody = z
  .object({
    instance: z
      .string()
      .uuid()
      .openapi({ description: 'An instance of the volume’s owner, in its location.' }),
  })
  .strict()
  .openapi('VolumeAttachRequest');

export const VolumeDetachBody = z.object({}).strict().openapi('VolumeDetachRequest');

export const VolumeResizeBody = z.object({ size_mb: VolumeSize }).strict().openapi('VolumeResizeRequest');

/** Why an attach is refused, for both APIs' documents; `held` says why the instance's operation is. */
export const attachConflicts = (held: string) =>
  'The volume is on another instance or changing, the instance is in another location or on a hypervisor ' +
  'without the volume’s backend, or the volume is kept on another hypervisor (SVC-CONFLICT-409); the ' +
  `instance has ${VOLUMES_PER_INSTANCE} volumes already (SVC-QUOTA-409); its hypervisor lacks the room for ` +
  `the volume (SVC-CAPACITY-409); ${held}`;

/** Why a grow is refused, for both APIs' documents. */
export const resizeConflicts = (held: string) =>
  'The volume is changing (SVC-CONFLICT-409); the size is above `VOLUME_MAX_SIZE_MB` (SVC-QUOTA-409); the ' +
  'growth would take the owner past their `disk_mb` quota (QUOTA_EXCEEDED); its hypervisor lacks the room ' +
  `(SVC-CAPACITY-409); ${held}`;
