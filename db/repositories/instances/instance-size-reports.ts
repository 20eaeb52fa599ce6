import { type Expression, sql } from 'kysely';
import type { Resources } from '../../../domain/capacity.js';
import type { HotplugCeiling } from '../../../domain/instances/hot-resize.js';
import type { Database } from '../../database.js';
import { instanceBusy } from '../hypervisors/guest-inventory.js';

/**
 * The instance's size, as its hypervisor reports it after a change, with the plan it is now on
 * (unchanged for an administrator's own size) and the room its guest now has to grow.
 */
export async function setInstanceSize(
  db: Database,
  instanceId: string,
  settled: { size: Resources; planId: string | null; ceiling: HotplugCeiling | null | undefined },
): Promise<void> {
  await db
    .updateTable('instances')
    .set({
      cpu_cores: settled.size.cpu_cores,
      memory_mb: settled.size.memory_mb,
      disk_mb: settled.size.disk_mb,
      ...(settled.planId !== null ? { plan_id: settled.planId } : {}),
      // undefined: the change did not touch the guest's room (a hot one keeps the room it booted with).
      ...(settled.ceiling !== undefined ? hotCeilingColumns(settled.ceiling) : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', instanceId)
    .execute();
}

/** The room the instance's guest was booted with, as its hypervisor reported it (null: none). */
export async function setHotCeiling(db: Database, instanceId: string, ceiling: HotplugCeiling | null) {
  await db.updateTable('instances').set(hotCeilingColumns(ceiling)).where('id', '=', instanceId).execute();
}

/**
 * The room a hypervisor's inventory says each instance's running guest has, where the panel holds
 * another, in one statement: a compare-and-set on each instance still on that hypervisor, under no
 * operation and no move's lease (which settle the room themselves). How many it changed.
 */
export async function correctHotCeilings(
  db: Database,
  hypervisorId: string,
  reported: readonly { readonly instanceId: string; readonly ceiling: HotplugCeiling | null }[],
): Promise<number> {
  if (reported.length === 0) return 0;
  const result = await sql`
    update instances i
       set hot_ceiling_cpu_cores = r.cpu_cores, hot_ceiling_memory_mb = r.memory_mb
      from unnest(${reported.map((r) => r.instanceId)}::uuid[],
                  ${reported.map((r) => r.ceiling?.cpu_cores ?? null)}::int[],
                  ${reported.map((r) => r.ceiling?.memory_mb ?? null)}::int[]) as r(instance_id, cpu_cores, memory_mb)
     where i.id = r.instance_id and i.hypervisor_id = ${hypervisorId} and i.deleted_at is null
       and not ${instanceBusy}
       and ${ceilingDiffers(sql.ref('r.cpu_cores'), sql.ref('r.memory_mb'))}`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * The room a task that booted the instance's guest reports it booted with, recorded as the task
 * completes: a compare-and-set on the instance the task names, still on the task's hypervisor and
 * not deleted. Under its operation, which the completion settles next. Whether it changed anything.
 */
export async function recordBootedCeiling(
  db: Database,
  booted: { taskId: string; ceiling: HotplugCeiling | null },
): Promise<boolean> {
  const { ceiling } = booted;
  const result = await db
    .updateTable('instances as i')
    .from('agent_tasks as t')
    .set(hotCeilingColumns(ceiling))
    .where('t.id', '=', booted.taskId)
    .where(sql<boolean>`i.id::text = t.params->>'instance_id'`)
    .whereRef('i.hypervisor_id', '=', 't.hypervisor_id')
    .where('i.deleted_at', 'is', null)
    .where(ceilingDiffers(sql`${ceiling?.cpu_cores ?? null}::int`, sql`${ceiling?.memory_mb ?? null}::int`))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The instance `i` holds another room than (cpu, memory): a compare-and-set writes only a change. */
const ceilingDiffers = (cpuCores: Expression<number | null>, memoryMb: Expression<number | null>) =>
  sql<boolean>`(i.hot_ceiling_cpu_cores, i.hot_ceiling_memory_mb) is distinct from (${cpuCores}, ${memoryMb})`;

const hotCeilingColumns = (ceiling: HotplugCeiling | null) => ({
  hot_ceiling_cpu_cores: ceiling?.cpu_cores ?? null,
  hot_ceiling_memory_mb: ceiling?.memory_mb ?? null,
});
