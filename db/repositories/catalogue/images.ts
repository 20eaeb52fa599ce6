import { sql } from 'kysely';
import type { OsFamily, Virtualization } from '../../../domain/catalog.js';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { deleteUnlessHeld } from '../delete-unless-held.js';
import { recordCopyRemovals } from './image-copy-removals.js';

const IMAGE_COLUMNS = [
  'id',
  'code',
  'name',
  'os_family',
  'virtualization',
  'min_disk_mb',
  'is_public',
  'created_at',
] as const;

export type ImageRow = NonNullable<Awaited<ReturnType<typeof findImage>>>;

export interface ImageFields {
  readonly code: string;
  readonly name: string;
  readonly os_family: OsFamily;
  readonly virtualization: Virtualization;
  readonly min_disk_mb: number;
  readonly is_public: boolean;
}

/** A page of images by name: the public ones a customer may use, or every one an administrator keeps. */
export async function listImages(db: Database, page: PageRequest, which: 'public' | 'all') {
  const base = db.selectFrom('images').$if(which === 'public', (q) => q.where('is_public', '=', true));
  const [rows, total] = await Promise.all([
    base
      .select(IMAGE_COLUMNS)
      .orderBy('name')
      .orderBy('id')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}

export async function findImage(db: Database, id: string) {
  return db.selectFrom('images').select(IMAGE_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function insertImage(db: Database, fields: ImageFields): Promise<ImageRow> {
  return db.insertInto('images').values(fields).returning(IMAGE_COLUMNS).executeTakeFirstOrThrow();
}

/** The image with `fields` changed; undefined when there is no such image. */
export async function updateImage(
  db: Database,
  id: string,
  fields: Partial<Omit<ImageFields, 'code'>>,
): Promise<ImageRow | undefined> {
  if (Object.keys(fields).length === 0) return findImage(db, id);
  return db
    .updateTable('images')
    .set(fields)
    .where('id', '=', id)
    .returning(IMAGE_COLUMNS)
    .executeTakeFirst();
}

/**
 * Holds the image for the caller's transaction (a key-share lock): a delete waits for it to commit,
 * then counts what it recorded. False when the image is gone.
 */
export async function holdImage(trx: Database, id: string): Promise<boolean> {
  const row = await trx
    .selectFrom('images')
    .select('id')
    .where('id', '=', id)
    .forKeyShare()
    .executeTakeFirst();
  return row !== undefined;
}

/** What uses an image and keeps it from being deleted. */
export interface ImageHolders extends Record<string, number> {
  readonly instances: number;
  readonly rebuilds: number;
}

/**
 * Deletes the image unless an instance that is not deleted was made from it or a running rebuild
 * writes it (a rebuild holds the image's key share until its operation is recorded). Deleted
 * instances keep no reference to it.
 */
export async function deleteImageUnlessUsed(db: Database, id: string) {
  return deleteUnlessHeld(
    db,
    'images',
    id,
    async (trx) => {
      const { rows } = await sql<ImageHolders>`
        select (select count(*)::int from instances where image_id = ${id} and status <> 'deleted') as instances,
               (select count(*)::int from instance_operations
                 where kind = 'rebuild' and state = 'running' and workflow_input->>'imageId' = ${id}) as rebuilds`.execute(
        trx,
      );
      return rows[0]!;
    },
    async (trx) => {
      await trx
        .updateTable('instances')
        .set({ image_id: null, image_version_id: null })
        .where('image_id', '=', id)
        .execute();
      // Its versions go with it (on delete cascade): their copies are recorded to be removed first.
      await recordCopyRemovals(trx, { imageId: id });
    },
  );
}

/** The OS family of the image an instance was made from; undefined when it has none. */
export async function findOsFamilyOfInstance(db: Database, instanceId: string) {
  const row = await db
    .selectFrom('instances')
    .innerJoin('images', 'images.id', 'instances.image_id')
    .select('images.os_family')
    .where('instances.id', '=', instanceId)
    .executeTakeFirst();
  return row?.os_family;
}
