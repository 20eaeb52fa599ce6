import type { Generated } from 'kysely';
import type { PlacementPolicy } from '../../../domain/placement-groups.js';
import type { Timestamp } from '../columns.js';

// Customers' placement groups; their members name them (instances.placement_group_id).

export interface PlacementGroupsTable {
  id: Generated<string>;
  user_id: string;
  location_id: string;
  name: string;
  policy: PlacementPolicy;
  created_at: Timestamp;
  updated_at: Timestamp;
}
