import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../columns.js';

export interface CredentialsTable {
  id: Generated<string>;
  type: string;
  token_hash: string;
  hint: string;
  label: string | null;
  user_id: string | null;
  hypervisor_id: string | null;
  expires_at: NullableTimestamp;
  used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  /** A key's pinned API version (db/migrations/20261206T0200_api_versions.ts); null for other types. */
  api_version: string | null;
  created_at: Timestamp;
}
