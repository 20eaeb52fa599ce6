import { sql } from 'kysely';
import { type MigrationState, statesBefore } from '../../../domain/migrations/states.js';
import type { Database } from '../../database.js';

/** Records a state change with its time; `fields` are the migration columns the change sets. */
export async function recordMigrationState(
  db: Database,
  migrationId: string,
  state: MigrationState,
  detail: Record<string, unknown> = {},
  fields: {
    failed_step?: string | null;
    failure?: Record<string, unknown> | null;
    recovery?: Record<string, unknown> | null;
    retainSourceMs?: number;
    finished?: boolean;
  } = {},
): Promise<void> {
  // The state and its history line together: a reader polling the state sees its line too.
  if (!db.isTransaction) {
    await db.transaction().execute((trx) => recordMigrationState(trx, migrationId, state, detail, fields));
    return;
  }
  // A compare-and-set on the states the machine allows before this one (domain/migrations/
  // states.ts): a write the table does not allow changes nothing and fails loudly.
  const updated = await db
    .updateTable('migrations')
    .set({
      state,
      updated_at: sql`now()`,
      ...(fields.failed_step === undefined ? {} : { failed_step: fields.failed_step }),
      ...(fields.failure === undefined ? {} : { failure: fields.failure && JSON.stringify(fields.failure) }),
      ...(fields.recovery === undefined
        ? {}
        : { recovery: fields.recovery && JSON.stringify(fields.recovery) }),
      ...(fields.retainSourceMs === undefined
        ? {}
        : { retain_source_until: sql`now() + ${`${fields.retainSourceMs} milliseconds`}::interval` }),
      ...(fields.finished ? { finished_at: sql`now()` } : {}),
    })
    .where('id', '=', migrationId)
    .where(
      sql<boolean>`state = any(case when strategy = 'live' then ${statesBefore(state, 'live')}::text[] else ${statesBefore(state, 'cold')}::text[] end)`,
    )
    .returning('id')
    .executeTakeFirst();
  if (!updated) {
    const found = await db
      .selectFrom('migrations')
      .select(['state'])
      .where('id', '=', migrationId)
      .executeTakeFirst();
    throw new IllegalMigrationTransition(migrationId, found?.state, state);
  }
  // A bookkeeping step may run twice (a local activity is at-least-once): the same state in a
  // row is one history line, its detail merged.
  await sql`
    insert into migration_events (migration_id, state, detail)
    select ${migrationId}, ${state}, ${JSON.stringify(detail)}::jsonb
     where (select state from migration_events where migration_id = ${migrationId} order by id desc limit 1)
           is distinct from ${state}`.execute(db);
  if (Object.keys(detail).length > 0) await annotateMigrationState(db, migrationId, state, detail);
}

/** A write of a migration state that the state machine does not allow from the state it is in. */
export class IllegalMigrationTransition extends Error {
  constructor(
    readonly migrationId: string,
    readonly from: MigrationState | undefined,
    readonly to: MigrationState,
  ) {
    super(`migration ${migrationId}: ${from ?? 'no such migration'} -> ${to} is not an allowed transition`);
    this.name = 'IllegalMigrationTransition';
  }
}

/** What a step found out (a checksum, the live downtime), added to its state's latest history line. */
export async function annotateMigrationState(
  db: Database,
  migrationId: string,
  state: MigrationState,
  detail: Record<string, unknown>,
): Promise<void> {
  await sql`
    update migration_events set detail = detail || ${JSON.stringify(detail)}::jsonb
     where id = (select max(id) from migration_events where migration_id = ${migrationId} and state = ${state})`.execute(
    db,
  );
}
