import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // docs/operations.md "Images": a copy is fetched either by its version's distribution or by the
  // catch-up of a hypervisor that came online. The run fetching a copy is named on it, so the
  // other never fetches the same copy beside it; null on a copy no run holds (or one taken
  // before this column, which any run may take again).
  await db.schema.alterTable('image_version_hosts').addColumn('fetch_run', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('image_version_hosts').dropColumn('fetch_run').execute();
}
