import type { Timestamp } from '../columns.js';

// The one lease per instance that every move takes, a migration or a storage move.

export interface MoveLeasesTable {
  instance_id: string;
  /** The move that holds it: a migration's id or a storage move's. */
  move_id: string;
  holder: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}
