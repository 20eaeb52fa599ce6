import { type QueryCreator, sql } from 'kysely';
import { type ApiVersion, CURRENT_API_VERSION } from '../../../domain/api-versions/versions.js';
import { type CredentialType, issueSecret } from '../../../domain/credentials.js';
import type { Database } from '../../database.js';
import { precompiled } from '../../precompiled.js';
import type { DB } from '../../schema.js';

export interface ActiveCredential {
  readonly id: string;
  readonly type: CredentialType;
  readonly userId: string | null;
  readonly hypervisorId: string | null;
  /** A client or application key's pinned version (docs/api.md "Versions"); null for the others. */
  readonly apiVersion: string | null;
}

/**
 * The credential with this hash, if it is neither revoked nor expired and its user (if it has one)
 * is not disabled. An application key is live only while its user is an administrator: demoting
 * the user ends the use of their keys.
 */
// Every request of the Agent API reads its credential afresh (revocation takes effect at once), so
// the lookup is compiled once rather than built for each request.
const activeCredentialByHash = precompiled((db, tokenHash: string) =>
  db
    .selectFrom('credentials')
    .leftJoin('users', 'users.id', 'credentials.user_id')
    .select([
      'credentials.id',
      'credentials.type',
      'credentials.user_id',
      'credentials.hypervisor_id',
      'credentials.api_version',
    ])
    .where('credentials.token_hash', '=', tokenHash)
    .where('credentials.revoked_at', 'is', null)
    .where((eb) =>
      eb.or([eb('credentials.expires_at', 'is', null), eb('credentials.expires_at', '>', sql<Date>`now()`)]),
    )
    .where('users.disabled_at', 'is', null)
    .where((eb) => eb.or([eb('credentials.type', '<>', 'application'), eb('users.is_admin', '=', true)])),
);

export async function findActiveCredential(
  db: Database,
  tokenHash: string,
): Promise<ActiveCredential | undefined> {
  const [row] = await activeCredentialByHash(db, tokenHash);
  return (
    row && {
      id: row.id,
      type: row.type as CredentialType,
      userId: row.user_id,
      hypervisorId: row.hypervisor_id,
      apiVersion: row.api_version,
    }
  );
}

/** The credential's row while it is neither revoked nor expired; also a condition of other queries. */
export const activeCredential = (db: QueryCreator<DB>, credentialId: string) =>
  db
    .selectFrom('credentials')
    .select('id')
    .where('id', '=', credentialId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]));

/** Whether the credential is still neither revoked nor expired (a long poll checks before it hands out work). */
export async function isCredentialActive(db: Database, credentialId: string): Promise<boolean> {
  return (await activeCredential(db, credentialId).executeTakeFirst()) !== undefined;
}

export interface NewCredential {
  readonly type: CredentialType;
  readonly tokenHash: string;
  readonly hint: string;
  readonly label?: string | null;
  readonly userId?: string | null;
  readonly hypervisorId?: string | null;
  readonly expiresAt?: Date | null;
  /** A key's pin; by default the version current at issue (keys only: other types have none). */
  readonly apiVersion?: ApiVersion;
}

export async function insertCredential(
  db: Database,
  credential: NewCredential,
): Promise<{ id: string; createdAt: Date; apiVersion: string | null }> {
  const row = await db
    .insertInto('credentials')
    .values({
      type: credential.type,
      token_hash: credential.tokenHash,
      hint: credential.hint,
      label: credential.label ?? null,
      user_id: credential.userId ?? null,
      hypervisor_id: credential.hypervisorId ?? null,
      expires_at: credential.expiresAt ?? null,
      api_version: takesVersion(credential.type) ? (credential.apiVersion ?? CURRENT_API_VERSION) : null,
    })
    .returning(['id', 'created_at', 'api_version'])
    .executeTakeFirstOrThrow();
  return { id: row.id, createdAt: row.created_at, apiVersion: row.api_version };
}

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

/** Ends every live credential of a hypervisor's agent (revoke-agent) and its unused enrollment tokens. */
export async function revokeHypervisorCredentials(db: Database, hypervisorId: string): Promise<number> {
  const rows = await db
    .updateTable('credentials')
    .set({ revoked_at: sql`now()` })
    .where('hypervisor_id', '=', hypervisorId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length;
}

/**
 * Spends a one-time enrollment token: the update that marks it used is the check, so two
 * concurrent enrollments with one token cannot both succeed.
 */
export async function consumeEnrollmentToken(
  db: Database,
  tokenHash: string,
): Promise<{ id: string; hypervisorId: string } | undefined> {
  const row = await db
    .updateTable('credentials')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('type', '=', 'enrollment')
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['id', 'hypervisor_id'])
    .executeTakeFirst();
  return row?.hypervisor_id ? { id: row.id, hypervisorId: row.hypervisor_id } : undefined;
}

export async function revokeUnusedEnrollmentTokens(db: Database, hypervisorId: string): Promise<void> {
  await db
    .updateTable('credentials')
    .set({ revoked_at: sql`now()` })
    .where('hypervisor_id', '=', hypervisorId)
    .where('type', '=', 'enrollment')
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Issues a credential and stores its hash; the token is returned to be shown once. */
export async function createCredential(
  db: Database,
  credential: Omit<NewCredential, 'tokenHash' | 'hint'>,
): Promise<{ id: string; token: string; hint: string; createdAt: Date; apiVersion: string | null }> {
  const secret = issueSecret(credential.type);
  const { id, createdAt, apiVersion } = await insertCredential(db, {
    ...credential,
    tokenHash: secret.hash,
    hint: secret.hint,
  });
  return { id, token: secret.token, hint: secret.hint, createdAt, apiVersion };
}

/** Keys are pinned to a version; agent, gateway and enrollment credentials speak unversioned APIs. */
const takesVersion = (type: CredentialType) => type === 'client' || type === 'application';

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
