import type { Resources } from '../../../domain/capacity.js';
import type { Database } from '../../database.js';

/** The room the instance's own reservation holds on its hypervisor: grown ahead of a change, or put back. */
export async function holdInstanceSize(db: Database, instanceId: string, size: Resources): Promise<void> {
  await db
    .updateTable('reservations')
    .set({ cpu_cores: size.cpu_cores, memory_mb: size.memory_mb, disk_mb: size.disk_mb })
    .where('instance_id', '=', instanceId)
    .where('purpose', '=', 'instance')
    .where('released_at', 'is', null)
    .execute();
}

/** The instance's reservation set to `size` if it still holds `expected` (compare-and-set); whether it did. */
export async function replaceHeldSize(
  db: Database,
  instanceId: string,
  change: { expected: Resources; size: Resources },
): Promise<boolean> {
  const { expected, size } = change;
  const result = await db
    .updateTable('reservations')
    .set({ cpu_cores: size.cpu_cores, memory_mb: size.memory_mb, disk_mb: size.disk_mb })
    .where('instance_id', '=', instanceId)
    .where('purpose', '=', 'instance')
    .where('released_at', 'is', null)
    .where('cpu_cores', '=', expected.cpu_cores)
    .where('memory_mb', '=', expected.memory_mb)
    .where('disk_mb', '=', expected.disk_mb)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** What the instance's own reservation holds now; undefined when it holds none. */
export async function heldSizeOf(db: Database, instanceId: string): Promise<Resources | undefined> {
  return db
    .selectFrom('reservations')
    .select(['cpu_cores', 'memory_mb', 'disk_mb'])
    .where('instance_id', '=', instanceId)
    .where('purpose', '=', 'instance')
    .where('released_at', 'is', null)
    .executeTakeFirst();
}
