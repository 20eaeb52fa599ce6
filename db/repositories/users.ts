import type { Database } from '../database.js';

export async function insertUser(db: Database, user: { email: string; name: string; isAdmin: boolean }) {
  return db
    .insertInto('users')
    .values({ email: user.email.toLowerCase(), name: user.name, is_admin: user.isAdmin })
    .returning(['id', 'email', 'name', 'is_admin', 'created_at'])
    .executeTakeFirstOrThrow();
}

export async function findUserByEmail(db: Database, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'is_admin', 'created_at'])
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
}
