import type { Instance } from '../../db/repositories/instances.js';
import { VIRTUALIZATIONS, type Virtualization } from '../../domain/catalog.js';
import { GUEST_DRIFTS } from '../../domain/instances/guest-inventory.js';
import { BOOT_DEVICES, type BootDevice, INSTANCE_STATUSES } from '../../domain/instances/statuses.js';
import { z } from '../zod.js';

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
    guest_drift: z
      .enum(GUEST_DRIFTS)
      .nullable()
      .openapi({
        description:
          "What the hypervisor last reported against the panel's record: `missing`, it holds no guest for the " +
          'instance (the status is `error`); `stopped`, the guest stopped without being asked (the status is ' +
          '`stopped`; start it again). Null when they agree; cleared when a later report finds the guest running.',
      }),
    guest_drift_since: z.string().nullable().openapi({ example: null }),
    created_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
    updated_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
  })
  .openapi('InstanceAttributes');

export const InstanceEnvelope = z
  .object({ object: z.literal('cloud_instance'), attributes: InstanceAttributes })
  .openapi('Instance');

/** The only way an instance row reaches a response (SPEC.md §2 "Instance"). */
export function serializeInstance(row: NonNullable<Instance>): z.infer<typeof InstanceEnvelope> {
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
      guest_drift: row.guest_drift,
      guest_drift_since: row.guest_drift_since?.toISOString() ?? null,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}
