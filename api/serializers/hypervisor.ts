import type { Hypervisor } from '../../db/repositories/hypervisors.js';
import { HYPERVISOR_STATUSES } from '../../domain/hypervisors.js';
import { z } from '../zod.js';

const capacity = z.object({
  cpu_cores: z.number().int(),
  memory_mb: z.number().int(),
  disk_mb: z.number().int(),
});

export const HypervisorEnvelope = z
  .object({
    object: z.literal('hypervisor'),
    attributes: z.object({
      uuid: z.string().uuid(),
      name: z.string(),
      location_uuid: z.string().uuid(),
      status: z.enum(HYPERVISOR_STATUSES),
      maintenance: z.boolean(),
      capabilities: z.array(z.string()),
      storage_backends: z.array(z.string()),
      capacity,
      free: capacity
        .nullable()
        .openapi({ description: 'As last reported by the agent; null before the first heartbeat.' }),
      agent: z.object({
        version: z.string().nullable(),
        reported_capabilities: z.array(z.string()).nullable(),
        last_seen_at: z.string().nullable(),
        enrolled_at: z.string().nullable(),
      }),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  })
  .openapi('Hypervisor');

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function serializeHypervisor(row: Hypervisor): z.infer<typeof HypervisorEnvelope> {
  const reported = row.free_cpu_cores !== null && row.free_memory_mb !== null && row.free_disk_mb !== null;
  return {
    object: 'hypervisor',
    attributes: {
      uuid: row.id,
      name: row.name,
      location_uuid: row.location_id,
      status: row.status,
      maintenance: row.maintenance,
      capabilities: row.capabilities,
      storage_backends: row.storage_backends,
      capacity: { cpu_cores: row.cpu_cores, memory_mb: row.memory_mb, disk_mb: row.disk_mb },
      free: reported
        ? { cpu_cores: row.free_cpu_cores!, memory_mb: row.free_memory_mb!, disk_mb: row.free_disk_mb! }
        : null,
      agent: {
        version: row.agent_version,
        reported_capabilities: row.reported_capabilities,
        last_seen_at: iso(row.last_seen_at),
        enrolled_at: iso(row.enrolled_at),
      },
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}
