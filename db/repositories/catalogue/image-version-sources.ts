import type { VersionCopies } from '../../../domain/image-versions.js';
import type { Database } from '../../database.js';

/**
 * The image's versions with the hypervisors that hold each ready, among those of a location or one
 * hypervisor: what an order or a rebuild chooses its version from (domain/image-versions.ts).
 */
export async function versionCopiesOfImage(
  db: Database,
  imageId: string,
  place: { locationId: string } | { hypervisorId: string },
): Promise<VersionCopies[]> {
  const rows = await db
    .selectFrom('image_versions as v')
    .leftJoin('image_version_hosts as c', (join) =>
      join
        .onRef('c.image_version_id', '=', 'v.id')
        .on('c.state', '=', 'ready')
        .on('c.hypervisor_id', 'in', (q) =>
          'locationId' in place
            ? q.selectFrom('hypervisors').select('id').where('location_id', '=', place.locationId)
            : q.selectFrom('hypervisors').select('id').where('id', '=', place.hypervisorId),
        ),
    )
    .select(['v.id', 'v.version', 'v.deprecated_at', 'c.hypervisor_id'])
    .where('v.image_id', '=', imageId)
    .execute();
  const versions = new Map<string, VersionCopies & { readyHypervisorIds: string[] }>();
  for (const row of rows) {
    const entry = versions.get(row.id) ?? {
      id: row.id,
      version: row.version,
      deprecated: row.deprecated_at !== null,
      readyHypervisorIds: [],
    };
    if (row.hypervisor_id) entry.readyHypervisorIds.push(row.hypervisor_id);
    versions.set(row.id, entry);
  }
  return [...versions.values()];
}
