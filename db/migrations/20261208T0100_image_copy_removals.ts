import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/api.md "Deleted versions' copies": a deleted version's copy still to be removed from a
  // hypervisor's image store, written in the delete's own transaction so a crash or a silent host
  // loses none. The version row is gone: its id, image and number are kept here as they were.
  // `pending` until removed (`removing` while a run asks its hypervisor), `removed` once gone,
  // `blocked` while a guest on the hypervisor still boots from it (the agent's IMAGE_IN_USE).
  await db.schema
    .createTable('image_copy_removals')
    .addColumn('image_version_id', 'uuid', (c) => c.notNull())
    .addColumn('image_id', 'uuid', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('hypervisor_id', 'uuid', (c) => c.notNull().references('hypervisors.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('pending', 'removing', 'removed', 'blocked')`),
    )
    .addColumn('error', 'jsonb')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('removed_at', 'timestamptz')
    .addPrimaryKeyConstraint('image_copy_removals_pk', ['image_version_id', 'hypervisor_id'])
    .execute();
  await sql`alter table image_copy_removals add constraint image_copy_removals_blocked_with_reason
    check (state <> 'blocked' or error is not null)`.execute(db);
  await sql`alter table image_copy_removals add constraint image_copy_removals_removed_when
    check ((state = 'removed') = (removed_at is not null))`.execute(db);
  // What a hypervisor that comes back, and the sweep, look for.
  await db.schema
    .createIndex('image_copy_removals_outstanding')
    .on('image_copy_removals')
    .columns(['hypervisor_id', 'updated_at'])
    .where(sql.ref('state'), '<>', 'removed')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('image_copy_removals').execute();
}
