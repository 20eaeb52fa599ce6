import type { Generated } from 'kysely';
import type { Json, Timestamp } from '../columns.js';

export interface ActivityLogTable {
  id: Generated<string>;
  user_id: string | null;
  instance_id: string | null;
  actor: string;
  event: string;
  detail: Json<Record<string, unknown>>;
  correlation_id: string | null;
  created_at: Timestamp;
}
