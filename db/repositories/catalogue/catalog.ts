import type { CatalogueReach } from '../../../domain/catalog.js';
import type { Database } from '../../database.js';

/** Locations, plans and images: the catalogue instances are made from. Upserts keyed by code. */

export async function upsertLocation(db: Database, location: { code: string; name: string }) {
  return db
    .insertInto('locations')
    .values(location)
    .onConflict((oc) => oc.column('code').doUpdateSet({ name: location.name }))
    .returning(['id', 'code', 'name'])
    .executeTakeFirstOrThrow();
}

export async function upsertPlan(
  db: Database,
  plan: { code: string; name: string; cpu_cores: number; memory_mb: number; disk_mb: number },
) {
  return db
    .insertInto('plans')
    .values(plan)
    .onConflict((oc) => oc.column('code').doUpdateSet({ name: plan.name }))
    .returning(['id', 'code', 'name', 'cpu_cores', 'memory_mb', 'disk_mb'])
    .executeTakeFirstOrThrow();
}

export async function upsertImage(
  db: Database,
  image: { code: string; name: string; os_family: string; min_disk_mb: number },
) {
  return db
    .insertInto('images')
    .values(image)
    .onConflict((oc) => oc.column('code').doUpdateSet({ name: image.name }))
    .returning(['id', 'code', 'name'])
    .executeTakeFirstOrThrow();
}

/** A plan by code: a customer orders from the public ones, an administrator from all. */
export async function findPlanByCode(db: Database, code: string, reach: CatalogueReach) {
  return db
    .selectFrom('plans')
    .select(['id', 'code', 'cpu_cores', 'memory_mb', 'disk_mb', 'host_requirements', 'location_id'])
    .where('code', '=', code)
    .$if(reach === 'public', (q) => q.where('is_public', '=', true))
    .executeTakeFirst();
}

/** An image by code: a customer orders from the public ones, an administrator from all. */
export async function findImageByCode(db: Database, code: string, which: CatalogueReach) {
  let query = db
    .selectFrom('images')
    .select(['id', 'code', 'min_disk_mb', 'virtualization'])
    .where('code', '=', code);
  if (which === 'public') query = query.where('is_public', '=', true);
  return query.executeTakeFirst();
}

/** The image an instance was made (or last rebuilt) from. */
export async function findImageOfInstance(db: Database, instanceId: string) {
  return db
    .selectFrom('instances')
    .innerJoin('images', 'images.id', 'instances.image_id')
    .select(['images.id', 'images.code'])
    .where('instances.id', '=', instanceId)
    .executeTakeFirst();
}

export async function findLocationByCode(db: Database, code: string) {
  return db.selectFrom('locations').select(['id', 'code']).where('code', '=', code).executeTakeFirst();
}
