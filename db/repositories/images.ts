import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import type { Database } from '../database.js';

const IMAGE_COLUMNS = ['id', 'code', 'name', 'os_family', 'min_disk_mb', 'created_at'] as const;

export type ImageRow = Awaited<ReturnType<typeof listPublicImages>>['rows'][number];

/** The images every customer may use, by name. */
export async function listPublicImages(db: Database, page: PageRequest) {
  const base = db.selectFrom('images').where('is_public', '=', true);
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
