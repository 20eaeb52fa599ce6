import { sql } from 'kysely';
import type { StorageBackend } from '../../../domain/hypervisors.js';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

export interface StorageFilters {
  readonly backend?: StorageBackend;
  readonly locationId?: string;
  readonly hypervisorId?: string;
}

export interface StorageBackendRow {
  readonly backend: StorageBackend;
  readonly hypervisor_id: string;
  readonly hypervisor_name: string;
  readonly hypervisor_status: string;
  readonly location_id: string;
  readonly disk_mb: number;
  readonly free_disk_mb: number | null;
  readonly reserved_disk_mb: number;
  readonly used_disk_mb: number;
  readonly instances: number;
}

/**
 * Each storage backend of each hypervisor, by backend then hypervisor name, with the hypervisor's
 * disk (its backends share it: the agent reports one figure), the disk held by its active
 * reservations, and what the instances kept on this backend there use.
 */
export async function listStorageBackends(db: Database, filters: StorageFilters, page: PageRequest) {
  const where = sql.join(
    [
      sql`true`,
      ...(filters.backend ? [sql`b.backend = ${filters.backend}`] : []),
      ...(filters.locationId ? [sql`h.location_id = ${filters.locationId}`] : []),
      ...(filters.hypervisorId ? [sql`h.id = ${filters.hypervisorId}`] : []),
    ],
    sql` and `,
  );
  const from = sql`hypervisors h cross join lateral jsonb_array_elements_text(h.storage_backends) as b(backend)`;
  const [rows, total] = await Promise.all([
    sql<StorageBackendRow>`
      select b.backend, h.id as hypervisor_id, h.name as hypervisor_name, h.status as hypervisor_status,
             h.location_id, h.disk_mb, h.free_disk_mb,
             (select coalesce(sum(r.disk_mb), 0)::int from reservations r
               where r.hypervisor_id = h.id and r.released_at is null
                 and (r.expires_at is null or r.expires_at > now())) as reserved_disk_mb,
             coalesce(used.disk_mb, 0)::int as used_disk_mb, coalesce(used.instances, 0)::int as instances
        from ${from}
        left join lateral (
          select sum(i.disk_mb) as disk_mb, count(*) as instances from instances i
           where i.hypervisor_id = h.id and i.storage_backend = b.backend and i.deleted_at is null) used on true
       where ${where}
       order by b.backend, h.name
       limit ${page.perPage} offset ${offsetOf(page)}`.execute(db),
    sql<{ total: number }>`select count(*)::int as total from ${from} where ${where}`.execute(db),
  ]);
  return { rows: rows.rows, total: total.rows[0]?.total ?? 0 };
}
