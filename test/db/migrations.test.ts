import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrator.js';
import { createScratchDatabase, type ScratchDatabase } from '../../db/scratch-database.js';

/** A database of its own, so the migrations run from nothing. */
let scratch: ScratchDatabase;
beforeAll(async () => {
  scratch = await createScratchDatabase(inject('databaseUrl'), 'cloudsvc_migrate');
});
afterAll(() => scratch.drop());

describe('migrations', () => {
  it('are safe to run from several processes at once', async () => {
    const handles = Array.from({ length: 4 }, () =>
      createDatabase({ url: scratch.url, poolSize: 2, namedStatements: false }),
    );
    try {
      const outcomes = await Promise.all(handles.map((h) => migrateToLatest(h.db)));
      const applied = outcomes.flatMap((o) => o.applied);
      // Every migration in db/migrations/ applied exactly once across the four runners.
      const files = readdirSync(fileURLToPath(new URL('../../db/migrations/', import.meta.url)));
      expect(applied.sort()).toEqual(files.map((f) => f.replace(/\.ts$/, '')).sort());
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
