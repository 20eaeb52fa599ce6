import { ROOT_DISK, volumeDisk } from '../../../domain/migrations/disks.js';
import type { DiskFacts } from '../../../domain/storage-moves/preflight.js';
import type { Database } from '../../database.js';

/** The instance's disks with the backend each is on: its root disk, and each volume attached to it. */
export async function listInstanceDisks(db: Database, instanceId: string): Promise<DiskFacts[]> {
  const [instance, volumes] = await Promise.all([
    db
      .selectFrom('instances')
      .select(['storage_backend', 'disk_mb'])
      .where('id', '=', instanceId)
      .executeTakeFirst(),
    db
      .selectFrom('volumes')
      .select(['id', 'backend', 'size_mb', 'provisioned_mb'])
      .where('instance_id', '=', instanceId)
      .orderBy('id')
      .execute(),
  ]);
  if (!instance) return [];
  return [
    { disk: ROOT_DISK, backend: instance.storage_backend, sizeMb: instance.disk_mb },
    ...volumes.map((v) => ({
      disk: volumeDisk(v.id),
      backend: v.backend,
      sizeMb: v.provisioned_mb ?? v.size_mb,
    })),
  ];
}

/** The instances on the hypervisor with a disk on `backend`: its root disk, or an attached volume. */
export async function listInstancesWithDisksOn(db: Database, hypervisorId: string, backend: string) {
  return db
    .selectFrom('instances as i')
    .select(['i.id', 'i.name'])
    .where('i.hypervisor_id', '=', hypervisorId)
    .where('i.deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('i.storage_backend', '=', backend),
        eb.exists(
          eb
            .selectFrom('volumes as v')
            .select('v.id')
            .whereRef('v.instance_id', '=', 'i.id')
            .where('v.backend', '=', backend),
        ),
      ]),
    )
    .orderBy('i.id')
    .execute();
}
