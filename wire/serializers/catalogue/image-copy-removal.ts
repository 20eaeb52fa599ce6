import type { ImageCopyRemovalRow } from '../../../db/repositories/catalogue/image-copy-removal-reads.js';
import { IMAGE_REMOVAL_STATES } from '../../../domain/image-removals.js';
import { z } from '../../zod.js';

export const ImageCopyRemovalEnvelope = z
  .object({
    object: z.literal('image_copy_removal'),
    attributes: z.object({
      image_version: z.string().uuid().openapi({ description: 'The deleted version.' }),
      image: z.string().uuid(),
      version: z.number().int().openapi({ description: 'The deleted version’s number.' }),
      hypervisor: z.object({
        uuid: z.string().uuid(),
        name: z.string(),
        location: z.string().openapi({ description: 'Its location’s code.' }),
      }),
      state: z.enum(IMAGE_REMOVAL_STATES).openapi({
        description:
          '`pending` until its hypervisor is asked (one not online is asked when it comes back), `removing` ' +
          'while it is, `removed` once the copy is gone from its image store, `blocked` while a guest there ' +
          'still boots from it (`IMAGE_IN_USE`; asked again by the sweep).',
      }),
      error: z.object({ code: z.string(), message: z.string() }).nullable().openapi({
        description:
          'Why its last removal did not happen: `IMAGE_IN_USE` (blocked), or the step’s failure (`AGENT_TASK_NOT_PICKED_UP`, `TIMEOUT`, …) on a removal `pending` again.',
      }),
      attempts: z.number().int().openapi({ description: 'How many times its hypervisor was asked.' }),
      requested_at: z.string().openapi({ description: 'When the version was deleted.' }),
      updated_at: z.string(),
      removed_at: z.string().nullable(),
    }),
  })
  .openapi('ImageCopyRemoval');

export function serializeImageCopyRemoval(
  row: ImageCopyRemovalRow,
): z.infer<typeof ImageCopyRemovalEnvelope> {
  return {
    object: 'image_copy_removal',
    attributes: {
      image_version: row.image_version_id,
      image: row.image_id,
      version: row.version,
      hypervisor: { uuid: row.hypervisor_id, name: row.hypervisor_name, location: row.location_code },
      state: row.state,
      error: row.error,
      attempts: row.attempts,
      requested_at: row.requested_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      removed_at: row.removed_at?.toISOString() ?? null,
    },
  };
}
