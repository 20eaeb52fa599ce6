import { sql } from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';

const USER_COLUMNS = ['id', 'email', 'name', 'is_admin', 'disabled_at', 'external_id', 'created_at'] as const;

export type UserRow = NonNullable<Awaited<ReturnType<typeof findUser>>>;

export async function insertUser(
  db: Database,
  user: { email: string; name: string; isAdmin: boolean; externalId?: string | null },
) {
  return db
    .insertInto('users')
    .values({
      email: user.email.toLowerCase(),
      name: user.name,
      is_admin: user.isAdmin,
      external_id: user.externalId ?? null,
    })
    .returning(USER_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function findUserByEmail(db: Database, email: string) {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
}

/** The user a billing system knows by `externalId` (matched exactly, case included). */
export async function findUserByExternalId(db: Database, externalId: string) {
  return db.selectFrom('users').select(USER_COLUMNS).where('external_id', '=', externalId).executeTakeFirst();
}

export async function findUser(db: Database, id: string) {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** A page of users by email; `email` narrows to addresses containing it. */
export async function listUsers(db: Database, page: PageRequest, filter: { email?: string }) {
  const base = db
    .selectFrom('users')
    .$if(filter.email !== undefined, (q) =>
      q.where(sql<boolean>`strpos(email, ${filter.email!.toLowerCase()}) > 0`),
    );
  const [rows, total] = await Promise.all([
    base.select(USER_COLUMNS).orderBy('email').limit(page.perPage).offset(offsetOf(page)).execute(),
    base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.total };
}

/** The user with `fields` changed; undefined when there is no such user. */
export async function updateUser(
  db: Database,
  id: string,
  fields: { name?: string; is_admin?: boolean; disabled?: boolean; external_id?: string | null },
): Promise<UserRow | undefined> {
  const { disabled, ...rest } = fields;
  const set = {
    ...rest,
    // Disabling again keeps the first time; enabling clears it.
    ...(disabled === undefined
      ? {}
      : { disabled_at: disabled ? sql<Date>`coalesce(disabled_at, now())` : null }),
  };
  if (Object.keys(set).length === 0) return findUser(db, id);
  return db.updateTable('users').set(set).where('id', '=', id).returning(USER_COLUMNS).executeTakeFirst();
}
