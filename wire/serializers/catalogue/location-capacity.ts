import type { LocationCapacity } from '../../../services/scheduler/location-capacity.js';
import { z } from '../../zod.js';

export const LocationCapacityEnvelope = z
  .object({
    object: z.literal('location_capacity'),
    attributes: z.object({
      location: z.object({ uuid: z.string().uuid(), code: z.string() }),
      hypervisors_taking_orders: z
        .number()
        .int()
        .openapi({ description: 'Its hypervisors that are online and not in maintenance.' }),
      ipv4_free: z
        .number()
        .int()
        .openapi({ description: 'Free IPv4 addresses of its pools: each order takes one.' }),
      plans: z.array(
        z.object({
          uuid: z.string().uuid(),
          code: z.string().openapi({ example: 'demo-small' }),
          name: z.string(),
          cpu_cores: z.number().int(),
          memory_mb: z.number().int(),
          disk_mb: z.number().int(),
          available: z
            .number()
            .int()
            .openapi({
              example: 12,
              description:
                'How many more instances of the plan could be ordered now: `hypervisor_room`, as far as ' +
                '`ipv4_free` goes. A best case at this instant, not a reservation.',
            }),
          hypervisor_room: z.number().int().openapi({
            description: 'What the hypervisors could take by placement’s own rule, addresses aside.',
          }),
          limited_by: z
            .enum(['hypervisors', 'addresses'])
            .openapi({ description: 'Which of the two ends `available`.' }),
        }),
      ),
      measured_at: z.string().openapi({ example: '2026-12-08T10:00:00.000Z' }),
    }),
  })
  .openapi('LocationCapacity');

export function serializeLocationCapacity(
  capacity: LocationCapacity,
): z.infer<typeof LocationCapacityEnvelope> {
  return {
    object: 'location_capacity',
    attributes: {
      location: { uuid: capacity.location.id, code: capacity.location.code },
      hypervisors_taking_orders: capacity.hypervisorsTakingOrders,
      ipv4_free: capacity.ipv4Free,
      plans: capacity.plans.map(({ plan, available, hypervisorRoom, limitedBy }) => ({
        uuid: plan.id,
        code: plan.code,
        name: plan.name,
        cpu_cores: plan.cpu_cores,
        memory_mb: plan.memory_mb,
        disk_mb: plan.disk_mb,
        available,
        hypervisor_room: hypervisorRoom,
        limited_by: limitedBy,
      })),
      measured_at: capacity.measuredAt.toISOString(),
    },
  };
}
