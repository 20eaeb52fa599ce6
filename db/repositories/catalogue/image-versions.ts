import { sql } from 'kysely';
import type { ChecksumAlgorithm, ImageFormat } from '../../../domain/image-versions.js';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

/**
 * An image's version rows: added with a pending copy for each hypervisor of its locations, read,
 * listed, deprecated.
 */

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
