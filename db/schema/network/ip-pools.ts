import type { Generated } from 'kysely';
import type { Timestamp } from '../columns.js';

export interface IpPoolsTable {
  id: Generated<string>;
  location_id: string;
  name: string;
  family: 4 | 6;
  cidr: string;
  gateway: string | null;
  created_at: Timestamp;
}
