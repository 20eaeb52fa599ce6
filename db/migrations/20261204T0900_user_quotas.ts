import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

const LIMITS = ['instances', 'cpu_cores', 'memory_mb', 'disk_mb', 'volumes', 'ips'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  // Per-user quotas (issue 48 item 5): the most of each resource an administrator lets one
  // customer hold. No row, or a null column, is unlimited: every user starts so. A limit is a
  // whole number from zero (zero: none of it).
  let table = db.schema
    .createTable('user_quotas')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'));
  for (const limit of LIMITS)
    table = table.addColumn(limit, 'integer', (c) => c.check(sql`${sql.ref(limit)} >= 0`));
  await table.addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_quotas').execute();
}
