import type { AdminSessionsTable } from './schema/accounts/admin-sessions.js';
import type { CredentialsTable } from './schema/accounts/credentials.js';
import type { IdempotencyRecordsTable } from './schema/accounts/idempotency-records.js';
import type { RateLimitsTable } from './schema/accounts/rate-limits.js';
import type { SshKeysTable } from './schema/accounts/ssh-keys.js';
import type { UserQuotasTable } from './schema/accounts/user-quotas.js';
import type { UsersTable } from './schema/accounts/users.js';
import type {
  ImageCopyRemovalsTable,
  ImagesTable,
  ImageVersionHostsTable,
  ImageVersionLocationsTable,
  ImageVersionsTable,
} from './schema/catalogue/images.js';
import type { LocationsTable } from './schema/catalogue/locations.js';
import type { PlansTable } from './schema/catalogue/plans.js';
import type { ActivityLogTable } from './schema/events/activity-log.js';
import type { OutboxEventsTable, OutboxRetentionTable } from './schema/events/outbox.js';
import type {
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from './schema/events/webhooks.js';
import type { AgentTaskReportsTable, AgentTasksTable } from './schema/hypervisors/agent-tasks.js';
import type { HypervisorsTable } from './schema/hypervisors/hypervisors.js';
import type { ReservationsTable } from './schema/hypervisors/reservations.js';
import type { UnknownGuestsTable } from './schema/hypervisors/unknown-guests.js';
import type {
  ConsoleGatewaysTable,
  ConsoleSessionEndingsTable,
  ConsoleSessionsTable,
} from './schema/instances/console.js';
import type { InstanceOperationsTable } from './schema/instances/instance-operations.js';
import type { InstanceSshKeysTable } from './schema/instances/instance-ssh-keys.js';
import type { InstancesTable, InstanceUserDataTable, NewInstance } from './schema/instances/instances.js';
import type { PlacementGroupsTable } from './schema/instances/placement-groups.js';
import type { ScheduledActionsTable } from './schema/instances/scheduled-actions.js';
import type { InstanceBandwidthTable } from './schema/metrics/instance-bandwidth.js';
import type { InstanceMetricsTable } from './schema/metrics/instance-metrics.js';
import type { InstanceMetricRollupsTable } from './schema/metrics/metric-rollups.js';
import type { EvacuationItemsTable, EvacuationsTable } from './schema/moves/evacuations.js';
import type {
  MigrationEventsTable,
  MigrationsTable,
  TransferTokensTable,
} from './schema/moves/migrations.js';
import type { MoveLeasesTable } from './schema/moves/move-leases.js';
import type { StorageMoveEventsTable, StorageMovesTable } from './schema/moves/storage-moves.js';
import type {
  FirewallDefaultRulesTable,
  FirewallDefaultsTable,
  FirewallRulesTable,
} from './schema/network/firewalls.js';
import type {
  IpAddressesTable,
  RdnsResyncsTable,
  RdnsWithdrawalsTable,
} from './schema/network/ip-addresses.js';
import type { IpPoolsTable } from './schema/network/ip-pools.js';
import type { PrivateNetworkNicsTable, PrivateNetworksTable } from './schema/network/private-networks.js';
import type { ProviderRunsTable, ProvidersTable } from './schema/network/providers.js';
import type { BackupPoliciesTable } from './schema/storage/backup-policies.js';
import type { InstanceBackupsTable } from './schema/storage/instance-backups.js';
import type { InstanceIsosTable } from './schema/storage/instance-isos.js';
import type { InstanceSnapshotsTable } from './schema/storage/instance-snapshots.js';
import type { VolumesTable } from './schema/storage/volumes.js';
import type {
  UsageHoursTable,
  UsageRecordsTable,
  UsageStatesTable,
  UsageTrafficTable,
} from './schema/usage/usage.js';

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
  MigrationsTable,
  MoveLeasesTable,
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
 * has a file in a room of db/schema/ by concern (accounts, catalogue, events, hypervisors,
 * instances, metrics, moves, network, storage, usage; the shared column types in db/schema/columns.ts),
 * kept by hand beside db/migrations/ (test/db/schema.test.ts holds them to the migrated database).
 * Everything else imports the table types from here, never from db/schema/.
 */
export interface DB {
  unknown_guests: UnknownGuestsTable;
  users: UsersTable;
  user_quotas: UserQuotasTable;
  locations: LocationsTable;
  plans: PlansTable;
  images: ImagesTable;
  image_versions: ImageVersionsTable;
  image_version_locations: ImageVersionLocationsTable;
  image_version_hosts: ImageVersionHostsTable;
  image_copy_removals: ImageCopyRemovalsTable;
  hypervisors: HypervisorsTable;
  credentials: CredentialsTable;
  instances: InstancesTable;
  instance_user_data: InstanceUserDataTable;
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
  rdns_withdrawals: RdnsWithdrawalsTable;
  rdns_resyncs: RdnsResyncsTable;
  reservations: ReservationsTable;
  move_leases: MoveLeasesTable;
  outbox_events: OutboxEventsTable;
  outbox_retention: OutboxRetentionTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
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
  placement_groups: PlacementGroupsTable;
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
  usage_states: UsageStatesTable;
  usage_traffic: UsageTrafficTable;
  usage_hours: UsageHoursTable;
  usage_records: UsageRecordsTable;
}
