import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // Addresses are unique across locations: two pools of one range would hand one out twice. The
  // constraint refuses a pool that overlaps another, also when two are created at once.
  await sql`alter table ip_pools add constraint ip_pools_no_overlap exclude using gist (cidr inet_ops with &&)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table ip_pools drop constraint ip_pools_no_overlap`.execute(db);
}
