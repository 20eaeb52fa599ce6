import type { ActivityLogTable } from './schema/activity-log.js';
import type { AdminSessionsTable } from './schema/admin-sessions.js';
import type { AgentTaskReportsTable, AgentTasksTable } from './schema/agent-tasks.js';
import type { BackupPoliciesTable } from './schema/backup-policies.js';
import type {
  ConsoleGatewaysTable,
  ConsoleSessionEndingsTable,
  ConsoleSessionsTable,
} from './schema/console.js';
import type { CredentialsTable } from './schema/credentials.js';
import type { EvacuationItemsTable, EvacuationsTable } from './schema/evacuations.js';
import type {
  FirewallDefaultRulesTable,
  FirewallDefaultsTable,
  FirewallRulesTable,
} from './schema/firewalls.js';
import type { HypervisorsTable } from './schema/hypervisors.js';
import type { IdempotencyRecordsTable } from './schema/idempotency-records.js';
import type { ImagesTable } from './schema/images.js';
import type { InstanceBackupsTable } from './schema/instance-backups.js';
import type { InstanceBandwidthTable } from './schema/instance-bandwidth.js';
import type { InstanceIsosTable } from './schema/instance-isos.js';
import type { InstanceMetricsTable } from './schema/instance-metrics.js';
import type { InstanceOperationsTable } from './schema/instance-operations.js';
import type { InstanceSnapshotsTable } from './schema/instance-snapshots.js';
import type { InstanceSshKeysTable } from './schema/instance-ssh-keys.js';
import type { InstancesTable, NewInstance } from './schema/instances.js';
import type { IpAddressesTable } from './schema/ip-addresses.js';
import type { IpPoolsTable } from './schema/ip-pools.js';
import type { LocationsTable } from './schema/locations.js';
import type { InstanceMetricRollupsTable } from './schema/metric-rollups.js';
import type {
  MigrationEventsTable,
  MigrationLeasesTable,
  MigrationsTable,
  TransferTokensTable,
} from './schema/migrations.js';
import type { PlansTable } from './schema/plans.js';
import type { PrivateNetworkNicsTable, PrivateNetworksTable } from './schema/private-networks.js';
import type { ProviderRunsTable, ProvidersTable } from './schema/providers.js';
import type { RateLimitsTable } from './schema/rate-limits.js';
import type { ReservationsTable } from './schema/reservations.js';
import type { ScheduledActionsTable } from './schema/scheduled-actions.js';
import type { SshKeysTable } from './schema/ssh-keys.js';
import type { StorageMoveEventsTable, StorageMovesTable } from './schema/storage-moves.js';
import type { UnknownGuestsTable } from './schema/unknown-guests.js';
import type { UsersTable } from './schema/users.js';
import type { VolumesTable } from './schema/volumes.js';

// The table types importers named from this module before each had a file of its own.
export type {
  ActivityLogTable,
  AgentTaskReportsTable,
  AgentTasksTable,
  BackupPoliciesTable,
  CredentialsTable,
  HypervisorsTable,
  IdempotencyRecordsTable,
  ImagesTable,
  InstanceBackupsTable,
  InstanceBandwidthTable,
  InstanceMetricsTable,
  InstanceOperationsTable,
  InstanceSnapshotsTable,
  InstanceSshKeysTable,
  InstancesTable,
  IpAddressesTable,
  IpPoolsTable,
  LocationsTable,
  MigrationEventsTable,
  MigrationLeasesTable,
  MigrationsTable,
  NewInstance,
  PlansTable,
  ProviderRunsTable,
  ProvidersTable,
  RateLimitsTable,
  ReservationsTable,
  SshKeysTable,
  TransferTokensTable,
  UsersTable,
};

/**
 * The database as Kysely sees it: each table's name and the type of its rows. Each table's type
 * has a file in db/schema/, kept by hand beside db/migrations/ (test/db/schema.test.ts holds them
 * to the migrated database).
 */
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
