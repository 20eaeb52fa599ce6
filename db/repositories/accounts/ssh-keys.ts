import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

const SSH_KEY_COLUMNS = [
  'id',
  'user_id',
  'name',
  'public_key',
  'fingerprint',
  'created_at',
  'updated_at',
] as const;

export type SshKeyRow = NonNullable<Awaited<ReturnType<typeof findSshKeyOfUser>>>;

/** One key of one user: a foreign key is indistinguishable from none. */
export async function findSshKeyOfUser(db: Database, userId: string, keyId: string) {
  return db
    .selectFrom('ssh_keys')
    .select(SSH_KEY_COLUMNS)
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The user's keys among `keyIds`, by name: fewer than asked when some are unknown or foreign. */
export async function findSshKeysOfUser(db: Database, userId: string, keyIds: readonly string[]) {
  if (keyIds.length === 0) return [];
  return db
    .selectFrom('ssh_keys')
    .select(SSH_KEY_COLUMNS)
    .where('user_id', '=', userId)
    .where('id', 'in', [...keyIds])
    .orderBy('name')
    .execute();
}

export async function listSshKeysOfUser(db: Database, userId: string, page: PageRequest) {
  const base = db.selectFrom('ssh_keys').where('user_id', '=', userId);
  const [rows, total] = await Promise.all([
    base.select(SSH_KEY_COLUMNS).orderBy('name').limit(page.perPage).offset(offsetOf(page)).execute(),
    base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}

export interface NewSshKey {
  readonly userId: string;
  readonly name: string;
  readonly publicKey: string;
  readonly fingerprint: string;
}

/**
 * Adds a key if the user holds fewer than `limit`. The user's row is locked first, so that two
 * adds at once are counted one after the other and the limit holds. Runs inside a transaction;
 * undefined when the limit is reached. A duplicate name or key is a unique violation
 * (`ssh_keys_user_name`, `ssh_keys_user_fingerprint`).
 */
export async function insertSshKeyWithin(trx: Database, key: NewSshKey, limit: number) {
  if (!trx.isTransaction) throw new Error('insertSshKeyWithin runs inside a transaction');
  await sql`select 1 from users where id = ${key.userId} for update`.execute(trx);
  const { held } = await trx
    .selectFrom('ssh_keys')
    .select(sql<string>`count(*)`.as('held'))
    .where('user_id', '=', key.userId)
    .executeTakeFirstOrThrow();
  if (Number(held) >= limit) return undefined;
  return trx
    .insertInto('ssh_keys')
    .values({ user_id: key.userId, name: key.name, public_key: key.publicKey, fingerprint: key.fingerprint })
    .returning(SSH_KEY_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Renames a key of the user; a rename to the name it has already changes nothing. */
export async function renameSshKeyOfUser(db: Database, userId: string, keyId: string, name: string) {
  return db
    .updateTable('ssh_keys')
    .set({ name, updated_at: sql`case when name = ${name} then updated_at else now() end` })
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .returning(SSH_KEY_COLUMNS)
    .executeTakeFirst();
}

export async function deleteSshKeyOfUser(db: Database, userId: string, keyId: string) {
  return db
    .deleteFrom('ssh_keys')
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .returning(['id', 'name', 'fingerprint'])
    .executeTakeFirst();
}
