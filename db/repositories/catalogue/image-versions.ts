import { sql } from 'kysely';
import type { ChecksumAlgorithm, ImageFormat, VersionCopies } from '../../../domain/image-versions.js';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { deleteUnlessHeld } from '../delete-unless-held.js';
import { recordCopyRemovals } from './image-copy-removals.js';

const VERSION_COLUMNS = [
  'image_versions.id',
  'image_versions.image_id',
  'image_versions.version',
  'image_versions.url',
  'image_versions.checksum_algorithm',
  'image_versions.checksum',
  'image_versions.format',
  'image_versions.deprecated_at',
  'image_versions.created_at',
] as const;

export type ImageVersionRow = NonNullable<Awaited<ReturnType<typeof findImageVersion>>>;

export interface NewImageVersion {
  readonly id: string;
  readonly imageId: string;
  readonly url: string;
  readonly checksumAlgorithm: ChecksumAlgorithm;
  readonly checksum: string;
  readonly format: ImageFormat;
  readonly locationIds: readonly string[];
}

/**
 * Records the next version of the image (its number one past the newest, with the image's row
 * locked so two added at once are numbered in turn) and a `pending` copy for every hypervisor of
 * its locations. False when the image is gone.
 */
export async function insertImageVersion(trx: Database, version: NewImageVersion): Promise<boolean> {
  const image = await trx
    .selectFrom('images')
    .select('id')
    .where('id', '=', version.imageId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!image) return false;
  await trx
    .insertInto('image_versions')
    .values({
      id: version.id,
      image_id: version.imageId,
      version: sql<number>`(select coalesce(max(version), 0) + 1 from image_versions where image_id = ${version.imageId})`,
      url: version.url,
      checksum_algorithm: version.checksumAlgorithm,
      checksum: version.checksum,
      format: version.format,
    })
    .execute();
  await trx
    .insertInto('image_version_locations')
    .values(version.locationIds.map((location_id) => ({ image_version_id: version.id, location_id })))
    .execute();
  await addMissingHosts(trx, version.id);
  return true;
}

/** A `pending` copy for each hypervisor of the version's locations that has none yet (one that joined since). */
export async function addMissingHosts(db: Database, versionId: string): Promise<void> {
  await sql`
    insert into image_version_hosts (image_version_id, hypervisor_id, state)
    select l.image_version_id, h.id, 'pending'
      from image_version_locations l
      join hypervisors h on h.location_id = l.location_id
     where l.image_version_id = ${versionId}
    on conflict do nothing`.execute(db);
}

export async function findImageVersion(db: Database, id: string) {
  return db
    .selectFrom('image_versions')
    .select(VERSION_COLUMNS)
    .where('image_versions.id', '=', id)
    .executeTakeFirst();
}

/** A page of the image's versions, newest first. */
export async function listImageVersions(db: Database, imageId: string, page: PageRequest) {
  const base = db.selectFrom('image_versions').where('image_id', '=', imageId);
  const [rows, total] = await Promise.all([
    base
      .select(VERSION_COLUMNS)
      .orderBy('version', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
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

/**
 * Deprecates the version (kept from when it first was; new orders stop taking it) or takes that
 * back. Undefined when there is no such version.
 */
export async function setImageVersionDeprecated(db: Database, id: string, deprecated: boolean) {
  return db
    .updateTable('image_versions')
    .set({ deprecated_at: deprecated ? sql`coalesce(deprecated_at, now())` : null })
    .where('id', '=', id)
    .returning(['id'])
    .executeTakeFirst();
}

/** What uses a version and keeps it from being deleted. */
export interface ImageVersionHolders extends Record<string, number> {
  readonly instances: number;
  readonly rebuilds: number;
}

/**
 * Deletes the version unless an instance that is not deleted was made from it or a running
 * rebuild writes it; deleted instances keep no reference to it. The copies its hypervisors hold
 * (or may hold) are recorded to be removed in the same transaction.
 */
export async function deleteImageVersionUnlessUsed(db: Database, id: string) {
  return deleteUnlessHeld(
    db,
    'image_versions',
    id,
    async (trx) => {
      const { rows } = await sql<ImageVersionHolders>`
        select (select count(*)::int from instances where image_version_id = ${id} and status <> 'deleted') as instances,
               (select count(*)::int from instance_operations
                 where kind = 'rebuild' and state = 'running' and workflow_input->>'imageVersionId' = ${id}) as rebuilds`.execute(
        trx,
      );
      return rows[0]!;
    },
    async (trx) => {
      await trx
        .updateTable('instances')
        .set({ image_version_id: null })
        .where('image_version_id', '=', id)
        .execute();
      await recordCopyRemovals(trx, { versionId: id });
    },
  );
}

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

/**
 * Holds the version for the caller's transaction (a key-share lock), as holdImage holds an image:
 * a delete waits for it to commit, then counts what it recorded. False when the version is gone.
 */
export async function holdImageVersion(trx: Database, id: string): Promise<boolean> {
  const row = await trx
    .selectFrom('image_versions')
    .select('id')
    .where('id', '=', id)
    .forKeyShare()
    .executeTakeFirst();
  return row !== undefined;
}
