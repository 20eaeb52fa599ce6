import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.js';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  is_admin: Generated<boolean>;
  disabled_at: NullableTimestamp;
  created_at: Timestamp;
}
