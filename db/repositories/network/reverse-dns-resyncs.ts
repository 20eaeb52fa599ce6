import { sql } from 'kysely';
import type { RdnsFailure } from '../../../domain/dns/reverse-zones.js';
import type { Database } from '../../database.js';

// The last resync's prune of a location's reverse zones, as the DNS server answered it
// (db/migrations/20261207T0400_rdns_resyncs.ts): asked by the API, settled by the publishing step.

/** A resync asked for: its prune is `pending` until the step settles it. */
export async function requestPrune(db: Database, locationId: string): Promise<void> {
  await db
    .insertInto('rdns_resyncs')
    .values({ location_id: locationId, status: 'pending' })
    .onConflict((c) =>
      c.column('location_id').doUpdateSet({
        status: 'pending',
        failure: null,
        http_status: null,
        removed: null,
        requested_at: sql`now()`,
      }),
    )
    .execute();
}

/** What the prune came to: the strays removed, or why the zones could not be listed or changed. */
export async function settlePrune(
  db: Database,
  outcome: { locationId: string; removed: number; failure: RdnsFailure | null; httpStatus: number | null },
): Promise<void> {
  await db
    .updateTable('rdns_resyncs')
    .set({
      status: outcome.failure === null ? 'done' : 'failed',
      failure: outcome.failure,
      http_status: outcome.httpStatus,
      removed: outcome.removed,
      checked_at: sql`now()`,
    })
    .where('location_id', '=', outcome.locationId)
    .execute();
}

export type PruneRow = NonNullable<Awaited<ReturnType<typeof findPrune>>>;

export async function findPrune(db: Database, locationId: string) {
  return db
    .selectFrom('rdns_resyncs')
    .select(['location_id', 'status', 'failure', 'http_status', 'removed', 'requested_at', 'checked_at'])
    .where('location_id', '=', locationId)
    .executeTakeFirst();
}
