import { sql } from 'kysely';
import { inject } from 'vitest';
import type { Database } from '../../db/database.js';
import { createScratchDatabase, type ScratchDatabase } from '../../db/scratch-database.js';

/**
 * A database of the test file's own, copied from the run's migrated template, for a test that must
 * prove what a request did not change (see `tableDigest`): the run's shared database moves under
 * other files. Pass its `url` as DATABASE_URL; close every pool on it before `drop()`.
 */
export function isolatedDatabase(): Promise<ScratchDatabase> {
  return createScratchDatabase(inject('databaseServerUrl'), 'cloudsvc_isolated', {
    template: inject('databaseTemplate'),
  });
}

/**
 * Every table's row count and a hash of all its rows, in one comparable record: equal digests
 * before and after mean nothing was inserted, changed or deleted.
 */
export async function tableDigest(db: Database): Promise<Record<string, string>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
    order by table_name`.execute(db);
  const digest: Record<string, string> = {};
  for (const { name } of tables.rows) {
    // A row's text form covers every column; sorting it makes the hash independent of storage order.
    const { rows } = await sql<{ count: number; hash: string }>`
      select count(*)::int as count, md5(coalesce(string_agg(t::text, E'\n' order by t::text), '')) as hash
      from ${sql.table(name)} as t`.execute(db);
    digest[name] = `${rows[0]!.count} rows, md5 ${rows[0]!.hash}`;
  }
  return digest;
}
