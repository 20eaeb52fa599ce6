import type { Database } from '../../database.js';
import { listVolumesOfInstance } from './volumes.js';

/**
 * The instance's root disk: its size, the backend it is on, how big its plan lets it grow (null
 * without a plan), and the size a grow under way is taking it to.
 */
export async function findRootDisk(db: Database, instanceId: string) {
  const row = await db
    .selectFrom('instances as i')
    .leftJoin('plans as p', 'p.id', 'i.plan_id')
    .leftJoin('instance_operations as o', (join) =>
      join.onRef('o.id', '=', 'i.operation_id').on('o.kind', '=', 'disk_resize'),
    )
    .select(['i.disk_mb', 'i.storage_backend', 'p.disk_mb as plan_disk_mb', 'o.workflow_input'])
    .where('i.id', '=', instanceId)
    .executeTakeFirstOrThrow();
  const growing = row.workflow_input as { toMb?: number } | null;
  return {
    sizeMb: row.disk_mb,
    backend: row.storage_backend,
    maxSizeMb: row.plan_disk_mb,
    growingToMb: growing?.toMb ?? null,
  };
}

export type RootDisk = Awaited<ReturnType<typeof findRootDisk>>;

/** The instance's storage: its root disk and the volumes on it. */
export async function findInstanceStorage(db: Database, instanceId: string) {
  const [root, volumes] = await Promise.all([
    findRootDisk(db, instanceId),
    listVolumesOfInstance(db, instanceId),
  ]);
  return { root, volumes };
}

export type InstanceStorage = Awaited<ReturnType<typeof findInstanceStorage>>;
