// What crosses the migration listener between two agents (transfer-channel.ts serves it,
// transfer-pulls.ts fetches it): each body read through its schema, never trusted as sent.
import { z } from 'zod';
import { GuestAddresses } from '../../../../domain/agent-tasks.js';
import { PRIVATE_NICS_PER_INSTANCE } from '../../../../domain/networks/private-networks.js';
import { VOLUMES_PER_INSTANCE } from '../../../../domain/volumes.js';

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
 * (absent from a source that predates them: none) and its volumes in theirs, so the target's device
 * set is the source's.
 */
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
});
export type SetupHandoff = z.infer<typeof SetupHandoffBody>;
