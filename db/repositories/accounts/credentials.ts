import { type ApiVersion, CURRENT_API_VERSION } from '../../../domain/api-versions/versions.js';
import { type CredentialType, issueSecret } from '../../../domain/credentials.js';
import type { Database } from '../../database.js';

/** Issuing a credential of any type: its row with the token's hash, and the token shown once. */

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
