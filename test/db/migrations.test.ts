import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrator.js';

/** A database of its own, so the migrations run from nothing. */
const name = `cloudsvc_migrate_${Date.now()}_${process.pid}`;
const adminUrl = inject('databaseUrl');
const url = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
})();

async function admin(query: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

beforeAll(() => admin(`create database ${name}`));
afterAll(() => admin(`drop database if exists ${name} with (force)`));

describe('migrations', () => {
  it('are safe to run from several processes at once', async () => {
    const handles = Array.from({ length: 4 }, () =>
      createDatabase({ url, poolSize: 2, namedStatements: false }),
    );
    try {
      const outcomes = await Promise.all(handles.map((h) => migrateToLatest(h.db)));
      const applied = outcomes.flatMap((o) => o.applied);
      // Every migration applied exactly once across the four runners.
      expect(applied.sort()).toEqual(['20261122T0100_core', '20261122T0200_agent_reports_and_metrics']);
      const again = await migrateToLatest(handles[0]!.db);
      expect(again.applied).toEqual([]);
      const tables = await sql<{
        n: string;
      }>`select count(*) as n from information_schema.tables where table_schema = 'public'`.execute(
        handles[0]!.db,
      );
      expect(Number(tables.rows[0]!.n)).toBeGreaterThanOrEqual(16);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });
});
