import type { Generated } from 'kysely';
import type { Timestamp } from '../columns.js';

export interface LocationsTable {
  id: Generated<string>;
  code: string;
  name: string;
  /** The DNS provider that serves the PTR records of the location's addresses. */
  dns_provider_id: string | null;
  created_at: Timestamp;
}
