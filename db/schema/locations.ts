import type { Generated } from 'kysely';
import type { Timestamp } from './columns.js';

export interface LocationsTable {
  id: Generated<string>;
  code: string;
  name: string;
  created_at: Timestamp;
}
