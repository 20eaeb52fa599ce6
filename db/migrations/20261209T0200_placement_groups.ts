import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/api.md "Placement groups": a customer's group of instances in one location that
  // placement spreads over hypervisors, hard (`spread`: never two on one) or soft (`spread_soft`).
  // Names are unique per account, as private networks' are.
  await db.schema
    .createTable('placement_groups')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('location_id', 'uuid', (c) => c.notNull().references('locations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('policy', 'text', (c) => c.notNull().check(sql`policy in ('spread', 'spread_soft')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('placement_groups_user_name', ['user_id', 'name'])
    .execute();
  await db.schema
    .createIndex('placement_groups_user')
    .on('placement_groups')
    .columns(['user_id', 'created_at'])
    .execute();
  // A live member keeps its group from being deleted (the service refuses); a deleted instance's
  // reference is let go with the group.
  await db.schema
    .alterTable('instances')
    .addColumn('placement_group_id', 'uuid', (c) => c.references('placement_groups.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('instances_placement_group')
    .on('instances')
    .column('placement_group_id')
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('instances_placement_group').execute();
  await db.schema.alterTable('instances').dropColumn('placement_group_id').execute();
  await db.schema.dropTable('placement_groups').execute();
}
