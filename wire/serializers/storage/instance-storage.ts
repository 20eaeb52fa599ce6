import type { InstanceStorage } from '../../../db/repositories/storage/instance-storage.js';
import { VOLUME_STATES } from '../../../domain/volumes.js';
import { z } from '../../zod.js';

export const InstanceStorageEnvelope = z
  .object({
    object: z.literal('instance_storage'),
    attributes: z.object({
      root: z.object({
        size_mb: z.number().int().openapi({ description: 'Its size as the hypervisor last reported it.' }),
        max_size_mb: z
          .number()
          .int()
          .nullable()
          .openapi({ description: 'The disk of its plan, which it may grow to; null without a plan.' }),
        growing_to_mb: z
          .number()
          .int()
          .nullable()
          .openapi({ description: 'The size a grow under way takes it to; null when none runs.' }),
        storage_backend: z.string().openapi({ example: 'local' }),
      }),
      volumes: z
        .array(
          z.object({
            uuid: z.string().uuid(),
            name: z.string(),
            size_mb: z.number().int(),
            state: z.enum(VOLUME_STATES),
          }),
        )
        .openapi({
          description: 'Your volumes on it (coming on, leaving and growing included), oldest first.',
        }),
    }),
  })
  .openapi('InstanceStorage');

export function serializeInstanceStorage({
  root,
  volumes,
}: InstanceStorage): z.infer<typeof InstanceStorageEnvelope> {
  return {
    object: 'instance_storage',
    attributes: {
      root: {
        size_mb: root.sizeMb,
        max_size_mb: root.maxSizeMb,
        growing_to_mb: root.growingToMb,
        storage_backend: root.backend,
      },
      volumes: volumes.map((v) => ({ uuid: v.id, name: v.name, size_mb: v.size_mb, state: v.state })),
    },
  };
}
