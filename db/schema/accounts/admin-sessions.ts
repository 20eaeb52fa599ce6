import type { NullableTimestamp, Timestamp } from '../columns.js';

export interface AdminSessionsTable {
  id: string;
  token_hash: string;
  credential_id: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  ended_at: NullableTimestamp;
}
