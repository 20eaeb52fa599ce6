import { sql } from 'kysely';
import type { RdnsFailure } from '../../../domain/dns/reverse-zones.js';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

// The PTR records of released addresses still to be deleted from their location's DNS server. A
// trigger on the address's delete writes them (db/migrations/20261206T0401_rdns_withdrawals.ts),
// in the transaction that releases it; the publishing workflow reads and settles them.

/** Whether the location has released addresses whose PTR record the DNS server may still serve. */
export async function hasPendingWithdrawals(db: Database, locationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('rdns_withdrawals')
    .select('id')
    .where('location_id', '=', locationId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Withdrawals of addresses the panel holds again with a name of their own, or a change of it not
 * yet published, are dropped: that record's own publication decides what the server serves, and
 * deleting it here would take the new holder's name away.
 */
export async function dropSupersededWithdrawals(db: Database, locationId: string): Promise<number> {
  const result = await sql`
    delete from rdns_withdrawals w
     where w.location_id = ${locationId}
       and exists (select 1 from ip_addresses a
                    where a.address = w.address
                      and (a.rdns is not null or a.rdns_status in ('pending', 'failed')))`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export type PendingWithdrawal = Awaited<ReturnType<typeof pendingWithdrawalsOf>>[number];

/** The location's withdrawals not yet done (pending, or failed and to be tried again), by address. */
export async function pendingWithdrawalsOf(db: Database, locationId: string) {
  return db
    .selectFrom('rdns_withdrawals')
    .select(['id', sql<string>`host(address)`.as('address'), 'generation'])
    .where('location_id', '=', locationId)
    .orderBy('address')
    .execute();
}

/**
 * What the DNS server's answer made of one generation of a withdrawal: done (the row goes), or
 * failed with the reason. A withdrawal asked again since (another generation) is left alone.
 */
export async function settleWithdrawal(
  db: Database,
  settlement: { id: string; generation: number; failure: RdnsFailure | null; httpStatus: number | null },
): Promise<void> {
  if (settlement.failure === null) {
    await db
      .deleteFrom('rdns_withdrawals')
      .where('id', '=', settlement.id)
      .where('generation', '=', settlement.generation)
      .execute();
    return;
  }
  await db
    .updateTable('rdns_withdrawals')
    .set({
      status: 'failed',
      failure: settlement.failure,
      http_status: settlement.httpStatus,
      checked_at: sql`now()`,
    })
    .where('id', '=', settlement.id)
    .where('generation', '=', settlement.generation)
    .execute();
}

export type ReverseWithdrawalRow = Awaited<ReturnType<typeof listReverseWithdrawals>>['rows'][number];

/** A page of the location's withdrawals not yet done, by address, for an administrator to see. */
export async function listReverseWithdrawals(db: Database, locationId: string, page: PageRequest) {
  const rows = await db
    .selectFrom('rdns_withdrawals')
    .select([
      'id',
      sql<string>`host(address)`.as('address'),
      'status',
      'failure',
      'http_status',
      'requested_at',
      'checked_at',
    ])
    .where('location_id', '=', locationId)
    .orderBy('address')
    .limit(page.perPage)
    .offset(offsetOf(page))
    .execute();
  const { total } = await db
    .selectFrom('rdns_withdrawals')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('location_id', '=', locationId)
    .executeTakeFirstOrThrow();
  return { rows, total };
}
