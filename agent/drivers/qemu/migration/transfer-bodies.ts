// What crosses the migration listener between two agents (transfer-channel.ts serves it,
// transfer-pulls.ts fetches it): each body read through its schema, never trusted as sent.
import { z } from 'zod';
import { GuestAddresses } from '../../../../domain/agent-tasks.js';
import { PRIVATE_NICS_PER_INSTANCE } from '../../../../domain/networks/private-networks.js';
import { VOLUMES_PER_INSTANCE } from '../../../../domain/volumes.js';
import { MEMORY_SLOTS_MAX } from '../guests/room-to-grow.js';

const port = z.number().int().min(1).max(65_535);
/** What the target tells the source once its guest waits for a live migration (IncomingPorts). */
export const IncomingPortsBody = z.object({
  host: z.string().min(1).max(255),
  migration_port: port,
  nbd_port: port,
});

const cryptHash = z
  .string()
  .max(256)
  .regex(/^\$6\$[a-zA-Z0-9./$]+$/);
/**
 * What the guest's root password needs besides its disk, for the boots it has not had yet: the
 * first password's hash of a disk never booted, a reset made while it was stopped, and the key of
 * its hashes' salts. Hashes only: the password itself is on no host.
 */
export const PasswordHandoffBody = z.object({
  first_boot_hash: cryptHash.nullable(),
  pending_reset: z.object({ id: z.string().regex(/^[0-9a-f]{32}$/), hash: cryptHash }).nullable(),
  password_key: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
});
export type PasswordHandoff = z.infer<typeof PasswordHandoffBody>;

/** The most a seed may weigh: a few files on a small ISO 9660 filesystem. */
export const SEED_MAX_BYTES = 1024 * 1024;
/**
 * What the guest boots with besides its disk: the image whose kernel boots it, the addresses its
 * network is shaped by, its cloud-init seed (base64), the very bytes the source attached, so a
 * guest moved live keeps the device it booted with, and its private NICs in their PCIe slots
 * (absent from a source that predates them: none) and its volumes in theirs, and the vCPUs and
 * memory added to it while it ran, so the target's device set is the source's.
 */
const size = { cpu_cores: z.number().int().positive().max(1024), memory_mb: z.number().int().positive() };
/**
 * The guest's size and its room to grow (guests/room-to-grow.ts): what its QEMU was started with
 * and what was added to it since. Every name here goes into the target's command line, so each is
 * held to the shape the driver gives it (no comma, no option of its own).
 */
const GuestGrowthBody = z.object({
  ...size,
  ceiling: z.object(size).nullable(),
  /** The room its running QEMU was started with, where less than `ceiling`; absent (an older source): `ceiling`. */
  booted_ceiling: z.object(size).nullable().optional(),
  hot_added: z.object({
    cpus: z
      .array(
        z.object({
          id: z.string().regex(/^vcpu(-[a-z]\d{1,4}){1,4}$/),
          driver: z.string().regex(/^[A-Za-z0-9._-]{1,60}-cpu$/),
          props: z.record(z.string().regex(/^[a-z]{1,10}-id$/), z.number().int().min(0).max(4096)),
        }),
      )
      .max(1024),
    dimms: z
      .array(
        z.object({
          id: z.string().regex(/^dimm\d{1,3}$/),
          size_mb: z.number().int().positive(),
          slot: z
            .number()
            .int()
            .min(0)
            .max(MEMORY_SLOTS_MAX - 1),
          addr: z.number().int().min(0),
        }),
      )
      .max(MEMORY_SLOTS_MAX),
  }),
});

export const SetupHandoffBody = z.object({
  image: z.string().min(1).max(100),
  addresses: GuestAddresses.nullable(),
  seed: z
    .string()
    .max(Math.ceil(SEED_MAX_BYTES / 3) * 4)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/)
    .nullable(),
  plugged: z
    .array(
      z.object({
        slot: z.number().int().min(1).max(PRIVATE_NICS_PER_INSTANCE),
        mac: z.string().regex(/^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/),
        network_id: z.string().uuid(),
      }),
    )
    .max(PRIVATE_NICS_PER_INSTANCE)
    .refine((nics) => new Set(nics.map((n) => n.slot)).size === nics.length, 'one NIC per slot')
    .optional(),
  /** Its volumes in their slots (absent from a source that predates them: none). */
  volumes: z
    .array(
      z.object({ volume_id: z.string().uuid(), slot: z.number().int().min(1).max(VOLUMES_PER_INSTANCE) }),
    )
    .max(VOLUMES_PER_INSTANCE)
    .refine((volumes) => new Set(volumes.map((v) => v.slot)).size === volumes.length, 'one volume per slot')
    .optional(),
  /** Its size and room to grow (absent from a source that predates them: the panel's size, no room). */
  growth: GuestGrowthBody.optional(),
});
export type SetupHandoff = z.infer<typeof SetupHandoffBody>;
