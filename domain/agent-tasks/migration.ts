import { z } from 'zod';
import { convergencePolicy } from '../migrations/convergence.js';
import { DISK_NAME } from '../migrations/disks.js';
import { VOLUMES_PER_INSTANCE } from '../volumes.js';
import { firewallSet, networkSet } from './network.js';
import { instanceId, powerState } from './shapes.js';

/**
 * The migration's tasks (SPEC.md §1: semantic, never hypervisor URIs, host paths or commands). The
 * source and the target each get their own; the disk moves between them by a transfer token the
 * receiving agent redeems through the panel, which tells it where the sender can be reached.
 */
const migrationId = z.string().uuid();
const onMigration = { migration_id: migrationId, instance_id: instanceId };
const checksum = z.string().min(1).max(128);
/** The root disk or one of the instance's volumes (domain/migrations/disks.ts). */
const disk = z.string().max(64).regex(DISK_NAME);
/**
 * The move's transport key (domain/migrations/transport.ts), sealed in the task's row and opened
 * only in the `tasks/next` answer to the agent it is for: every byte of the move between the two
 * hypervisors is TLS under it (docs/migration.md "Transport"). Absent from runs begun before moves
 * were encrypted; a QEMU hypervisor refuses those (`TRANSPORT_UNKEYED`).
 */
const transportSecret = z.string().min(1).max(512).optional();
/** A live move's convergence figures as the hypervisor holds them once set. */
const appliedConvergence = z.object({
  max_downtime_ms: z.number().int().nonnegative(),
  max_bandwidth_bytes_per_s: z.number().int().nonnegative(),
  auto_converge: z.boolean(),
  initial_throttle_pct: z.number().int().nonnegative(),
  step_throttle_pct: z.number().int().nonnegative(),
  post_copy: z.boolean(),
});
export type AppliedConvergence = z.infer<typeof appliedConvergence>;

export const MIGRATION_TASKS = {
  /** Target: make room for the incoming instance. */
  'migration.prepare_target': {
    params: z.object({
      ...onMigration,
      /** The image the guest was made from: a target without it refuses before anything moves. */
      image: z.string().min(1).max(100).optional(),
      hostname: z.string().min(1).max(253),
      cpu_cores: z.number().int().positive(),
      memory_mb: z.number().int().positive(),
      disk_mb: z.number().int().positive(),
      /** The customer's volumes coming with it, for the room their disks take; absent: none. */
      volumes: z
        .array(z.object({ volume_id: z.string().uuid(), size_mb: z.number().int().positive() }))
        .max(VOLUMES_PER_INSTANCE)
        .optional(),
    }),
    result: z.object({ prepared: z.boolean() }),
  },
  /**
   * Source: offer a disk (the root disk or a volume's) for transfer, to the holder of the move's
   * transport key only; `endpoint` is where (an address, no secret), opaque to the panel, handed
   * only to the redeemer.
   */
  'disk.export': {
    params: z.object({ ...onMigration, disk, transport_secret: transportSecret }),
    result: z.object({
      checksum,
      size_mb: z.number().int().nonnegative(),
      endpoint: z.string().min(1).max(1024),
    }),
  },
  /**
   * Source: stop offering the migration's disks and remove the copies made for it (a rollback's
   * undo of the exports; the cleanup after a commit removes them too).
   */
  'disk.withdraw': {
    params: z.object(onMigration),
    result: z.object({ withdrawn: z.boolean() }),
  },
  /**
   * Target: redeem the token, pull the disk from the sender under the move's transport key (kept
   * for the rest of the move: the handoffs, and a live move's listeners).
   */
  'disk.transfer': {
    params: z.object({
      ...onMigration,
      disk,
      transfer_token: z.string().min(1).max(512),
      transport_secret: transportSecret,
    }),
    result: z.object({ checksum, size_mb: z.number().int().nonnegative() }),
  },
  /** Target: the checksum of what arrived. */
  'disk.verify': {
    params: z.object({ ...onMigration, disk }),
    result: z.object({ checksum }),
  },
  'network.prepare': {
    params: z.object({
      ...onMigration,
      ipv4: z.string().nullable(),
      ipv6: z.string().nullable(),
      // The instance's whole network and firewall, for the guest to have them where it lands;
      // absent from runs begun before a migration carried them.
      network: networkSet.optional(),
      firewall: firewallSet.optional(),
    }),
    result: z.object({ prepared: z.boolean() }),
  },
  'network.release': {
    params: z.object(onMigration),
    result: z.object({ released: z.boolean() }),
  },
  /** Target: define the guest (a cold move pulls the disk's last changes first). */
  'migration.define_target': {
    params: z.object({
      ...onMigration,
      final_sync: z.boolean(),
      /**
       * A live move's post-copy (its convergence policy's `post_copy` is not `never`): the arriving
       * guest is readied to take pages after it runs. Absent: pre-copy only.
       */
      post_copy: z.boolean().optional(),
    }),
    result: z.object({ defined: z.boolean() }),
  },
  /** Source: move the running guest's memory to the target; the guest then runs there. */
  'migration.live': {
    params: z.object({
      ...onMigration,
      target_hypervisor_id: z.string().uuid(),
      /**
       * The move's convergence policy (domain/migrations/convergence.ts), set on the hypervisor
       * before the memory moves; absent from runs begun before moves had one (the hypervisor's
       * own defaults then).
       */
      convergence: convergencePolicy.optional(),
    }),
    result: z.object({
      downtime_ms: z.number().int().nonnegative(),
      /** What the hypervisor had set when the memory began to move, read back from it. */
      applied: appliedConvergence.optional(),
    }),
  },
  'migration.start_target': {
    params: z.object({ ...onMigration, start: z.boolean() }),
    result: z.object({ power_state: powerState }),
  },
  'migration.verify_target': {
    params: z.object(onMigration),
    result: z.object({ power_state: powerState }),
  },
  /** Target: throw away whatever the migration put there (a rollback). */
  'migration.discard_target': {
    params: z.object(onMigration),
    result: z.object({ discarded: z.boolean() }),
  },
  /** Source: remove the old copy once the retention window has passed. */
  'migration.cleanup_source': {
    params: z.object(onMigration),
    result: z.object({ removed: z.boolean() }),
  },
} as const;
