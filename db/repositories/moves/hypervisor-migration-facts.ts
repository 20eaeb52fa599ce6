import { sql } from 'kysely';
import { effectiveCapabilities } from '../../../domain/hypervisors.js';
import type { HypervisorFacts } from '../../../domain/migrations/preflight.js';
import type { Database } from '../../database.js';

interface HypervisorFactRow {
  id: string;
  name: string;
  location_id: string;
  status: string;
  maintenance: boolean;
  capabilities: string[];
  reported_capabilities: string[] | null;
  withheld_capabilities: string[];
  storage_backends: string[];
  architecture: string;
  virtualization: string;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  reserved_cpu: number;
  reserved_memory: number;
  reserved_disk: number;
  migration_bandwidth_mbps: number | null;
}

/** Every hypervisor as migration compatibility judges it, with what its reservations hold. */
export async function hypervisorMigrationFacts(db: Database): Promise<HypervisorFacts[]> {
  const { rows } = await sql<HypervisorFactRow>`
    select h.id, h.name, h.location_id, h.status, h.maintenance,
           h.capabilities, h.reported_capabilities, h.withheld_capabilities,
           h.storage_backends,
           h.architecture, h.virtualization, h.cpu_cores, h.memory_mb, h.disk_mb, h.migration_bandwidth_mbps,
           coalesce(r.cpu, 0)::int as reserved_cpu, coalesce(r.memory, 0)::int as reserved_memory,
           coalesce(r.disk, 0)::float8 as reserved_disk
      from hypervisors h
      left join lateral (
        select sum(cpu_cores) as cpu, sum(memory_mb) as memory, sum(disk_mb) as disk
          from reservations where hypervisor_id = h.id and released_at is null
      ) r on true
     order by h.name`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    locationId: r.location_id,
    status: r.status,
    maintenance: r.maintenance,
    capabilities: effectiveCapabilities({
      configured: r.capabilities,
      reported: r.reported_capabilities,
      withheld: r.withheld_capabilities,
    }),
    storageBackends: r.storage_backends,
    architecture: r.architecture,
    virtualization: r.virtualization,
    total: { cpu_cores: r.cpu_cores, memory_mb: r.memory_mb, disk_mb: r.disk_mb },
    reserved: { cpu_cores: r.reserved_cpu, memory_mb: r.reserved_memory, disk_mb: r.reserved_disk },
    outboundBandwidthMbps: r.migration_bandwidth_mbps,
  }));
}
