import type {
  AddressReservationRow,
  CapacityReservationRow,
} from '../../../db/repositories/hypervisors/reservation-lists.js';
import { ADDRESS_HOLDERS, RESERVATION_PURPOSES, RESERVATION_STATES } from '../../../domain/reservations.js';
import { z } from '../../zod.js';

const time = z.string().openapi({ example: '2026-11-25T01:02:03.000Z' });

export const CapacityReservationEnvelope = z
  .object({
    object: z.literal('capacity_reservation'),
    attributes: z.object({
      uuid: z.string().uuid(),
      purpose: z.enum(RESERVATION_PURPOSES),
      state: z.enum(RESERVATION_STATES),
      cpu_cores: z.number().int(),
      memory_mb: z.number().int(),
      disk_mb: z.number().int(),
      hypervisor: z.object({ id: z.string().uuid(), name: z.string() }),
      held_by: z
        .object({
          instance: z
            .object({
              id: z.string().uuid(),
              name: z.string().nullable(),
              user_id: z.string().uuid().nullable(),
            })
            .nullable(),
          migration_id: z.string().uuid().nullable().openapi({
            description: 'For a migration’s hold on its target: the migration it is held for.',
          }),
          storage_move_id: z.string().uuid().nullable().openapi({
            description: 'For a storage move’s hold for its new copies: the storage move.',
          }),
        })
        .openapi({ description: 'What the room is held for.' }),
      expires_at: time.nullable(),
      released_at: time.nullable(),
      created_at: time,
    }),
  })
  .openapi('CapacityReservation');

export function serializeCapacityReservation(
  row: CapacityReservationRow,
): z.infer<typeof CapacityReservationEnvelope> {
  return {
    object: 'capacity_reservation',
    attributes: {
      uuid: row.id,
      purpose: row.purpose,
      state: row.state,
      cpu_cores: row.cpu_cores,
      memory_mb: row.memory_mb,
      disk_mb: row.disk_mb,
      hypervisor: { id: row.hypervisor_id, name: row.hypervisor_name },
      held_by: {
        instance: row.instance_id
          ? { id: row.instance_id, name: row.instance_name, user_id: row.instance_user_id }
          : null,
        migration_id: row.migration_id,
        storage_move_id: row.storage_move_id,
      },
      expires_at: row.expires_at?.toISOString() ?? null,
      released_at: row.released_at?.toISOString() ?? null,
      created_at: row.created_at.toISOString(),
    },
  };
}

export const AddressReservationEnvelope = z
  .object({
    object: z.literal('address_reservation'),
    attributes: z.object({
      uuid: z.string().uuid(),
      address: z.string().openapi({ example: '192.0.2.10' }),
      family: z.union([z.literal(4), z.literal(6)]),
      kind: z.enum(['fixed', 'floating']),
      is_primary: z.boolean(),
      pool: z.object({ id: z.string().uuid(), name: z.string(), location_id: z.string().uuid() }),
      held_by: z.enum(ADDRESS_HOLDERS).openapi({
        description: '`instance` when it is on one, else `user`: an address of the account, on no instance.',
      }),
      instance: z.object({ id: z.string().uuid(), name: z.string().nullable() }).nullable(),
      user_id: z.string().uuid().nullable(),
      created_at: time,
    }),
  })
  .openapi('AddressReservation');

export function serializeAddressReservation(
  row: AddressReservationRow,
): z.infer<typeof AddressReservationEnvelope> {
  return {
    object: 'address_reservation',
    attributes: {
      uuid: row.id,
      address: row.address,
      family: row.family,
      kind: row.kind,
      is_primary: row.is_primary,
      pool: { id: row.pool_id, name: row.pool_name, location_id: row.location_id },
      held_by: row.instance_id ? 'instance' : 'user',
      instance: row.instance_id ? { id: row.instance_id, name: row.instance_name } : null,
      user_id: row.user_id,
      created_at: row.created_at.toISOString(),
    },
  };
}
