import type { StorageBackendRow } from '../../../db/repositories/storage/storage-backends.js';
import { STORAGE_BACKENDS } from '../../../domain/hypervisors.js';
import { z } from '../../zod.js';

export const StorageBackendEnvelope = z
  .object({
    object: z.literal('storage_backend'),
    attributes: z.object({
      backend: z.enum(STORAGE_BACKENDS),
      hypervisor: z.object({
        id: z.string().uuid(),
        name: z.string(),
        status: z.string(),
        location_id: z.string().uuid(),
      }),
      disk_mb: z.number().int().openapi({ description: 'The hypervisor’s disk, shared by its backends.' }),
      reported_free_disk_mb: z
        .number()
        .int()
        .nullable()
        .openapi({ description: 'Free disk as the agent last reported it; null before its first report.' }),
      reserved_disk_mb: z
        .number()
        .int()
        .openapi({ description: 'Disk held by the hypervisor’s active reservations.' }),
      used_disk_mb: z
        .number()
        .int()
        .openapi({ description: 'Disk of the instances kept on this backend there.' }),
      instances: z.number().int().openapi({ description: 'Instances kept on this backend there.' }),
    }),
  })
  .openapi('StorageBackend');

export function serializeStorageBackend(row: StorageBackendRow): z.infer<typeof StorageBackendEnvelope> {
  return {
    object: 'storage_backend',
    attributes: {
      backend: row.backend,
      hypervisor: {
        id: row.hypervisor_id,
        name: row.hypervisor_name,
        status: row.hypervisor_status,
        location_id: row.location_id,
      },
      disk_mb: row.disk_mb,
      reported_free_disk_mb: row.free_disk_mb,
      reserved_disk_mb: row.reserved_disk_mb,
      used_disk_mb: row.used_disk_mb,
      instances: row.instances,
    },
  };
}
