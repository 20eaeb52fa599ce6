import type { PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { findImageVersion, type ImageVersionRow, listImageVersions } from './image-versions.js';

/** A version with where it is distributed and each hypervisor's copy: what the API shows of it. */
export interface ImageVersionView {
  readonly version: ImageVersionRow;
  readonly locations: readonly string[];
  readonly hosts: readonly ImageVersionHostRow[];
}

async function viewsOf(db: Database, rows: readonly ImageVersionRow[]): Promise<ImageVersionView[]> {
  const ids = rows.map((r) => r.id);
  const [hosts, locations] = await Promise.all([hostsOfVersions(db, ids), locationsOfVersions(db, ids)]);
  return rows.map((version) => ({
    version,
    locations: locations.filter((l) => l.image_version_id === version.id).map((l) => l.code),
    hosts: hosts.filter((h) => h.image_version_id === version.id),
  }));
}

export async function findImageVersionView(db: Database, id: string): Promise<ImageVersionView | undefined> {
  const row = await findImageVersion(db, id);
  return row && (await viewsOf(db, [row]))[0];
}

export async function listImageVersionViews(db: Database, imageId: string, page: PageRequest) {
  const { rows, total } = await listImageVersions(db, imageId, page);
  return { views: await viewsOf(db, rows), total };
}

export type ImageVersionHostRow = Awaited<ReturnType<typeof hostsOfVersions>>[number];

/** Each hypervisor's copy of the versions, by hypervisor name, with its location's code. */
export async function hostsOfVersions(db: Database, versionIds: readonly string[]) {
  if (versionIds.length === 0) return [];
  return db
    .selectFrom('image_version_hosts as v')
    .innerJoin('hypervisors as h', 'h.id', 'v.hypervisor_id')
    .innerJoin('locations as l', 'l.id', 'h.location_id')
    .select([
      'v.image_version_id',
      'v.hypervisor_id',
      'h.name as hypervisor_name',
      'l.code as location_code',
      'v.state',
      'v.size_mb',
      'v.error',
      'v.updated_at',
    ])
    .where('v.image_version_id', 'in', versionIds)
    .orderBy('h.name')
    .orderBy('h.id')
    .execute();
}

/** The codes of the locations each version is distributed to. */
export async function locationsOfVersions(db: Database, versionIds: readonly string[]) {
  if (versionIds.length === 0) return [];
  return db
    .selectFrom('image_version_locations as v')
    .innerJoin('locations as l', 'l.id', 'v.location_id')
    .select(['v.image_version_id', 'l.code'])
    .where('v.image_version_id', 'in', versionIds)
    .orderBy('l.code')
    .execute();
}
