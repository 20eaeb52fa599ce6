import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

// What an administrator sees of a deleted version's copies leaving the hypervisors (the writes are
// in image-copy-removals.ts).

export type ImageCopyRemovalRow = Awaited<ReturnType<typeof listImageCopyRemovals>>['rows'][number];

/** A page of each hypervisor's removal of the deleted version's copy, by hypervisor name. */
export async function listImageCopyRemovals(db: Database, versionId: string, page: PageRequest) {
  const base = db.selectFrom('image_copy_removals as r').where('r.image_version_id', '=', versionId);
  const [rows, total] = await Promise.all([
    base
      .innerJoin('hypervisors as h', 'h.id', 'r.hypervisor_id')
      .innerJoin('locations as l', 'l.id', 'h.location_id')
      .select([
        'r.image_version_id',
        'r.image_id',
        'r.version',
        'r.hypervisor_id',
        'h.name as hypervisor_name',
        'l.code as location_code',
        'r.state',
        'r.error',
        'r.attempts',
        'r.requested_at',
        'r.updated_at',
        'r.removed_at',
      ])
      .orderBy('h.name')
      .orderBy('h.id')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute(),
    base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}
