import type { VolumeRow } from '../../../db/repositories/storage/volumes.js';
import { STORAGE_BACKENDS } from '../../../domain/hypervisors.js';
import { VOLUME_STATES } from '../../../domain/volumes.js';
import { z } from '../../zod.js';

const attributes = {
  uuid: z.string().uuid(),
  name: z.string(),
  location: z.string().openapi({ description: 'The code of its location.' }),
  backend: z.enum(STORAGE_BACKENDS).openapi({ description: 'The storage backend it is kept on.' }),
  size_mb: z.number().int().openapi({ description: 'Its size; a grow under way shows once it is done.' }),
  state: z.enum(VOLUME_STATES).openapi({
    description:
      '`available` on no instance; `attaching`, `detaching` or `resizing` while an operation of its instance ' +
      'changes it; `attached` on its instance.',
  }),
  instance: z
    .string()
    .uuid()
    .nullable()
    .openapi({ description: 'The instance it is on (or coming onto, or leaving); null on none.' }),
  created_at: z.string(),
  updated_at: z.string(),
};

export const VolumeEnvelope = z
  .object({ object: z.literal('volume'), attributes: z.object(attributes) })
  .openapi('Volume');

export function serializeVolume(row: VolumeRow): z.infer<typeof VolumeEnvelope> {
  return {
    object: 'volume',
    attributes: {
      uuid: row.id,
      name: row.name,
      location: row.location_code,
      backend: row.backend as (typeof STORAGE_BACKENDS)[number],
      size_mb: row.size_mb,
      state: row.state,
      instance: row.instance_id,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}

/** An administrator also sees whose it is, and where it is kept. */
export const AdminVolumeEnvelope = z
  .object({
    object: z.literal('volume'),
    attributes: z.object({
      ...attributes,
      user: z.string().uuid(),
      hypervisor: z
        .string()
        .uuid()
        .nullable()
        .openapi({ description: 'The hypervisor that keeps it, from its first attach; null before.' }),
      provisioned_mb: z.number().int().nullable().openapi({
        description: 'The size its disk has there, as the hypervisor last said; null while on none.',
      }),
    }),
  })
  .openapi('AdminVolume');

export function serializeAdminVolume(row: VolumeRow): z.infer<typeof AdminVolumeEnvelope> {
  const { object, attributes } = serializeVolume(row);
  return {
    object,
    attributes: {
      ...attributes,
      user: row.user_id,
      hypervisor: row.hypervisor_id,
      provisioned_mb: row.provisioned_mb,
    },
  };
}
