import { sql } from 'kysely';
import type { Resources } from '../../../domain/capacity.js';
import type { PlacementCandidate } from '../../../domain/placement.js';
import type { ReservationPurpose } from '../../../domain/reservations.js';
import type { Database } from '../../database.js';
import { releaseVolumesOfInstance } from '../storage/volumes.js';

interface CandidateRow {
  id: string;
  name: string;
  status: string;
  maintenance: boolean;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  reserved_cpu: number;
  reserved_memory: number;
  reserved_disk: number;
}

const toCandidate = (row: CandidateRow): PlacementCandidate => ({
  id: row.id,
  name: row.name,
  status: row.status,
  maintenance: row.maintenance,
  total: { cpu_cores: row.cpu_cores, memory_mb: row.memory_mb, disk_mb: row.disk_mb },
  reserved: { cpu_cores: row.reserved_cpu, memory_mb: row.reserved_memory, disk_mb: row.reserved_disk },
});

const candidates = (db: Database, where: ReturnType<typeof sql>) =>
  sql<CandidateRow>`
    select h.id, h.name, h.status, h.maintenance, h.cpu_cores, h.memory_mb, h.disk_mb,
           coalesce(r.cpu, 0)::int as reserved_cpu, coalesce(r.memory, 0)::int as reserved_memory,
           coalesce(r.disk, 0)::bigint::float8 as reserved_disk
      from hypervisors h
      left join lateral (
        select sum(cpu_cores) as cpu, sum(memory_mb) as memory, sum(disk_mb) as disk
          from reservations
         where hypervisor_id = h.id and released_at is null
           and (expires_at is null or expires_at > now())
      ) r on true
     where ${where}`.execute(db);

/** Every hypervisor of a location with what its active reservations hold. */
export async function placementCandidates(db: Database, locationId: string): Promise<PlacementCandidate[]> {
  return (await candidates(db, sql`h.location_id = ${locationId}`)).rows.map(toCandidate);
}

/**
 * One hypervisor locked for the rest of the transaction, with its reservations counted after the
 * lock: two creates racing for the same host serialise here, and the second sees the first's
 * reservation.
 */
export async function lockCandidate(
  db: Database,
  hypervisorId: string,
): Promise<PlacementCandidate | undefined> {
  // FOR NO KEY UPDATE, not FOR UPDATE: it serialises the checks of one host's room all the same,
  // but leaves alone the key-share locks that rows naming the host take. A migration's
  // transaction writes rows naming both its hosts before it locks its target, and two crossing
  // between the same two hosts deadlocked on each other's key-share locks under FOR UPDATE.
  await sql`select 1 from hypervisors where id = ${hypervisorId} for no key update`.execute(db);
  const [row] = (await candidates(db, sql`h.id = ${hypervisorId}`)).rows;
  return row && toCandidate(row);
}

export async function reserveCapacity(
  db: Database,
  reservation: {
    hypervisorId: string;
    instanceId: string;
    /** A volume's room (a migration's hold for a volume moving with its instance). */
    volumeId?: string;
    /** The storage move whose new copies the room is for. */
    storageMoveId?: string;
    purpose: ReservationPurpose;
    resources: Resources;
  },
): Promise<void> {
  await db
    .insertInto('reservations')
    .values({
      hypervisor_id: reservation.hypervisorId,
      instance_id: reservation.instanceId,
      ...(reservation.volumeId && { volume_id: reservation.volumeId }),
      ...(reservation.storageMoveId && { storage_move_id: reservation.storageMoveId }),
      purpose: reservation.purpose,
      cpu_cores: reservation.resources.cpu_cores,
      memory_mb: reservation.resources.memory_mb,
      disk_mb: reservation.resources.disk_mb,
    })
    .execute();
}

/** The disk an instance's own reservation holds on its hypervisor: grown ahead of its disk, or put back. */
export async function holdInstanceDisk(db: Database, instanceId: string, diskMb: number): Promise<void> {
  await db
    .updateTable('reservations')
    .set({ disk_mb: diskMb })
    .where('instance_id', '=', instanceId)
    .where('purpose', '=', 'instance')
    .where('released_at', 'is', null)
    .execute();
}

/**
 * An instance that is really gone gives back its capacity, its fixed addresses and its places on
 * private networks, and lets go of its floating IPs and its volumes.
 */
export async function releaseInstanceResources(db: Database, instanceId: string): Promise<void> {
  await db
    .updateTable('reservations')
    .set({ released_at: sql`now()` })
    .where('instance_id', '=', instanceId)
    .where('released_at', 'is', null)
    .execute();
  await db
    .deleteFrom('ip_addresses')
    .where('instance_id', '=', instanceId)
    .where('kind', '=', 'fixed')
    .execute();
  await db.deleteFrom('private_network_nics').where('instance_id', '=', instanceId).execute();
  // A floating IP outlives the instance it was on: its owner keeps it, on no instance.
  await db
    .updateTable('ip_addresses')
    .set({ instance_id: null, state: 'attached', updated_at: sql`now()` })
    .where('instance_id', '=', instanceId)
    .where('kind', '=', 'floating')
    .execute();
  // A volume too: it stays on its hypervisor, on no instance.
  await releaseVolumesOfInstance(db, instanceId);
}
