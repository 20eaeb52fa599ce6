import type { PowerState } from '../../../domain/instances/statuses.js';
import type { Timestamp } from '../columns.js';

/** A guest a hypervisor's inventory holds that names no instance the panel knows (api/agent/inventory.ts). */
export interface UnknownGuestsTable {
  hypervisor_id: string;
  guest_uuid: string;
  power_state: PowerState;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}
