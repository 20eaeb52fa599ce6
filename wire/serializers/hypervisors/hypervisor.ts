import type { Hypervisor } from '../../../db/repositories/hypervisors/hypervisors.js';
import { effectiveCapabilities, HYPERVISOR_STATUSES } from '../../../domain/hypervisors.js';
import { z } from '../../zod.js';

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
      capabilities: z.array(z.string()).openapi({
        description:
          'What the administrator declared at registration; used only until the agent first reports its own.',
      }),
      withheld_capabilities: z
        .array(z.string())
        .openapi({ description: 'Capabilities the administrator takes away from what the agent reports.' }),
      effective_capabilities: z.array(z.string()).openapi({
        description:
          'What the panel uses (migration preflight, consoles): `agent.reported_capabilities` less ' +
          '`withheld_capabilities`; `capabilities` less the withheld ones before the first heartbeat.',
      }),
      storage_backends: z.array(z.string()),
      migration_bandwidth_mbps: z
        .number()
        .int()
        .nullable()
        .openapi({
          description:
            'Outbound migration bandwidth budget in Mbit/s, shared by the moves out of this hypervisor: each takes at ' +
            'most this divided by `MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR`, or its own lower cap. Null: no budget.',
        }),
      capacity,
      free: capacity
        .nullable()
        .openapi({ description: 'As last reported by the agent; null before the first heartbeat.' }),
      agent: z.object({
        version: z.string().nullable(),
        reported_capabilities: z.array(z.string()).nullable(),
        last_seen_at: z.string().nullable(),
        inventory_reported_at: z
          .string()
          .nullable()
          .openapi({
            description:
              'When the agent last sent the guests it holds (`POST /agent/inventory`); guests that name no ' +
              'instance are listed by `GET /hypervisors/{uuid}/unknown-guests`.',
          }),
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
      withheld_capabilities: row.withheld_capabilities,
      effective_capabilities: effectiveCapabilities({
        configured: row.capabilities,
        reported: row.reported_capabilities,
        withheld: row.withheld_capabilities,
      }),
      storage_backends: row.storage_backends,
      migration_bandwidth_mbps: row.migration_bandwidth_mbps,
      capacity: { cpu_cores: row.cpu_cores, memory_mb: row.memory_mb, disk_mb: row.disk_mb },
      free: reported
        ? { cpu_cores: row.free_cpu_cores!, memory_mb: row.free_memory_mb!, disk_mb: row.free_disk_mb! }
        : null,
      agent: {
        version: row.agent_version,
        reported_capabilities: row.reported_capabilities,
        last_seen_at: iso(row.last_seen_at),
        inventory_reported_at: iso(row.inventory_reported_at),
        enrolled_at: iso(row.enrolled_at),
      },
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}
