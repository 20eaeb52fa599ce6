import type { Generated } from 'kysely';
import type { Timestamp } from '../columns.js';

export interface SshKeysTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  public_key: string;
  fingerprint: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}
