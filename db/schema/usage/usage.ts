import type { ColumnType, Generated } from 'kysely';
import type { BigIntColumn, Timestamp } from '../columns.js';

/** A change of what a resource is billed for (db/migrations/20261209T0100_usage_history.ts). */
export interface UsageStatesTable {
  /** bigint, as pg returns it: the order of changes dated alike. */
  id: Generated<string>;
  resource_type: string;
  resource_id: string;
  user_id: string | null;
  instance_id: string | null;
  plan_id: string | null;
  /** The resource's status as its table held it; null: gone or unowned. */
  status: string | null;
  suspended: boolean;
  cpu_cores: number | null;
  memory_mb: number | null;
  disk_mb: number | null;
  changed_at: Timestamp;
}

/** Traffic added to an instance's period counters (db/migrations/20261209T0102_usage_traffic.ts). */
export interface UsageTrafficTable {
  id: Generated<string>;
  instance_id: string;
  user_id: string | null;
  inbound_bytes: BigIntColumn;
  outbound_bytes: BigIntColumn;
  recorded_at: Timestamp;
}

/** A closed hour (db/migrations/20261209T0101_usage_records.ts). */
export interface UsageHoursTable {
  hour: Timestamp;
  records: Generated<number>;
  closed_at: Generated<Date>;
}

/** What the plane provided in one closed hour; never updated. */
export interface UsageRecordsTable {
  id: Generated<string>;
  hour: Timestamp;
  user_id: string;
  instance_id: string | null;
  resource_type: string;
  resource_id: string;
  plan_id: string | null;
  plan_code: string | null;
  metric: string;
  /** numeric(24, 6), as pg returns it: a decimal string. */
  quantity: ColumnType<string, string, never>;
  unit: string;
  created_at: Generated<Date>;
}
