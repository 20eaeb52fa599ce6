import type { ColumnType, Generated, Insertable } from 'kysely';
import type { GuestDrift } from '../../../domain/instances/guest-inventory.js';
import type { HostRequirement } from '../../../domain/instances/host-requirements.js';
import type { InstanceStatus } from '../../../domain/instances/statuses.js';
import type { UserDataKind } from '../../../domain/instances/user-data.js';
import type { Json, NullableTimestamp, Timestamp } from '../columns.js';

export interface InstancesTable {
  id: Generated<string>;
  user_id: string;
  location_id: string;
  hypervisor_id: string | null;
  plan_id: string | null;
  image_id: string | null;
  /** The version of the image its disk was written from; none for an image without versions. */
  image_version_id: Generated<string | null>;
  name: string;
  hostname: string;
  status: InstanceStatus;
  /** The running operation, if any: the one record that says an operation is under way. */
  operation_id: string | null;
  /** The root password sealed with SECRETS_KEY (platform/secrets.ts); never serialized. */
  password_sealed: string | null;
  password_visible_until: NullableTimestamp;
  password_shown_at: NullableTimestamp;
  /** Host-bound needs (HYPERVISOR_CAPABILITIES names): each blocks a migration. */
  host_requirements: ColumnType<HostRequirement[], string | undefined, string>;
  storage_backend: Generated<string>;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  primary_ipv4: string | null;
  primary_ipv6: string | null;
  virtualization: string;
  boot_order: Json<string[]>;
  timezone: Generated<string>;
  /** Set on an instance restored from a backup as a new instance. */
  source_backup_id: string | null;
  /** Set by an administrator: the customer begins no operation while it is. */
  suspended_at: NullableTimestamp;
  /** The network the panel wants the instance to have, bumped by every change to it. */
  network_revision: Generated<number>;
  /** The newest network revision its hypervisor confirmed. */
  network_applied_revision: Generated<number>;
  /** Whether the firewall's rules are enforced; turning it off keeps them. */
  firewall_enabled: Generated<boolean>;
  firewall_revision: Generated<number>;
  firewall_applied_revision: Generated<number>;
  /** What its hypervisor's inventory contradicted (domain/instances/guest-inventory.ts); null: nothing. */
  guest_drift: GuestDrift | null;
  guest_drift_since: NullableTimestamp;
  /** The most vCPUs and memory the running guest may grow to, as its hypervisor reported; null: none. */
  hot_ceiling_cpu_cores: Generated<number | null>;
  hot_ceiling_memory_mb: Generated<number | null>;
  /** What the envelope says of the customer's user-data (its content is in instance_user_data); all null: none. */
  user_data_kind: Generated<UserDataKind | null>;
  user_data_bytes: Generated<number | null>;
  user_data_sha256: Generated<string | null>;
  /** A billing system's own id for the instance (domain/external-ids.ts); null: none. */
  external_id: Generated<string | null>;
  /** The customer's placement group it is a member of (domain/placement-groups.ts); null: none. */
  placement_group_id: Generated<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export type NewInstance = Insertable<InstancesTable>;

/** A customer's user-data, sealed with SECRETS_KEY (platform/secrets.ts); never serialized. */
export interface InstanceUserDataTable {
  instance_id: string;
  sealed: string;
  updated_at: Timestamp;
}
