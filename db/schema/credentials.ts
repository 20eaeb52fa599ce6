import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.js';

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
  created_at: Timestamp;
}
