import { z } from 'zod';
import { POWER_STATES } from '../instances/statuses.js';

// The shapes the task groups share.

export const instanceId = z.string().uuid();
export const powerState = z.enum(POWER_STATES);
/** A revision of the panel's (network, firewall): a hypervisor applies only one newer than it has. */
export const revision = z.number().int().nonnegative();
/** A backup's or snapshot's id (the panel's): the hypervisor names its artifact by it. */
export const artifactId = z.string().uuid();
/** What a hypervisor reports of an artifact or disk: its size and the SHA-256 of its content. */
export const artifactFacts = z.object({
  size_mb: z.number().int().nonnegative(),
  checksum: z.string().regex(/^[0-9a-f]{64}$/),
});
/**
 * The room to grow the guest's process was booted with, as a task that (re)starts it reports
 * (hot-resize.ts runningRoom): the panel records it with the task's completion, so a plan change's
 * dry run reads it as soon as the boot settles. null: none; absent: a stopped guest, or an older
 * agent (the inventory reports it then).
 */
export const bootedRoom = {
  hot_ceiling: z
    .object({ cpu_cores: z.number().int().positive(), memory_mb: z.number().int().positive() })
    .nullable()
    .optional(),
};
