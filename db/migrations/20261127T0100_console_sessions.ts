import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // A console session: one user, one instance, a single-use connect token stored as a hash, and
  // the times the gateway reported. `ended_at` with its reason once it is over, whatever ended it.
  await db.schema
    .createTable('console_sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('serial', 'graphical')`))
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('pending', 'validated', 'connected', 'ended')`),
    )
    .addColumn('connect_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('gateway_credential_id', 'uuid', (c) => c.references('credentials.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('connect_by', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('validated_at', 'timestamptz')
    .addColumn('connected_at', 'timestamptz')
    .addColumn('disconnected_at', 'timestamptz')
    .addColumn('last_heartbeat_at', 'timestamptz')
    .addColumn('ended_at', 'timestamptz')
    .addColumn('end_reason', 'text', (c) =>
      c.check(
        sql`end_reason in ('disconnected', 'revoked', 'expired', 'instance_deleted', 'instance_migrated', 'gateway_lost')`,
      ),
    )
    .addCheckConstraint(
      'console_sessions_ended',
      sql`(state = 'ended') = (ended_at is not null and end_reason is not null)`,
    )
    .execute();
  await db.schema
    .createIndex('console_sessions_instance')
    .on('console_sessions')
    .column('instance_id')
    .execute();
  await sql`create index console_sessions_live on console_sessions (expires_at) where state <> 'ended'`.execute(
    db,
  );
  // The feed of endings a gateway follows (revocations): its cursor is the row's id, in order.
  await db.schema
    .createTable('console_session_endings')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('session_id', 'uuid', (c) =>
      c.notNull().unique().references('console_sessions.id').onDelete('cascade'),
    )
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Each gateway as its heartbeats tell it: when it was last heard and its live sessions.
  await db.schema
    .createTable('console_gateways')
    .addColumn('credential_id', 'uuid', (c) =>
      c.primaryKey().references('credentials.id').onDelete('cascade'),
    )
    .addColumn('relay_url', 'text')
    .addColumn('sessions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_heartbeat_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('console_gateways').execute();
  await db.schema.dropTable('console_session_endings').execute();
  await db.schema.dropTable('console_sessions').execute();
}
