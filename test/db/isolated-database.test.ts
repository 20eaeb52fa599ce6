import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/database.js';
import { insertUser } from '../../db/repositories/accounts/users.js';
import type { ScratchDatabase } from '../../db/scratch-database.js';
import { isolatedDatabase, tableDigest } from '../support/database.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/** The test stack's databases of a file's own, and the digest that proves nothing changed in one. */
let isolated: ScratchDatabase;
let handle: DatabaseHandle;
let shared: Stack;

beforeAll(async () => {
  isolated = await isolatedDatabase();
  handle = createDatabase({ url: isolated.url, poolSize: 2, namedStatements: false });
  shared = await startStack();
});
afterAll(async () => {
  await shared.close();
  await handle.close();
  await isolated.drop();
});

const migrations = (db: DatabaseHandle['db']) =>
  sql<{ name: string }>`select name from kysely_migration order by name`.execute(db).then((r) => r.rows);

describe('an isolated database', () => {
  it('is the migrated schema with none of the run’s rows', async () => {
    await seed.user(shared.db);
    expect(await migrations(handle.db)).toEqual(await migrations(shared.db));
    expect((await migrations(handle.db)).length).toBeGreaterThan(0);
    expect(await handle.db.selectFrom('users').select('id').execute()).toEqual([]);
  });

  it('is gone once dropped', async () => {
    const other = await isolatedDatabase();
    const exists = async () =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from pg_database where datname = ${other.name}`.execute(shared.db)
      ).rows[0]!.n;
    expect(await exists()).toBe(1);
    await other.drop();
    expect(await exists()).toBe(0);
  });
});

describe('tableDigest', () => {
  it('is equal while nothing changes, and tells an insert, an update and a delete apart', async () => {
    const before = await tableDigest(handle.db);
    expect(Object.keys(before)).toContain('users');
    expect(await tableDigest(handle.db)).toEqual(before);

    const user = await insertUser(handle.db, {
      email: 'digest@example.test',
      name: 'Digest',
      isAdmin: false,
    });
    const inserted = await tableDigest(handle.db);
    expect(inserted.users).not.toBe(before.users);
    expect({ ...inserted, users: before.users }).toEqual(before);

    await handle.db.updateTable('users').set({ name: 'Digest, renamed' }).where('id', '=', user.id).execute();
    const updated = await tableDigest(handle.db);
    expect(updated.users).not.toBe(inserted.users);
    expect(updated.users).toMatch(/^1 rows, /);

    await handle.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await tableDigest(handle.db)).toEqual(before);
  });
});
