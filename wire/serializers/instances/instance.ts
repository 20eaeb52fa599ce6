import type { Instance } from '../../../db/repositories/instances/instances.js';
import { VIRTUALIZATIONS, type Virtualization } from '../../../domain/catalog.js';
import { GUEST_DRIFTS } from '../../../domain/instances/guest-inventory.js';
import { BOOT_DEVICES, type BootDevice, INSTANCE_STATUSES } from '../../../domain/instances/statuses.js';
import { USER_DATA_KINDS } from '../../../domain/instances/user-data.js';
import { z } from '../../zod.js';

/** A drift between the hypervisor's report and the panel's record (since version 2026-12-06 one object). */
// Not a named component: a nullable use of a named one would make the component itself nullable.
export const GuestDrift = z.object({
  state: z.enum(GUEST_DRIFTS).openapi({ example: 'stopped' }),
  since: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
});

/** The drift as the current version shows it; null when the hypervisor agrees with the record. */
export function serializeGuestDrift(row: {
  guest_drift: (typeof GUEST_DRIFTS)[number] | null;
  guest_drift_since: Date | null;
  updated_at: Date;
}): z.infer<typeof GuestDrift> | null {
  if (row.guest_drift === null) return null;
  // The inventory sets the time with the state (db/repositories/hypervisors/guest-inventory.ts); the row's
  // last change is the closest bound should a row ever lack it.
  return { state: row.guest_drift, since: (row.guest_drift_since ?? row.updated_at).toISOString() };
}

export const InstanceAttributes = z
  .object({
    uuid: z.string().uuid(),
    name: z.string(),
    hostname: z.string(),
    status: z.enum(INSTANCE_STATUSES).openapi({ example: 'running' }),
    cpu_cores: z.number().int(),
    memory_mb: z.number().int(),
    disk_mb: z.number().int(),
    primary_ipv4: z.string().nullable(),
    primary_ipv6: z.string().nullable(),
    virtualization: z.enum(VIRTUALIZATIONS).openapi({
      example: 'kvm',
      description: 'How the guest is virtualised, taken from its image at creation; `kvm` (QEMU) today.',
    }),
    boot_order: z.array(z.enum(BOOT_DEVICES)).openapi({
      example: ['disk', 'cdrom'],
      description:
        'Read-only: `["disk", "cdrom"]`, the order its hypervisor boots it in. The guest starts from its ' +
        'disk; its CD-ROM drive (an ISO of its library, `media/iso/mount`) is booted only by the ISO boot ' +
        'action, for that one boot. `network` is never listed: no guest boots from the network.',
    }),
    timezone: z.string().openapi({ example: 'UTC' }),
    guest_drift: GuestDrift.nullable().openapi({
      description:
        "What the hypervisor last reported against the panel's record, and since when: `missing`, it holds no " +
        'guest for the instance (the status is `error`); `stopped`, the guest stopped without being asked (the ' +
        'status is `stopped`; start it again). Null when they agree; cleared when a later report finds the guest ' +
        'running. Before version 2026-12-06: `guest_drift` the state alone and `guest_drift_since` the time.',
    }),
    user_data: z
      .object({
        present: z.literal(true),
        kind: z.enum(USER_DATA_KINDS),
        bytes: z.number().int().openapi({ description: 'Its size once decoded: what the guest receives.' }),
        sha256: z.string().openapi({ description: 'Hex SHA-256 of the decoded bytes.' }),
      })
      .nullable()
      .openapi({
        example: null,
        description:
          'The customer’s user-data the guest is given at create and rebuild: never its content, only ' +
          'that it is there, its kind, size and SHA-256. Null: none.',
      }),
    created_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
    updated_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
  })
  .openapi('InstanceAttributes');

export const InstanceEnvelope = z
  .object({ object: z.literal('cloud_instance'), attributes: InstanceAttributes })
  .openapi('Instance');

/** The only way an instance row reaches a response (SPEC.md §2 "Instance"). */
export function serializeInstance(
  row: Omit<NonNullable<Instance>, 'external_id'>,
): z.infer<typeof InstanceEnvelope> {
  return {
    object: 'cloud_instance',
    attributes: {
      uuid: row.id,
      name: row.name,
      hostname: row.hostname,
      status: row.status,
      cpu_cores: row.cpu_cores,
      memory_mb: row.memory_mb,
      disk_mb: row.disk_mb,
      primary_ipv4: row.primary_ipv4,
      primary_ipv6: row.primary_ipv6,
      virtualization: row.virtualization as Virtualization,
      boot_order: row.boot_order as BootDevice[],
      timezone: row.timezone,
      guest_drift: serializeGuestDrift(row),
      user_data:
        row.user_data_kind && row.user_data_bytes !== null && row.user_data_sha256
          ? {
              present: true,
              kind: row.user_data_kind,
              bytes: row.user_data_bytes,
              sha256: row.user_data_sha256,
            }
          : null,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}
