import { sql } from 'kysely';
import type { ApiVersion } from '../../../domain/api-versions/versions.js';
import type { Database } from '../../database.js';

/**
 * Keys as administrators manage them: users' client and application keys, and the console gateways'
 * credentials (any of them revoked by id or hint).
 */

/** Revokes by id, or by the non-secret hint shown at issuance. Returns how many were revoked. */
export async function revokeCredential(db: Database, idOrHint: string): Promise<string[]> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrHint);
  const rows = await db
    .updateTable('credentials')
    .set({ revoked_at: sql`now()` })
    .where(isUuid ? 'id' : 'hint', '=', idOrHint)
    .where('revoked_at', 'is', null)
    .where('type', 'in', ['client', 'application', 'console_gateway'])
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** A user's client and application keys, newest first, revoked ones too (never their hashes). */
export async function listUserKeys(db: Database, userId: string) {
  return db
    .selectFrom('credentials')
    .select(['id', 'type', 'label', 'hint', 'api_version', 'created_at', 'revoked_at'])
    .where('user_id', '=', userId)
    .where('type', 'in', ['client', 'application'])
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/**
 * Pins one of the user's live keys to `version`; the key as now recorded, or undefined when the
 * user has no such live key. Pinning it again to the same version changes nothing but the answer.
 */
export async function pinUserKey(db: Database, userId: string, keyId: string, version: ApiVersion) {
  return db
    .updateTable('credentials')
    .set({ api_version: version })
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .where('type', 'in', ['client', 'application'])
    .where('revoked_at', 'is', null)
    .returning(['id', 'type', 'label', 'hint', 'api_version', 'created_at', 'revoked_at'])
    .executeTakeFirst();
}

/** Revokes one of the user's keys; false when the user has no such live key. */
export async function revokeUserKey(db: Database, userId: string, keyId: string): Promise<boolean> {
  const row = await db
    .updateTable('credentials')
    .set({ revoked_at: sql`now()` })
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .where('type', 'in', ['client', 'application'])
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The console-gateway credentials, newest first, revoked ones too (never their hashes). */
export async function listConsoleGatewayCredentials(db: Database) {
  return db
    .selectFrom('credentials')
    .select(['id', 'label', 'hint', 'created_at', 'revoked_at'])
    .where('type', '=', 'console_gateway')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Revokes one console-gateway credential; false when there is no such live credential. */
export async function revokeConsoleGatewayCredential(db: Database, credentialId: string): Promise<boolean> {
  const row = await db
    .updateTable('credentials')
    .set({ revoked_at: sql`now()` })
    .where('id', '=', credentialId)
    .where('type', '=', 'console_gateway')
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
