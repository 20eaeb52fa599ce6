import { type QueryCreator, sql } from 'kysely';
import type { CredentialType } from '../../../domain/credentials.js';
import type { Database } from '../../database.js';
import { precompiled } from '../../precompiled.js';
import type { DB } from '../../schema.js';

/** Whether a credential is live, as every request's authentication and an agent's poll ask. */

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
