import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../columns.js';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  is_admin: Generated<boolean>;
  disabled_at: NullableTimestamp;
  /** A billing system's own id for the user (domain/external-ids.ts); null: none. */
  external_id: Generated<string | null>;
  created_at: Timestamp;
}
