import { type Kysely, type Migration, Migrator } from 'kysely';
import * as core from './migrations/20261122T0100_core.js';
import * as agentReports from './migrations/20261122T0200_agent_reports_and_metrics.js';
import * as rateLimits from './migrations/20261122T0400_rate_limits.js';
import * as operations from './migrations/20261122T0500_operations.js';
import * as sshKeys from './migrations/20261122T0600_ssh_keys.js';
import * as instanceLifecycle from './migrations/20261122T0700_instance_lifecycle.js';
import * as migrations from './migrations/20261122T0800_migrations.js';
import * as backups from './migrations/20261122T0900_backups.js';
import * as planHostRequirements from './migrations/20261125T0100_plan_host_requirements.js';
import * as imageVirtualization from './migrations/20261125T0200_image_virtualization.js';
import * as ipPoolRanges from './migrations/20261125T0300_ip_pool_ranges.js';
import * as userDisabled from './migrations/20261125T0400_user_disabled.js';
import * as instanceSuspension from './migrations/20261125T0500_instance_suspension.js';
import * as agentTaskLists from './migrations/20261125T0600_agent_task_lists.js';
import * as providers from './migrations/20261125T0700_providers.js';
import * as reservationLists from './migrations/20261125T0800_reservation_lists.js';
import * as planVisibility from './migrations/20261125T0900_plan_visibility.js';
import * as instanceAddresses from './migrations/20261125T1000_instance_addresses.js';
import * as instanceFirewalls from './migrations/20261125T1100_instance_firewalls.js';
import * as floatingIps from './migrations/20261125T1200_floating_ips.js';
import * as privateNetworks from './migrations/20261125T1300_private_networks.js';
import * as instanceBandwidth from './migrations/20261125T1400_instance_bandwidth.js';
import * as firewallDefaults from './migrations/20261126T0100_firewall_defaults.js';
import * as diskResize from './migrations/20261126T0200_disk_resize.js';
import * as scheduledActions from './migrations/20261126T0300_scheduled_actions.js';
import * as volumes from './migrations/20261126T0400_volumes.js';
import * as instanceIsos from './migrations/20261126T0500_instance_isos.js';
import * as isoMounts from './migrations/20261126T0600_iso_mounts.js';
import * as rescueMode from './migrations/20261126T0700_rescue_mode.js';
import * as volumeDeletes from './migrations/20261126T0800_volume_deletes.js';
import * as consoleSessions from './migrations/20261127T0100_console_sessions.js';
import * as evacuations from './migrations/20261128T0100_evacuations.js';
import * as migrationsInFlight from './migrations/20261128T0200_migrations_in_flight.js';
import * as storageMoves from './migrations/20261128T0300_storage_moves.js';
import * as backendDrains from './migrations/20261128T0400_backend_drains.js';
import * as storageMoveHolds from './migrations/20261128T0500_storage_move_holds.js';
import * as adminSessions from './migrations/20261129T0100_admin_sessions.js';
import * as agentTaskTrace from './migrations/20261130T0100_agent_task_trace.js';
import * as metricRollups from './migrations/20261201T0100_metric_rollups.js';
import * as listIndexes from './migrations/20261201T0200_list_indexes.js';
import * as instanceBootEnums from './migrations/20261202T0100_instance_boot_enums.js';
import * as migrationInterruption from './migrations/20261202T0200_migration_interruption.js';
import * as withheldCapabilities from './migrations/20261202T0300_withheld_capabilities.js';
import * as guestInventory from './migrations/20261202T0400_guest_inventory.js';
import * as isoDeletes from './migrations/20261202T0500_iso_deletes.js';
import * as moveLeases from './migrations/20261203T0100_move_leases.js';
import * as evacuationRestores from './migrations/20261204T0800_evacuation_restores.js';
import * as userQuotas from './migrations/20261204T0900_user_quotas.js';
import * as convergencePolicies from './migrations/20261204T1000_convergence_policies.js';
import * as hypervisorBandwidthBudgets from './migrations/20261204T1100_hypervisor_bandwidth_budgets.js';
import * as migrationLiveProgress from './migrations/20261205T0100_migration_live_progress.js';
import * as reverseDnsPublishing from './migrations/20261205T0200_reverse_dns_publishing.js';
import * as planChanges from './migrations/20261205T0300_plan_changes.js';
import * as outbox from './migrations/20261205T0500_outbox.js';
import * as webhookEndpoints from './migrations/20261205T0600_webhook_endpoints.js';
import * as webhookDeliveries from './migrations/20261205T0700_webhook_deliveries.js';
import * as failingEndpoints from './migrations/20261205T0800_failing_endpoints.js';
import * as eventStream from './migrations/20261206T0100_event_stream.js';
import * as apiVersions from './migrations/20261206T0200_api_versions.js';
import * as outboxRecorder from './migrations/20261206T0300_outbox_recorder.js';
import * as outboxVolumesConsoles from './migrations/20261206T0301_outbox_volumes_consoles.js';
import * as outboxPlane from './migrations/20261206T0302_outbox_plane.js';
import * as rdnsWithdrawals from './migrations/20261206T0401_rdns_withdrawals.js';
import * as dnsProtocols from './migrations/20261206T0402_dns_protocols.js';
import * as instanceUserData from './migrations/20261206T0500_instance_user_data.js';
import * as instanceEventUserData from './migrations/20261206T0501_instance_event_user_data.js';
import * as operationParentRuns from './migrations/20261206T0601_operation_parent_runs.js';
import * as imageVersions from './migrations/20261207T0200_image_versions.js';
import * as rdnsResyncs from './migrations/20261207T0400_rdns_resyncs.js';
import * as imageFetchRuns from './migrations/20261207T0500_image_fetch_runs.js';
import * as imageCopyRemovals from './migrations/20261208T0100_image_copy_removals.js';
import * as externalIds from './migrations/20261208T0200_external_ids.js';
import * as usageHistory from './migrations/20261209T0100_usage_history.js';
import * as usageRecords from './migrations/20261209T0101_usage_records.js';
import * as usageTraffic from './migrations/20261209T0102_usage_traffic.js';
import * as usageArtifacts from './migrations/20261209T0103_usage_artifacts.js';
import * as placementGroups from './migrations/20261209T0200_placement_groups.js';

/** Every migration, in order. A static list, so the same code runs under tsx, node and a bundle. */
const MIGRATIONS: Record<string, Migration> = {
  '20261122T0100_core': core,
  '20261122T0200_agent_reports_and_metrics': agentReports,
  '20261122T0400_rate_limits': rateLimits,
  '20261122T0500_operations': operations,
  '20261122T0600_ssh_keys': sshKeys,
  '20261122T0700_instance_lifecycle': instanceLifecycle,
  '20261122T0800_migrations': migrations,
  '20261122T0900_backups': backups,
  '20261125T0100_plan_host_requirements': planHostRequirements,
  '20261125T0200_image_virtualization': imageVirtualization,
  '20261125T0300_ip_pool_ranges': ipPoolRanges,
  '20261125T0400_user_disabled': userDisabled,
  '20261125T0500_instance_suspension': instanceSuspension,
  '20261125T0600_agent_task_lists': agentTaskLists,
  '20261125T0700_providers': providers,
  '20261125T0800_reservation_lists': reservationLists,
  '20261125T0900_plan_visibility': planVisibility,
  '20261125T1000_instance_addresses': instanceAddresses,
  '20261125T1100_instance_firewalls': instanceFirewalls,
  '20261125T1200_floating_ips': floatingIps,
  '20261125T1300_private_networks': privateNetworks,
  '20261125T1400_instance_bandwidth': instanceBandwidth,
  '20261126T0100_firewall_defaults': firewallDefaults,
  '20261126T0200_disk_resize': diskResize,
  '20261126T0300_scheduled_actions': scheduledActions,
  '20261126T0400_volumes': volumes,
  '20261126T0500_instance_isos': instanceIsos,
  '20261126T0600_iso_mounts': isoMounts,
  '20261126T0700_rescue_mode': rescueMode,
  '20261126T0800_volume_deletes': volumeDeletes,
  '20261127T0100_console_sessions': consoleSessions,
  '20261128T0100_evacuations': evacuations,
  '20261128T0200_migrations_in_flight': migrationsInFlight,
  '20261128T0300_storage_moves': storageMoves,
  '20261128T0400_backend_drains': backendDrains,
  '20261128T0500_storage_move_holds': storageMoveHolds,
  '20261129T0100_admin_sessions': adminSessions,
  '20261130T0100_agent_task_trace': agentTaskTrace,
  '20261201T0100_metric_rollups': metricRollups,
  '20261201T0200_list_indexes': listIndexes,
  '20261202T0100_instance_boot_enums': instanceBootEnums,
  '20261202T0200_migration_interruption': migrationInterruption,
  '20261202T0300_withheld_capabilities': withheldCapabilities,
  '20261202T0400_guest_inventory': guestInventory,
  '20261202T0500_iso_deletes': isoDeletes,
  '20261203T0100_move_leases': moveLeases,
  '20261204T0800_evacuation_restores': evacuationRestores,
  '20261204T0900_user_quotas': userQuotas,
  '20261204T1000_convergence_policies': convergencePolicies,
  '20261204T1100_hypervisor_bandwidth_budgets': hypervisorBandwidthBudgets,
  '20261205T0100_migration_live_progress': migrationLiveProgress,
  '20261205T0200_reverse_dns_publishing': reverseDnsPublishing,
  '20261205T0300_plan_changes': planChanges,
  '20261205T0500_outbox': outbox,
  '20261205T0600_webhook_endpoints': webhookEndpoints,
  '20261205T0700_webhook_deliveries': webhookDeliveries,
  '20261205T0800_failing_endpoints': failingEndpoints,
  '20261206T0100_event_stream': eventStream,
  '20261206T0200_api_versions': apiVersions,
  '20261206T0300_outbox_recorder': outboxRecorder,
  '20261206T0301_outbox_volumes_consoles': outboxVolumesConsoles,
  '20261206T0302_outbox_plane': outboxPlane,
  '20261206T0401_rdns_withdrawals': rdnsWithdrawals,
  '20261206T0402_dns_protocols': dnsProtocols,
  '20261206T0500_instance_user_data': instanceUserData,
  '20261206T0501_instance_event_user_data': instanceEventUserData,
  '20261206T0601_operation_parent_runs': operationParentRuns,
  '20261207T0200_image_versions': imageVersions,
  '20261207T0400_rdns_resyncs': rdnsResyncs,
  '20261207T0500_image_fetch_runs': imageFetchRuns,
  '20261208T0100_image_copy_removals': imageCopyRemovals,
  '20261208T0200_external_ids': externalIds,
  '20261209T0100_usage_history': usageHistory,
  '20261209T0101_usage_records': usageRecords,
  '20261209T0102_usage_traffic': usageTraffic,
  '20261209T0103_usage_artifacts': usageArtifacts,
  '20261209T0200_placement_groups': placementGroups,
};

export interface MigrationOutcome {
  readonly applied: string[];
}

/**
 * Brings the schema up to date. Safe to run from several processes at once: Kysely's migrator
 * holds a PostgreSQL advisory lock for the whole run, so a second runner waits and then finds
 * nothing left to do.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationOutcome> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    throw new Error('database migration failed', { cause: error });
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

/** The migrations this build knows that the database has not applied; reads only. */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  return (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
}
