import type { ColumnType, Generated, Insertable } from 'kysely';
import type { BackupState, SnapshotState } from '../domain/backups.js';
import type { Virtualization } from '../domain/catalog.js';
import type { HypervisorStatus } from '../domain/hypervisors.js';
import type { GuestDrift } from '../domain/instances/guest-inventory.js';
import type { HostRequirement } from '../domain/instances/host-requirements.js';
import type { InstanceOperation, OperationState } from '../domain/instances/operations.js';
import type { InstanceStatus } from '../domain/instances/statuses.js';
import type { AddressState } from '../domain/networks/addresses.js';
import type { ReservationPurpose } from '../domain/reservations.js';
import type { AdminSessionsTable } from './schema/admin-sessions.js';
import type { AgentTaskReportsTable, AgentTasksTable } from './schema/agent-tasks.js';
import type { BigIntColumn, Json, NullableJson, NullableTimestamp, Timestamp } from './schema/columns.js';
import type {
  ConsoleGatewaysTable,
  ConsoleSessionEndingsTable,
  ConsoleSessionsTable,
} from './schema/console.js';
import type { EvacuationItemsTable, EvacuationsTable } from './schema/evacuations.js';
import type {
  FirewallDefaultRulesTable,
  FirewallDefaultsTable,
  FirewallRulesTable,
} from './schema/firewalls.js';
import type { InstanceIsosTable } from './schema/instance-isos.js';
import type { InstanceMetricRollupsTable } from './schema/metric-rollups.js';
import type {
  MigrationEventsTable,
  MigrationLeasesTable,
  MigrationsTable,
  TransferTokensTable,
} from './schema/migrations.js';
import type { PrivateNetworkNicsTable, PrivateNetworksTable } from './schema/private-networks.js';
import type { ProviderRunsTable, ProvidersTable } from './schema/providers.js';
import type { ScheduledActionsTable } from './schema/scheduled-actions.js';
import type { StorageMoveEventsTable, StorageMovesTable } from './schema/storage-moves.js';
import type { UnknownGuestsTable } from './schema/unknown-guests.js';
import type { VolumesTable } from './schema/volumes.js';

export type { AgentTaskReportsTable, AgentTasksTable } from './schema/agent-tasks.js';
export type {
  MigrationEventsTable,
  MigrationLeasesTable,
  MigrationsTable,
  TransferTokensTable,
} from './schema/migrations.js';
export type { ProviderRunsTable, ProvidersTable } from './schema/providers.js';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  is_admin: Generated<boolean>;
  disabled_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface LocationsTable {
  id: Generated<string>;
  code: string;
  name: string;
  created_at: Timestamp;
}

export interface PlansTable {
  id: Generated<string>;
  code: string;
  name: string;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  host_requirements: ColumnType<HostRequirement[], string | undefined, string>;
  /** False: withdrawn from sale; customers neither list nor order it. */
  is_public: Generated<boolean>;
  created_at: Timestamp;
}

export interface ImagesTable {
  id: Generated<string>;
  code: string;
  name: string;
  os_family: string;
  min_disk_mb: Generated<number>;
  is_public: Generated<boolean>;
  virtualization: Generated<Virtualization>;
  created_at: Timestamp;
}

export interface HypervisorsTable {
  id: Generated<string>;
  name: string;
  location_id: string;
  status: Generated<HypervisorStatus>;
  maintenance: Generated<boolean>;
  capabilities: Json<string[]>;
  storage_backends: Json<string[]>;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  free_cpu_cores: number | null;
  free_memory_mb: number | null;
  free_disk_mb: number | null;
  agent_version: string | null;
  reported_capabilities: NullableJson<string[]>;
  /** Capabilities the administrator takes away from what the agent reports. */
  withheld_capabilities: ColumnType<string[], string | undefined, string>;
  /** When its agent last sent the guests it holds (api/agent/inventory.ts). */
  inventory_reported_at: NullableTimestamp;
  last_seen_at: NullableTimestamp;
  enrolled_at: NullableTimestamp;
  architecture: Generated<string>;
  virtualization: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CredentialsTable {
  id: Generated<string>;
  type: string;
  token_hash: string;
  hint: string;
  label: string | null;
  user_id: string | null;
  hypervisor_id: string | null;
  expires_at: NullableTimestamp;
  used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface InstancesTable {
  id: Generated<string>;
  user_id: string;
  location_id: string;
  hypervisor_id: string | null;
  plan_id: string | null;
  image_id: string | null;
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
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface BackupPoliciesTable {
  id: Generated<string>;
  instance_id: string;
  user_id: string;
  name: string;
  cron: string | null;
  interval_minutes: number | null;
  keep_last: number;
  keep_days: number | null;
  paused: Generated<boolean>;
  last_run_at: NullableTimestamp;
  /** What the schedule's last run did: `{ outcome, backup_id?, reason?, removed }`. */
  last_run: NullableJson<Record<string, unknown>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InstanceBackupsTable {
  id: string;
  instance_id: string;
  user_id: string;
  name: string;
  state: Generated<BackupState>;
  size_mb: number | null;
  checksum: string | null;
  protected: Generated<boolean>;
  policy_id: string | null;
  error: NullableJson<{ code: string; message: string }>;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
  verified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
}

export interface InstanceSnapshotsTable {
  id: string;
  instance_id: string;
  user_id: string;
  name: string;
  state: Generated<SnapshotState>;
  size_mb: number | null;
  checksum: string | null;
  error: NullableJson<{ code: string; message: string }>;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
}

export interface SshKeysTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  public_key: string;
  fingerprint: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IpPoolsTable {
  id: Generated<string>;
  location_id: string;
  name: string;
  family: 4 | 6;
  cidr: string;
  gateway: string | null;
  created_at: Timestamp;
}

export interface IpAddressesTable {
  id: Generated<string>;
  pool_id: string;
  address: string;
  kind: Generated<'fixed' | 'floating'>;
  user_id: string | null;
  instance_id: string | null;
  is_primary: Generated<boolean>;
  rdns: string | null;
  state: Generated<AddressState>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ReservationsTable {
  id: Generated<string>;
  hypervisor_id: string;
  instance_id: string | null;
  /** A volume's room (purpose `volume`). */
  volume_id: string | null;
  /** A storage move's new copies (purpose `storage_move`). */
  storage_move_id: string | null;
  purpose: ReservationPurpose;
  cpu_cores: number;
  memory_mb: number;
  disk_mb: number;
  expires_at: NullableTimestamp;
  released_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface IdempotencyRecordsTable {
  user_id: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response_body: NullableJson<unknown>;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
}

export interface InstanceSshKeysTable {
  instance_id: string;
  name: string;
  fingerprint: string;
  public_key: string;
}

export interface InstanceOperationsTable {
  id: string;
  instance_id: string;
  kind: InstanceOperation;
  state: Generated<OperationState>;
  from_status: InstanceStatus;
  workflow_id: string;
  workflow_type: string;
  workflow_input: Json<unknown>;
  actor: string;
  correlation_id: string | null;
  outcome: NullableJson<Record<string, unknown>>;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface InstanceMetricsTable {
  instance_id: string;
  sampled_at: Timestamp;
  hypervisor_id: string;
  cpu_percent: number;
  memory_used_mb: number;
  disk_read_bytes: BigIntColumn;
  disk_write_bytes: BigIntColumn;
  net_rx_bytes: BigIntColumn;
  net_tx_bytes: BigIntColumn;
}

/** An instance's traffic in one billing period (domain/networks/bandwidth.ts). */
export interface InstanceBandwidthTable {
  instance_id: string;
  /** The first day of the month, UTC. */
  period: ColumnType<string, string, string>;
  inbound_bytes: BigIntColumn;
  outbound_bytes: BigIntColumn;
  last_sample_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  window_ends_at: Timestamp;
}

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

export interface DB {
  unknown_guests: UnknownGuestsTable;
  users: UsersTable;
  locations: LocationsTable;
  plans: PlansTable;
  images: ImagesTable;
  hypervisors: HypervisorsTable;
  credentials: CredentialsTable;
  instances: InstancesTable;
  instance_operations: InstanceOperationsTable;
  instance_backups: InstanceBackupsTable;
  instance_snapshots: InstanceSnapshotsTable;
  backup_policies: BackupPoliciesTable;
  scheduled_actions: ScheduledActionsTable;
  ssh_keys: SshKeysTable;
  instance_ssh_keys: InstanceSshKeysTable;
  migrations: MigrationsTable;
  migration_events: MigrationEventsTable;
  transfer_tokens: TransferTokensTable;
  ip_pools: IpPoolsTable;
  ip_addresses: IpAddressesTable;
  reservations: ReservationsTable;
  migration_leases: MigrationLeasesTable;
  idempotency_records: IdempotencyRecordsTable;
  agent_tasks: AgentTasksTable;
  agent_task_reports: AgentTaskReportsTable;
  instance_metrics: InstanceMetricsTable;
  instance_metric_rollups: InstanceMetricRollupsTable;
  instance_bandwidth: InstanceBandwidthTable;
  activity_log: ActivityLogTable;
  rate_limits: RateLimitsTable;
  providers: ProvidersTable;
  provider_runs: ProviderRunsTable;
  firewall_rules: FirewallRulesTable;
  firewall_defaults: FirewallDefaultsTable;
  firewall_default_rules: FirewallDefaultRulesTable;
  private_networks: PrivateNetworksTable;
  private_network_nics: PrivateNetworkNicsTable;
  volumes: VolumesTable;
  instance_isos: InstanceIsosTable;
  console_sessions: ConsoleSessionsTable;
  console_session_endings: ConsoleSessionEndingsTable;
  console_gateways: ConsoleGatewaysTable;
  evacuations: EvacuationsTable;
  evacuation_items: EvacuationItemsTable;
  storage_moves: StorageMovesTable;
  storage_move_events: StorageMoveEventsTable;
  admin_sessions: AdminSessionsTable;
}

export type NewInstance = Insertable<InstancesTable>;
